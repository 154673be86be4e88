// SPDX-License-Identifier: GPL-3.0-or-later
// The exports the six views of the model's insides share: PNG, SVG and CSV
// of each view; refused suffixes and unwritable paths; an old file kept when
// an export fails; the shared helper that asks for a file name.
#include <QComboBox>
#include <QFile>
#include <QImage>
#include <QLabel>
#include <QPainter>
#include <QProgressBar>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardItemModel>
#include <QTableView>
#include <QTemporaryDir>
#include "TestProgram.h"
#include <cmath>
#include <functional>

#include "widgets/CharacterMapView.h"
#include "widgets/FeedForwardView.h"
#include "widgets/HeadRolesView.h"
#include "widgets/InsideData.h"
#include "InsideSamples.h"
#include "widgets/KnockoutView.h"
#include "widgets/LogitLensView.h"
#include "widgets/ResidualStreamView.h"
#include "widgets/ValueGrid.h"
#include "widgets/ViewExport.h"
#include "qcustomplot.h"

namespace tst_insideexports {

using namespace inside_samples;

namespace {

struct Views {
    LogitLensView lens;
    KnockoutView knockout;
    HeadRolesView roles;
    CharacterMapView map;
    FeedForwardView feedForward;
    ResidualStreamView stream;

    Views() {
        lens.setLens(sampleLens());
        knockout.setKnockout(sampleKnockout());
        roles.setHeadRoles(sampleRoles());
        map.setMap(sampleMap());
        feedForward.setProbe(sampleProbe());
        stream.setStream(sampleStream());
    }
    std::function<bool(const QString&, QString*)> exporter(const QString& name) {
        if (name == QLatin1String("lens"))
            return [this](const QString& p, QString* e) { return lens.exportTo(p, e); };
        if (name == QLatin1String("knockout"))
            return [this](const QString& p, QString* e) { return knockout.exportTo(p, e); };
        if (name == QLatin1String("roles"))
            return [this](const QString& p, QString* e) { return roles.exportTo(p, e); };
        if (name == QLatin1String("feedforward"))
            return [this](const QString& p, QString* e) { return feedForward.exportTo(p, e); };
        if (name == QLatin1String("stream"))
            return [this](const QString& p, QString* e) { return stream.exportTo(p, e); };
        return [this](const QString& p, QString* e) { return map.exportTo(p, e); };
    }
};

}  // namespace

class TestInsideExports : public QObject {
    Q_OBJECT

private slots:
    void exports_data();
    void exports();
    void exportRefusals_data();
    void exportRefusals();
    void failedExportKeepsOldFile();
    void exportHelper();
};

void TestInsideExports::exports_data() {
    QTest::addColumn<QString>("view");
    QTest::addColumn<QString>("suffix");
    QTest::addColumn<QString>("csvHeader");
    QTest::addColumn<int>("csvRows");
    const struct {
        const char* view;
        const char* header;
        int rows;
    } views[] = {
        {"lens", "layer,layer_label,position,character", 9},
        {"knockout", "knocked_out,kind,layer,head,loss,increase", 7},
        {"roles", "step,head,layer,head_index,previous_token,induction", 18},
        {"map", "step,character,kind,x,y,explained_x,explained_y,neighbour1,cosine1,neighbour2,cosine2", 10},
        // 2 layers of 3 neurons shown at 4 positions.
        {"feedforward", "layer,neuron,position,character,activation", 24},
        // "ab", 2 layers: 3 x 2 sizes, 2 x 2 writes of each half, a share a layer.
        {"stream", "quantity,layer,position,character,value", 16}};
    for (const auto& v : views)
        for (const char* suffix : {"png", "svg", "csv"})
            QTest::newRow(qPrintable(QStringLiteral("%1.%2").arg(v.view, suffix)))
                << QString::fromLatin1(v.view) << QString::fromLatin1(suffix) << QString::fromLatin1(v.header)
                << v.rows;
}

void TestInsideExports::exports() {
    QFETCH(QString, view);
    QFETCH(QString, suffix);
    QFETCH(QString, csvHeader);
    QFETCH(int, csvRows);
    Views views;
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("export.") + suffix.toUpper());  // suffixes in any case
    QString error;
    QVERIFY2(views.exporter(view)(path, &error), qPrintable(error));
    const QByteArray bytes = readAll(path);
    QVERIFY(!bytes.isEmpty());
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files).size(), 1);  // no temporary file left
    if (suffix == QLatin1String("png")) {
        QImage image;
        QVERIFY(image.loadFromData(bytes, "PNG"));
        QVERIFY(image.width() > 200 && image.height() > 100);
        // Something besides the white background was drawn.
        bool drawn = false;
        for (int y = 0; y < image.height() && !drawn; y += 3)
            for (int x = 0; x < image.width() && !drawn; x += 3)
                drawn = image.pixelColor(x, y) != QColor(Qt::white);
        QVERIFY(drawn);
    } else if (suffix == QLatin1String("svg")) {
        QVERIFY(bytes.contains("<svg"));
        QVERIFY(bytes.contains("</svg>"));
        if (view == QLatin1String("map"))  // the labels stay text, CJK included
            QVERIFY(bytes.contains(QStringLiteral("中").toUtf8()));
    } else {
        const QStringList lines = csvRecords(QString::fromUtf8(bytes));
        QVERIFY2(lines.first().startsWith(csvHeader), qPrintable(lines.first()));
        QCOMPARE(lines.size(), 1 + csvRows);
    }
}

