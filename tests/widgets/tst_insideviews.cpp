// SPDX-License-Identifier: GPL-3.0-or-later
// The four views of the model's insides on hand-made data: the logit lens's
// cells and tooltips, the knock-out table's order and heatmap, the head roles'
// lines and the heatmap that follows the step, the characters' map's fixed
// axes and kinds, and the exports every view shares (PNG, SVG, CSV; refused
// suffixes, unwritable paths, an old file kept when the export fails).
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

#include "CharacterMapView.h"
#include "HeadRolesView.h"
#include "InsideData.h"
#include "KnockoutView.h"
#include "LogitLensView.h"
#include "ValueGrid.h"
#include "ViewExport.h"
#include "qcustomplot.h"

namespace tst_insideviews {

namespace {

double lightness(const QColor& c) { return 0.2126 * c.redF() + 0.7152 * c.greenF() + 0.0722 * c.blueF(); }

LogitLensCell lensCell(const QString& top, float p, int rank = 0, float trueP = std::nanf("")) {
    LogitLensCell cell;
    cell.top = top;
    cell.topProbability = p;
    cell.trueRank = rank;
    cell.trueProbability = trueP;
    return cell;
}

// The probe "abc" read after the embeddings and two blocks.
LogitLens sampleLens() {
    LogitLens lens;
    lens.characters = QStringList{"a", "b", "c"};
    lens.layers = LogitLens::defaultLayerLabels(2);
    lens.step = 40;
    lens.cells = {lensCell("x", 0.10f, 7, 0.01f), lensCell("y", 0.12f, 5, 0.02f),  lensCell("z", 0.2f),
                  lensCell("b", 0.40f, 1, 0.40f), lensCell("x", 0.30f, 2, 0.25f),  lensCell("中", 0.5f),
                  lensCell("b", 0.90f, 1, 0.90f), lensCell("d", 0.60f, 3, 0.125f), lensCell("\n", 0.7f)};
    return lens;
}

KnockoutRow knockoutRow(KnockoutKind kind, int layer, int head, double loss, double baseline) {
    KnockoutRow row;
    row.kind = kind;
    row.layer = layer;
    row.head = head;
    row.loss = loss;
    row.increase = loss - baseline;
    return row;
}

// Two layers of two heads; losses around 10 so that sorting them as text
// ("10.2" before "9.5") would be wrong.
Knockout sampleKnockout() {
    Knockout k;
    k.baselineLoss = 9.8;
    k.layers = 2;
    k.heads = 2;
    k.step = 300;
    k.rows = {knockoutRow(KnockoutKind::Head, 0, 0, 9.9, 9.8),
              knockoutRow(KnockoutKind::Head, 0, 1, 10.6, 9.8),
              knockoutRow(KnockoutKind::Head, 1, 0, 9.75, 9.8),
              knockoutRow(KnockoutKind::Head, 1, 1, 10.2, 9.8),
              knockoutRow(KnockoutKind::Attention, 0, -1, 11.5, 9.8),
              knockoutRow(KnockoutKind::FeedForward, 1, -1, 9.85, 9.8)};
    return k;
}

// Two layers of three heads at steps 0, 100 and 200; score = layer/10 +
// head/100 + frame/4 (previous-token) and half of it (induction).
HeadRoles sampleRoles() {
    HeadRoles roles;
    roles.layers = 2;
    roles.heads = 3;
    roles.previousTokenChance = 0.125;
    roles.inductionChance = 0.05;
    for (int f = 0; f < 3; ++f) {
        HeadRolesFrame frame;
        frame.step = 100 * f;
        for (int l = 0; l < 2; ++l)
            for (int h = 0; h < 3; ++h) {
                const float score = 0.1f * l + 0.01f * h + 0.25f * f;
                frame.previousToken << score;
                frame.induction << score / 2;
            }
        roles.frames << frame;
    }
    return roles;
}

// Two frames: the second spreads the characters wider than the first.
CharacterMap sampleMap() {
    CharacterMap map;
    const QStringList characters{"a", "7", ",", "中", " "};
    for (int f = 0; f < 2; ++f) {
        CharacterMapFrame frame;
        frame.step = 50 * (f + 1);
        frame.characters = characters;
        const double spread = f == 0 ? 1.0 : 3.0;
        frame.points = {QPointF(-spread, 0), QPointF(spread, 0.5), QPointF(0, spread), QPointF(0.5, -spread),
                        QPointF(0.2, 0.2)};
        frame.explainedX = 0.4;
        frame.explainedY = 0.25;
        for (int i = 0; i < characters.size(); ++i)
            frame.neighbours << QVector<CharacterNeighbour>{{characters[(i + 1) % 5], 0.875f},
                                                            {characters[(i + 2) % 5], 0.5f}};
        frame.positions = 3;
        frame.positionSimilarity = {1, 0.5f, -0.5f, 0.5f, 1, 0, -0.5f, 0, 1};
        map.frames << frame;
    }
    return map;
}

struct Views {
    LogitLensView lens;
    KnockoutView knockout;
    HeadRolesView roles;
    CharacterMapView map;

