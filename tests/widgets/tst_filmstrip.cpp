// SPDX-License-Identifier: GPL-3.0-or-later
// The filmstrip view and its exports on hand-made strips: a row per step with
// its step, loss and sample (monospace), a skipped step saying why, text
// shown as text, never markup; the page escapes every text and the text file
// holds a block per step. The rows and the timeline's step point at each
// other. The Filmstrip tab asks with its words, shows the rows as they come,
// and saves what it shows.
#include <QDoubleSpinBox>
#include <QFile>
#include <QFontDatabase>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTest>

#include "widgets/FilmstripExport.h"
#include "widgets/FilmstripPage.h"
#include "widgets/FilmstripView.h"
#include "TestProgram.h"

namespace tst_filmstrip {

namespace {

FilmstripSamples someStrip() {
    FilmstripSamples samples;
    samples.run = 7;
    samples.runName = QStringLiteral("tiny <b>run</b> %3");
    samples.prompt = QStringLiteral("a < b & c");
    samples.chars = 40;
    samples.seed = 1;
    samples.temperature = 1.0;
    FilmstripRow noise;
    noise.step = 0;
    noise.valLoss = 3.2189;
    noise.text = QStringLiteral("xq<z&;\"k");
    FilmstripRow skipped;
    skipped.step = 1;
    skipped.skipped = QStringLiteral("its weights cannot be read: <cut>");
    FilmstripRow lines;
    lines.step = 16;
    lines.text = QStringLiteral("the cat sat\non the mat.\n<img src=x>");
    samples.rows = {noise, skipped, lines};
    return samples;
}

}  // namespace

class TestFilmstrip : public QObject {
    Q_OBJECT

private slots:
    void aRowPerStep();
    void emptyAndMessage();
    void pageEscapesEveryText();
    void textHasABlockPerStep();
    void rowsAndTheTimelinesStep();
    void rowsComingInKeepTheMark();
    void theTabAsksShowsAndSaves();
};

void TestFilmstrip::aRowPerStep() {
    FilmstripView view;
    view.resize(600, 400);
    view.show();
    view.setSamples(someStrip());
    QTableWidget* table = view.table();
    QCOMPARE(table->rowCount(), 3);
    QCOMPARE(table->columnCount(), 3);
    QCOMPARE(table->item(0, 0)->text(), QStringLiteral("0"));
    QCOMPARE(table->item(0, 1)->text(), QStringLiteral("3.2189"));
    QCOMPARE(table->item(0, 2)->text(), QStringLiteral("xq<z&;\"k"));
    QCOMPARE(table->item(0, 2)->font(), QFontDatabase::systemFont(QFontDatabase::FixedFont));
    QCOMPARE(table->item(1, 0)->text(), QStringLiteral("1"));
    QVERIFY(table->item(1, 2)->text().contains(QStringLiteral("its weights cannot be read: <cut>")));
    QCOMPARE(table->item(2, 0)->text(), QStringLiteral("16"));
    QCOMPARE(table->item(2, 1)->text(), QStringLiteral("\u2013"));  // not evaluated there
    QVERIFY(!table->item(2, 1)->toolTip().isEmpty());
    QCOMPARE(table->item(2, 2)->text(), someStrip().rows[2].text);
    // A sample of several lines gets a taller row than one of a single line.
    QVERIFY(table->rowHeight(2) > table->rowHeight(0));
    QVERIFY(!(table->item(0, 2)->flags() & Qt::ItemIsEditable));

    QLabel* summary = view.summaryLabel();
    QCOMPARE(summary->textFormat(), Qt::PlainText);
    QVERIFY2(summary->text().contains(QStringLiteral("\"a < b & c\"")), qPrintable(summary->text()));
    QVERIFY2(summary->text().contains(QStringLiteral("3 steps")), qPrintable(summary->text()));
}

void TestFilmstrip::emptyAndMessage() {
    FilmstripView view;
    QCOMPARE(view.table()->rowCount(), 0);
    QVERIFY(!view.summaryLabel()->text().isEmpty());
    view.setSamples(someStrip());
    view.showMessage(QStringLiteral("Run 7 keeps no weights."));
    QCOMPARE(view.table()->rowCount(), 0);
    QCOMPARE(view.summaryLabel()->text(), QStringLiteral("Run 7 keeps no weights."));
    FilmstripSamples start = someStrip();
    start.prompt.clear();
    view.setSamples(start);
    QVERIFY2(view.summaryLabel()->text().contains(QStringLiteral("start of a document")),
             qPrintable(view.summaryLabel()->text()));
}

void TestFilmstrip::pageEscapesEveryText() {
    const QString html = filmstripHtml(someStrip());
    QVERIFY(html.startsWith(QStringLiteral("<!DOCTYPE html>")));
    QVERIFY(!html.contains(QStringLiteral("<img")));
    QVERIFY(!html.contains(QStringLiteral("<b>run")));
    QVERIFY(!html.contains(QStringLiteral("<cut>")));
    QVERIFY(html.contains(QStringLiteral("xq&lt;z&amp;;&quot;k")));
    QVERIFY(html.contains(QStringLiteral("&quot;a &lt; b &amp; c&quot;")));
    QVERIFY(html.contains(QStringLiteral("tiny &lt;b&gt;run&lt;/b&gt; %3")));  // a %N stays as it is
    QCOMPARE(html.count(QStringLiteral("<tr><td class=\"step\">")), 3);
    QVERIFY(html.contains(QStringLiteral("skipped: its weights cannot be read: &lt;cut&gt;")));
    // Each sample after its prompt, as the model went on from it.
    QVERIFY2(html.contains(QStringLiteral("<td class=\"sample\"><span class=\"prompt\">a &lt; b &amp; c</span>"
                                          "xq&lt;z&amp;;&quot;k</td>")),
             qPrintable(html));
    QCOMPARE(html.count(QStringLiteral("<span class=\"prompt\">")), 2);  // not in the skipped row
    QByteArray bytes;
    QString error;
    QVERIFY(renderFilmstrip(QStringLiteral("/tmp/x.HTML"), someStrip(), &bytes, &error));
    QCOMPARE(QString::fromUtf8(bytes), html);
    QVERIFY(!renderFilmstrip(QStringLiteral("/tmp/x.png"), someStrip(), &bytes, &error));
    QVERIFY(error.contains(QStringLiteral(".html or .txt")));
}

void TestFilmstrip::textHasABlockPerStep() {
    const QString text = filmstripText(someStrip());
    QVERIFY2(text.startsWith(QStringLiteral("Filmstrip of run 7 (tiny <b>run</b> %3): prompt \"a < b & c\", seed 1, "
                                            "temperature 1, up to 40 characters, 3 step(s)\n\n")),
             qPrintable(text));
    // Each sample after its prompt, as the model continued it.
    QVERIFY(text.contains(QStringLiteral("\nstep 0   val loss 3.2189\na < b & cxq<z&;\"k\n\n")));
    QVERIFY(text.contains(QStringLiteral("\nstep 1   skipped: its weights cannot be read: <cut>\n\n")));
    QVERIFY(text.endsWith(
        QStringLiteral("step 16   val loss -\na < b & cthe cat sat\non the mat.\n<img src=x>\n\n")));
}

// The timeline's step marks the row of that step, or of the latest before it;
// a click on a row asks for its step.
void TestFilmstrip::rowsAndTheTimelinesStep() {
    FilmstripView view;
    view.resize(600, 400);
    view.show();
    view.setSamples(someStrip());  // steps 0, 1, 16
    QSignalSpy activated(&view, &FilmstripView::stepActivated);
    view.setCurrentStep(16);
    QCOMPARE(view.currentStep(), qint64(16));
    view.setCurrentStep(9);
    QCOMPARE(view.currentStep(), qint64(1));
    QCOMPARE(view.table()->selectedItems().first()->row(), 1);
    view.setCurrentStep(-5);
    QVERIFY(!view.currentStep());
    QCOMPARE(activated.count(), 0);  // marking a row is not asking for a step
    // The mark stays on its step when the rows are filled again.
    view.setCurrentStep(1);
    view.setSamples(someStrip());
    QCOMPARE(view.currentStep(), qint64(1));

    const QTableWidget* table = view.table();
    const QRect cell = table->visualItemRect(table->item(2, 2));
    QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, cell.center());
    QCOMPARE(activated.count(), 1);
    QCOMPARE(activated.first().first().toLongLong(), qint64(16));
}

