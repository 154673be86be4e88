// SPDX-License-Identifier: GPL-3.0-or-later
// The filmstrip view and its exports on hand-made strips: a row per step with
// its step, loss and sample (monospace), a skipped step saying why, text
// shown as text, never markup; the page escapes every text and the text file
// holds a block per step.
#include <QFontDatabase>
#include <QLabel>
#include <QTableWidget>
#include <QTest>

#include "widgets/FilmstripExport.h"
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
    QVERIFY(text.contains(QStringLiteral("\nstep 0   val loss 3.2189\nxq<z&;\"k\n\n")));
    QVERIFY(text.contains(QStringLiteral("\nstep 1   skipped: its weights cannot be read: <cut>\n\n")));
    QVERIFY(text.endsWith(QStringLiteral("step 16   val loss -\nthe cat sat\non the mat.\n<img src=x>\n\n")));
}

CHARGPT_TEST_MAIN(TestFilmstrip)
}  // namespace tst_filmstrip
#include "tst_filmstrip.moc"