void TestInsideExports::exportRefusals_data() {
    QTest::addColumn<QString>("view");
    for (const char* view : {"lens", "knockout", "roles", "map", "feedforward", "stream"})
        QTest::newRow(view) << QString::fromLatin1(view);
}

void TestInsideExports::exportRefusals() {
    QFETCH(QString, view);
    Views views;
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    // An unknown suffix: refused with the ones that work, nothing written.
    QString error;
    const QString text = dir.filePath(QStringLiteral("export.txt"));
    QVERIFY(!views.exporter(view)(text, &error));
    QVERIFY2(error.contains(QStringLiteral(".png")) && error.contains(QStringLiteral(".csv")),
             qPrintable(error));
    QVERIFY(!QFile::exists(text));
    // A folder that does not exist: refused, the message names the file.
    for (const char* suffix : {"png", "svg", "csv"}) {
        error.clear();
        const QString path = dir.filePath(QStringLiteral("missing/export.") + QLatin1String(suffix));
        QVERIFY(!views.exporter(view)(path, &error));
        QVERIFY2(error.contains(QStringLiteral("export.") + QLatin1String(suffix)), qPrintable(error));
    }
    // An empty view has nothing to draw.
    error.clear();
    QVERIFY(!LogitLensView().exportTo(dir.filePath(QStringLiteral("empty.png")), &error));
    QVERIFY(!error.isEmpty());
    error.clear();
    QVERIFY(!FeedForwardView().exportTo(dir.filePath(QStringLiteral("empty.png")), &error));
    QVERIFY(!error.isEmpty());
    error.clear();
    QVERIFY(!ResidualStreamView().exportTo(dir.filePath(QStringLiteral("empty.svg")), &error));
    QVERIFY(!error.isEmpty());
    QVERIFY(!QFile::exists(dir.filePath(QStringLiteral("empty.png"))));
    QVERIFY(!QFile::exists(dir.filePath(QStringLiteral("empty.svg"))));
}

void TestInsideExports::failedExportKeepsOldFile() {
    Views views;
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    // A name of 250 bytes exists; the temporary file beside it (the name and
    // ".XXXXXX") would be longer than a file name may be, so the export
    // fails, even for root, before the old file is touched.
    for (const char* suffix : {"png", "svg", "csv"}) {
        const QString name = QString(246, QLatin1Char('x')) + QLatin1Char('.') + QLatin1String(suffix);
        const QString path = dir.filePath(name);
        {
            QFile old(path);
            QVERIFY(old.open(QIODevice::WriteOnly));
            old.write("the old export");
        }
        for (const QString& view : {QStringLiteral("lens"), QStringLiteral("knockout"), QStringLiteral("roles"),
                                    QStringLiteral("map"), QStringLiteral("feedforward"), QStringLiteral("stream")}) {
            QString error;
            QVERIFY2(!views.exporter(view)(path, &error), qPrintable(view));
            QVERIFY(!error.isEmpty());
            QCOMPARE(readAll(path), QByteArray("the old export"));
        }
    }
    QCOMPARE(QDir(dir.path()).entryList(QDir::Files).size(), 3);
    // A refused suffix leaves an existing file alone too.
    const QString text = dir.filePath(QStringLiteral("notes.txt"));
    {
        QFile old(text);
        QVERIFY(old.open(QIODevice::WriteOnly));
        old.write("notes");
    }
    QVERIFY(!views.lens.exportTo(text));
    QCOMPARE(readAll(text), QByteArray("notes"));
}

void TestInsideExports::exportHelper() {
    QCOMPARE(ViewExport::formatOf(QStringLiteral("a/b.Svg")), ViewExport::Format::Svg);
    QCOMPARE(ViewExport::formatOf(QStringLiteral("b.png.txt")), ViewExport::Format::Unknown);
    QCOMPARE(ViewExport::csvField(QStringLiteral("a,\"b\"")), QStringLiteral("\"a,\"\"b\"\"\""));
    QCOMPARE(ViewExport::csvField(QStringLiteral("中")), QStringLiteral("中"));
    QCOMPARE(ViewExport::csvNumber(std::nan("")), QString());

    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    // A widget drawn as it is on screen, into a picture of another size.
    QLabel label(QStringLiteral("中文 text"));
    label.setStyleSheet(QStringLiteral("background: rgb(0, 0, 255); color: white"));
    label.resize(200, 40);
    const QString png = dir.filePath(QStringLiteral("label.png"));
    QString error;
    QVERIFY2(ViewExport::writePicture(
                 png, QSize(100, 20),
                 [&](QPainter& painter, const QRectF& target) { ViewExport::paintWidget(painter, target, &label); },
                 &error),
             qPrintable(error));
    QImage image(png);
    QCOMPARE(image.size(), QSize(100, 20));
    QCOMPARE(image.pixelColor(2, 2), QColor(0, 0, 255));  // scaled down to fit
    // Text is written as UTF-8 and replaces the old file only when complete.
    const QString csv = dir.filePath(QStringLiteral("t.csv"));
    QVERIFY(ViewExport::writeText(csv, QStringLiteral("a,中\n"), &error));
    QCOMPARE(readAll(csv), QStringLiteral("a,中\n").toUtf8());
    QVERIFY(!ViewExport::writePicture(png, QSize(), [](QPainter&, const QRectF&) {}, &error));
    QVERIFY(!error.isEmpty());
    QCOMPARE(QImage(png).size(), QSize(100, 20));
}

CHARGPT_TEST_MAIN(TestInsideExports)
}  // namespace tst_insideexports
#include "tst_insideexports.moc"