// While a strip comes in row by row, the mark moves to each new row at or
// before the timeline's step and stays there once the rows pass it.
void TestFilmstrip::rowsComingInKeepTheMark() {
    FilmstripView view;
    view.resize(600, 400);
    view.show();
    FilmstripSamples heading = someStrip();
    const QVector<FilmstripRow> rows = heading.rows;  // steps 0, 1, 16
    heading.rows.clear();
    view.setSamples(heading);
    view.setCurrentStep(9);
    QVERIFY(!view.currentStep());
    view.appendRow(rows[0]);
    QCOMPARE(view.currentStep(), qint64(0));
    view.appendRow(rows[1]);
    QCOMPARE(view.currentStep(), qint64(1));
    view.appendRow(rows[2]);
    QCOMPARE(view.currentStep(), qint64(1));
    QCOMPARE(view.table()->rowCount(), 3);
    view.setCurrentStep(100);
    QCOMPARE(view.currentStep(), qint64(16));
    // The step column widens to a long step number as its row comes (in a
    // large font, wider than any column's first width).
    QFont large = view.font();
    large.setPixelSize(40);
    view.table()->setFont(large);
    FilmstripRow late = rows[2];
    late.step = 987654321012;
    view.appendRow(late);
    const QTableWidget* table = view.table();
    QVERIFY(table->fontMetrics().horizontalAdvance(QStringLiteral("987654321012")) > 300);
    QVERIFY(table->columnWidth(0) > table->fontMetrics().horizontalAdvance(QStringLiteral("987654321012")));
}