    Views() {
        lens.setLens(sampleLens());
        knockout.setKnockout(sampleKnockout());
        roles.setHeadRoles(sampleRoles());
        map.setMap(sampleMap());
    }
    std::function<bool(const QString&, QString*)> exporter(const QString& name) {
        if (name == QLatin1String("lens"))
            return [this](const QString& p, QString* e) { return lens.exportTo(p, e); };
        if (name == QLatin1String("knockout"))
            return [this](const QString& p, QString* e) { return knockout.exportTo(p, e); };
        if (name == QLatin1String("roles"))
            return [this](const QString& p, QString* e) { return roles.exportTo(p, e); };
        return [this](const QString& p, QString* e) { return map.exportTo(p, e); };
    }
};

// The records of a CSV text: line breaks inside quoted fields do not end one.
QStringList csvRecords(const QString& text) {
    QStringList records;
    QString record;
    bool quoted = false;
    for (const QChar c : text) {
        if (c == QLatin1Char('"')) quoted = !quoted;
        if (c == QLatin1Char('\n') && !quoted) {
            records << record;
            record.clear();
        } else {
            record += c;
        }
    }
    if (!record.isEmpty()) records << record;
    return records;
}

QByteArray readAll(const QString& path) {
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

}  // namespace

class TestInsideViews : public QObject {
    Q_OBJECT

private slots:
    void characterKinds();
    void logitLensGrid();
    void knockoutTableAndHeatmap();
    void knockoutBusy();
    void headRolesPlotAndHeatmap();
    void characterMapAxesAndTooltip();
    void exports_data();
    void exports();
    void exportRefusals_data();
    void exportRefusals();
    void failedExportKeepsOldFile();
    void exportHelper();
};

void TestInsideViews::characterKinds() {
    QCOMPARE(characterKind(QStringLiteral("a")), CharacterKind::Letter);
    QCOMPARE(characterKind(QStringLiteral("É")), CharacterKind::Letter);
    QCOMPARE(characterKind(QStringLiteral("7")), CharacterKind::Digit);
    QCOMPARE(characterKind(QStringLiteral(",")), CharacterKind::Punctuation);
    QCOMPARE(characterKind(QStringLiteral("，")), CharacterKind::Punctuation);  // full-width comma
    QCOMPARE(characterKind(QStringLiteral("+")), CharacterKind::Punctuation);
    QCOMPARE(characterKind(QStringLiteral("中")), CharacterKind::Cjk);
    QCOMPARE(characterKind(QStringLiteral("か")), CharacterKind::Cjk);
    QCOMPARE(characterKind(QString::fromUcs4(U"\U00020000")), CharacterKind::Cjk);  // beyond the BMP
    QCOMPARE(characterKind(QStringLiteral(" ")), CharacterKind::Space);
    QCOMPARE(characterKind(QStringLiteral("\n")), CharacterKind::Space);
    QCOMPARE(characterKind(QStringLiteral("\x01")), CharacterKind::Other);
    QCOMPARE(characterKind(QString()), CharacterKind::Other);
    // Each kind has its own colour and name.
    QSet<QRgb> colours;
    QSet<QString> names;
    for (CharacterKind kind : allCharacterKinds()) {
        colours.insert(characterKindColor(kind).rgb());
        names.insert(characterKindName(kind));
    }
    QCOMPARE(colours.size(), allCharacterKinds().size());
    QCOMPARE(names.size(), allCharacterKinds().size());
}

void TestInsideViews::logitLensGrid() {
    LogitLensView view;
    view.resize(900, 500);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    view.setLens(sampleLens());
    const ValueGridData& data = view.grid()->data();
    QCOMPARE(data.rows(), 3);
    QCOMPARE(data.columns(), 3);
    QCOMPARE(data.rowLabels, (QStringList{"embeddings", "block 1", "block 2"}));
    QCOMPARE(data.cellText(2, 1), QStringLiteral("d"));  // the model's own guess after "b"
    QCOMPARE(data.cellText(1, 2), QStringLiteral("中"));
    QCOMPARE(data.cellText(2, 2), QStringLiteral("\u21b5"));  // a newline, drawn visible
    // Brighter for a surer guess.
    QVERIFY(lightness(view.grid()->cellColor(2, 0)) > lightness(view.grid()->cellColor(0, 0)));

    const QString tip = view.toolTipText(2, 1);
    QVERIFY2(tip.contains(QStringLiteral("block 2")), qPrintable(tip));
    QVERIFY2(tip.contains(QStringLiteral("Top guess: “d”, 60.0%")), qPrintable(tip));
    QVERIFY2(tip.contains(QStringLiteral("True next character: “c”, rank 3, 12.5%")), qPrintable(tip));
    const QString last = view.toolTipText(0, 2);
    QVERIFY2(last.contains(QStringLiteral("No next character to compare with.")), qPrintable(last));
    QVERIFY(view.toolTipText(3, 0).isEmpty());
    // The grid shows the view's tooltip for the cell under the pointer.
    const QRect cell = view.grid()->cellRect(2, 1);
    QVERIFY(!cell.isEmpty());
    int row = -1, column = -1;
    QVERIFY(view.grid()->cellAt(cell.center(), &row, &column));
    QCOMPARE(row, 2);
    QCOMPARE(column, 1);
    QCOMPARE(view.grid()->toolTipText(row, column), tip);
    QVERIFY(view.statusLabel()->text().contains(QStringLiteral("40")));

    // A lens that knows the character after its last position (the probe's
    // last, or the one Step mode picked) compares with it there too.
    LogitLens known = view.lens();
    known.following = QStringLiteral("e");
    known.cells[2].trueRank = 4;  // layer 0, position 2
    known.cells[2].trueProbability = 0.05f;
    view.setLens(known);
    const QString end = view.toolTipText(0, 2);
    QVERIFY2(end.contains(QStringLiteral("True next character: “e”, rank 4, 5.00%")), qPrintable(end));
}

void TestInsideViews::knockoutTableAndHeatmap() {
    KnockoutView view;
    view.setKnockout(sampleKnockout());
    const QStandardItemModel* model = view.tableModel();
    QCOMPARE(model->rowCount(), 6);
    // Largest increase first, by number.
    QCOMPARE(model->item(0, KnockoutView::NameColumn)->text(), QStringLiteral("L1 attention"));
    QCOMPARE(model->item(1, KnockoutView::NameColumn)->text(), QStringLiteral("L1 H2"));
    for (int r = 1; r < model->rowCount(); ++r)
        QVERIFY(model->item(r - 1, KnockoutView::IncreaseColumn)->data(KnockoutView::SortRole).toDouble() >=
                model->item(r, KnockoutView::IncreaseColumn)->data(KnockoutView::SortRole).toDouble());
    QCOMPARE(model->item(model->rowCount() - 1, KnockoutView::NameColumn)->text(), QStringLiteral("L2 H1"));
    QVERIFY(model->item(model->rowCount() - 1, KnockoutView::IncreaseColumn)
                ->text()
                .startsWith(QLatin1Char('-')));

    // The user sorts by loss: numbers, not text (9.75 before 10.2).
    view.table()->sortByColumn(KnockoutView::LossColumn, Qt::AscendingOrder);
    QCOMPARE(model->item(0, KnockoutView::NameColumn)->text(), QStringLiteral("L2 H1"));
    QCOMPARE(model->item(model->rowCount() - 1, KnockoutView::NameColumn)->text(),
             QStringLiteral("L1 attention"));

    // Each head's heatmap cell holds its row's increase.
    const ValueGridData& data = view.heatmap()->data();
    QCOMPARE(data.rows(), 2);
    QCOMPARE(data.columns(), 2);
    for (const KnockoutRow& row : sampleKnockout().rows) {
        if (row.kind != KnockoutKind::Head) continue;
        QCOMPARE(data.value(row.layer, row.head), row.increase);
        QVERIFY(view.toolTipText(row.layer, row.head).contains(knockoutPartName(row)));
    }
    // The largest increase is the brightest cell.
    QVERIFY(lightness(view.heatmap()->cellColor(0, 1)) > lightness(view.heatmap()->cellColor(1, 0)));
    QVERIFY2(view.baselineLabel()->text().contains(QStringLiteral("9.8000")),
             qPrintable(view.baselineLabel()->text()));
}

void TestInsideViews::knockoutBusy() {
    KnockoutView view;
    QSignalSpy requested(&view, &KnockoutView::knockoutRequested);
    QVERIFY(!view.isBusy());
    view.knockoutButton()->click();
    QCOMPARE(requested.count(), 1);
    QVERIFY(view.isBusy());
    QVERIFY(!view.knockoutButton()->isEnabled());
    QVERIFY(!view.busyBar()->isHidden());
    view.setKnockout(sampleKnockout());
    QVERIFY(!view.isBusy());
    QVERIFY(view.knockoutButton()->isEnabled());
    QVERIFY(view.busyBar()->isHidden());
    view.knockoutButton()->click();
    view.showProblem(QStringLiteral("no evaluation batches"));
    QVERIFY(!view.isBusy());
    QCOMPARE(view.baselineLabel()->text(), QStringLiteral("no evaluation batches"));
}

void TestInsideViews::headRolesPlotAndHeatmap() {
    HeadRolesView view;
    const HeadRoles roles = sampleRoles();
    view.setHeadRoles(roles);
    QCustomPlot* plot = view.plot();
    QCOMPARE(plot->graphCount(), 6);
    QCOMPARE(plot->graph(0)->name(), QStringLiteral("L1 H1"));
    QCOMPARE(plot->graph(5)->name(), QStringLiteral("L2 H3"));
    QCOMPARE(plot->graph(4)->data()->size(), 3);
    QCOMPARE(plot->graph(4)->data()->at(2)->key, 200.0);
    QCOMPARE(plot->graph(4)->data()->at(2)->value, roles.score(HeadRole::PreviousToken, 2, 1, 1));
    QVERIFY(view.chanceLine()->visible());
    QCOMPARE(view.chanceLine()->point1->coords().y(), 0.125);
    QCOMPARE(view.chanceLine()->pen().style(), Qt::DashLine);

    // No step set: the newest frame.
    QCOMPARE(view.currentFrame(), 2);
    auto heatmapIsFrame = [&](int frame, HeadRole role) {
        const ValueGridData& data = view.heatmap()->data();
        if (data.rows() != 2 || data.columns() != 3) return false;
        for (int l = 0; l < 2; ++l)
            for (int h = 0; h < 3; ++h)
                if (data.value(l, h) != roles.score(role, frame, l, h)) return false;
        return true;
    };
    QVERIFY(heatmapIsFrame(2, HeadRole::PreviousToken));
    view.setCurrentStep(100);
    QCOMPARE(view.currentFrame(), 1);
    QVERIFY(heatmapIsFrame(1, HeadRole::PreviousToken));
    view.setCurrentStep(150);  // between snapshots: the one before
    QVERIFY(heatmapIsFrame(1, HeadRole::PreviousToken));
    view.setCurrentStep(0);
    QVERIFY(heatmapIsFrame(0, HeadRole::PreviousToken));
    QVERIFY(view.toolTipText(1, 2).contains(QStringLiteral("L2 H3 at step 0")));

    // The combo chooses the score of the lines, the heatmap and the chance line.
    view.roleBox()->setCurrentIndex(view.roleBox()->findData(int(HeadRole::Induction)));
    QCOMPARE(view.role(), HeadRole::Induction);
    QCOMPARE(plot->graphCount(), 6);
    QCOMPARE(plot->graph(4)->data()->at(2)->value, roles.score(HeadRole::Induction, 2, 1, 1));
    QVERIFY(heatmapIsFrame(0, HeadRole::Induction));
    QCOMPARE(view.chanceLine()->point1->coords().y(), 0.05);
}

void TestInsideViews::characterMapAxesAndTooltip() {
    CharacterMapView view;
    view.resize(1000, 600);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    const CharacterMap map = sampleMap();
    view.setMap(map);
    view.setCurrentStep(50);
    QCOMPARE(view.currentFrame(), 0);
    const QRectF first = view.axisRange();
    const QPointF firstPosition = view.canvas()->characterPosition(0);
    view.setCurrentStep(100);
    QCOMPARE(view.currentFrame(), 1);
    QCOMPARE(view.axisRange(), first);
    // The range holds every point of both frames.
    for (const CharacterMapFrame& frame : map.frames)
        for (const QPointF& p : frame.points) QVERIFY(first.contains(p));
    // The same point is drawn at the same place in either frame; a moved point moves.
    QVERIFY(view.canvas()->characterPosition(0).x() < firstPosition.x());
    QCOMPARE(view.canvas()->characterPosition(4), view.canvas()->characterPosition(4));

    // Hovering a character names its neighbours.
    const QPointF position = view.canvas()->characterPosition(3);
    QCOMPARE(view.canvas()->characterAt(position), 3);
    const QString tip = view.canvas()->toolTipText(3);
    QVERIFY2(tip.contains(QStringLiteral("“中” (CJK)")), qPrintable(tip));
    QVERIFY2(tip.contains(QStringLiteral("“\u2423”  0.875")) || tip.contains(QStringLiteral("0.875")),
             qPrintable(tip));
    QVERIFY(tip.contains(QStringLiteral("0.500")));

    // The position similarity of the shown frame.
    const ValueGridData& data = view.positionHeatmap()->data();
    QCOMPARE(data.rows(), 3);
    QCOMPARE(data.value(0, 2), -0.5);
    QCOMPARE(data.minimum, -1.0);
    QVERIFY(lightness(view.positionHeatmap()->cellColor(0, 0)) >
            lightness(view.positionHeatmap()->cellColor(0, 2)));
}

void TestInsideViews::exports_data() {
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
        {"map", "step,character,kind,x,y,explained_x,explained_y,neighbour1,cosine1,neighbour2,cosine2", 10}};
    for (const auto& v : views)
        for (const char* suffix : {"png", "svg", "csv"})
            QTest::newRow(qPrintable(QStringLiteral("%1.%2").arg(v.view, suffix)))
                << QString::fromLatin1(v.view) << QString::fromLatin1(suffix) << QString::fromLatin1(v.header)
                << v.rows;
}

void TestInsideViews::exports() {
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

void TestInsideViews::exportRefusals_data() {
    QTest::addColumn<QString>("view");
    for (const char* view : {"lens", "knockout", "roles", "map"})
        QTest::newRow(view) << QString::fromLatin1(view);
}

void TestInsideViews::exportRefusals() {
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
    QVERIFY(!QFile::exists(dir.filePath(QStringLiteral("empty.png"))));
}

void TestInsideViews::failedExportKeepsOldFile() {
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
        for (const QString& view : {QStringLiteral("lens"), QStringLiteral("knockout"),
                                    QStringLiteral("roles"), QStringLiteral("map")}) {
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

void TestInsideViews::exportHelper() {
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

CHARGPT_TEST_MAIN(TestInsideViews)
}  // namespace tst_insideviews
#include "tst_insideviews.moc"