// The tab asks with the words above the strip, only for a run; the rows come
// in one by one; Stop is there while it samples; Save writes the strip shown,
// and a name it cannot write leaves the file that was there.
void TestFilmstrip::theTabAsksShowsAndSaves() {
    FilmstripPage page;
    page.resize(900, 500);
    page.show();
    QSignalSpy asked(&page, &FilmstripPage::sampleRequested);
    QSignalSpy stopped(&page, &FilmstripPage::stopRequested);
    page.setRun(std::nullopt);
    QVERIFY(!page.sampleButton()->isEnabled());
    QVERIFY2(page.statusLabel()->text().contains(QStringLiteral("Runs tab")), qPrintable(page.statusLabel()->text()));
    QVERIFY(!page.view()->summaryLabel()->isVisible());  // the tab's line says why, once
    page.sampleButton()->click();
    QCOMPARE(asked.count(), 0);

    page.setRun(7);
    QVERIFY(page.sampleButton()->isEnabled());
    QVERIFY(!page.stopButton()->isEnabled());
    QVERIFY(!page.saveButton()->isEnabled());  // nothing to save yet
    page.promptEdit()->setText(QStringLiteral("a < b"));
    page.lengthSpin()->setValue(40);
    page.seedSpin()->setValue(5);
    page.temperatureSpin()->setValue(0.8);
    page.sampleButton()->click();
    QCOMPARE(asked.count(), 1);
    const FilmstripAsk ask = asked.first().first().value<FilmstripAsk>();
    QCOMPARE(ask.prompt, QStringLiteral("a < b"));
    QCOMPARE(ask.chars, qint64(40));
    QCOMPARE(ask.seed, quint64(5));
    QCOMPARE(ask.temperature, 0.8);
    QVERIFY(page.isSampling());
    QVERIFY(!page.sampleButton()->isEnabled());
    QVERIFY(page.stopButton()->isEnabled());

    FilmstripSamples heading = someStrip();
    const QVector<FilmstripRow> rows = heading.rows;
    heading.rows.clear();
    page.begin(heading, int(rows.size()), QStringLiteral("'Ж'"));
    page.addRow(rows[0]);
    QCOMPARE(page.view()->table()->rowCount(), 1);
    QTableWidgetItem* first = page.view()->table()->item(0, 2);  // a row that came stays as it is
    QVERIFY2(page.statusLabel()->text().contains(QStringLiteral("1 of 3")), qPrintable(page.statusLabel()->text()));
    QVERIFY2(page.statusLabel()->text().contains(QStringLiteral("Ж")), qPrintable(page.statusLabel()->text()));
    page.stopButton()->click();
    QCOMPARE(stopped.count(), 1);
    page.addRow(rows[1]);
    page.addRow(rows[2]);
    QCOMPARE(page.view()->table()->item(0, 2), first);
    QCOMPARE(page.view()->table()->item(2, 0)->text(), QStringLiteral("16"));
    page.finish(false);
    QVERIFY(!page.isSampling());
    QCOMPARE(page.view()->table()->rowCount(), 3);
    QCOMPARE(page.view()->samples().rows.size(), rows.size());
    QVERIFY(page.view()->summaryLabel()->isVisible());
    QVERIFY(page.saveButton()->isEnabled());
    QVERIFY(page.sampleButton()->isEnabled());

    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QString error;
    const QString html = dir.filePath(QStringLiteral("strip.html"));
    QVERIFY2(page.saveTo(html, &error), qPrintable(error));
    QFile saved(html);
    QVERIFY(saved.open(QIODevice::ReadOnly));
    QCOMPARE(QString::fromUtf8(saved.readAll()), filmstripHtml(someStrip()));
    const QString text = dir.filePath(QStringLiteral("strip.txt"));
    QVERIFY2(page.saveTo(text, &error), qPrintable(error));
    QFile savedText(text);
    QVERIFY(savedText.open(QIODevice::ReadOnly));
    QCOMPARE(QString::fromUtf8(savedText.readAll()), filmstripText(someStrip()));
    // The Save dialog offers what saveTo writes, not the views' pictures.
    QVERIFY(FilmstripPage::saveFilters().contains(QStringLiteral("*.html")));
    QVERIFY(FilmstripPage::saveFilters().contains(QStringLiteral("*.txt")));
    QVERIFY(!FilmstripPage::saveFilters().contains(QStringLiteral("*.png")));
    // A picture's name is refused and the file there stays as it was.
    const QString picture = dir.filePath(QStringLiteral("strip.png"));
    {
        QFile old(picture);
        QVERIFY(old.open(QIODevice::WriteOnly));
        old.write("old");
    }
    QVERIFY(!page.saveTo(picture, &error));
    QVERIFY2(error.contains(QStringLiteral(".html or .txt")), qPrintable(error));
    QFile old(picture);
    QVERIFY(old.open(QIODevice::ReadOnly));
    QCOMPARE(old.readAll(), QByteArray("old"));
    // A folder in the way is refused too.
    QVERIFY(!page.saveTo(dir.path() + QStringLiteral("/"), &error));

    // The same run again keeps the strip; another run on the timeline does not show this one's rows.
    page.setRun(7);
    QCOMPARE(page.view()->table()->rowCount(), 3);
    page.setRun(8);
    QCOMPARE(page.view()->table()->rowCount(), 0);
    QVERIFY(!page.saveButton()->isEnabled());
    QVERIFY2(page.statusLabel()->text().startsWith(QStringLiteral("Run 8 keeps its weights")),
             qPrintable(page.statusLabel()->text()));

    page.fail(QStringLiteral("run 7 keeps no weights."));
    QVERIFY(!page.isSampling());
    QVERIFY2(page.statusLabel()->text().contains(QStringLiteral("run 7 keeps no weights.")),
             qPrintable(page.statusLabel()->text()));
    QCOMPARE(page.statusLabel()->textFormat(), Qt::PlainText);
}

CHARGPT_TEST_MAIN(TestFilmstrip)
}  // namespace tst_filmstrip
#include "tst_filmstrip.moc"
