// SPDX-License-Identifier: GPL-3.0-or-later
// The Surprise view on hand-made data: the colour scale (the layout of its
// text in tst_surprisetext), the tooltip a reader hovers, the four exports, the
// timeline and the texts it asks to be scored.
#include "TestProgram.h"

#include <QComboBox>
#include <QImage>
#include <QLabel>
#include <QPainter>
#include <QPlainTextEdit>
#include <QSignalSpy>
#include <QSlider>
#include <QTemporaryDir>

#include <cmath>

#include "widgets/SurpriseView.h"

namespace tst_surpriseview {

namespace {

// One scored character: `bits`, its rank and guesses as given.
SurpriseChar scored(const QString& character, float bits, int rank, const QStringList& guesses = {},
                    const QVector<float>& probabilities = {}) {
    SurpriseChar c;
    c.character = character;
    c.bits = bits;
    c.rank = rank;
    c.guesses = guesses;
    c.probabilities = probabilities;
    return c;
}

SurpriseChar first(const QString& character) {
    SurpriseChar c;
    c.character = character;
    return c;
}

SurpriseChar unknown(const QString& character) {
    SurpriseChar c;
    c.character = character;
    c.known = false;
    return c;
}

// "a<&>\n春b": the first unscored, then rising bits, an unknown character.
SurpriseText sampleText(qint64 step = 10, double mean = 3.0) {
    SurpriseText text;
    text.label = QStringLiteral("Sample, with a comma");
    text.step = step;
    text.vocabularySize = 256;  // scale 0..8 bits
    text.characters = {first(QStringLiteral("a")),
                       scored(QStringLiteral("<"), 0.5f, 1, {"<", "b", "c", "d", "e"}, {0.7f, 0.1f, 0.05f, 0.04f, 0.01f}),
                       scored(QStringLiteral("&"), 2.0f, 2, {"x", "&", "\n", "y", ","}, {0.5f, 0.25f, 0.1f, 0.05f, 0.02f}),
                       scored(QStringLiteral(">"), 7.5f, 9, {"a", "b", "c", "d", "e"}, {0.3f, 0.2f, 0.1f, 0.05f, 0.02f}),
                       scored(QStringLiteral("\n"), 1.0f, 1, {"\n", "a", "b", "c", "d"}, {0.5f, 0.2f, 0.1f, 0.05f, 0.02f}),
                       scored(QStringLiteral("春"), 4.0f, 3, {"a", "b", "春", "c", "d"}, {0.3f, 0.2f, 0.0625f, 0.05f, 0.02f}),
                       unknown(QStringLiteral("Z")),
                       scored(QStringLiteral(","), 3.0f, 4, {"a", "b", "c", ",", "d"}, {0.3f, 0.2f, 0.15f, 0.125f, 0.02f})};
    text.scored = 6;
    text.unknown = 1;
    text.meanBits = mean;
    return text;
}

// sampleText compared without "L1 H2": '<' needs 4 bits more without it, '&'
// 2 bits fewer, '>' the same.
SurpriseText comparedText() {
    SurpriseText text = sampleText();
    text.without = QStringLiteral("L1 H2");
    text.withoutMeanBits = 3.5;
    for (SurpriseChar& c : text.characters)
        if (c.scored())
            c.withoutBits = c.bits;
    text.characters[1].withoutBits = 4.5f;
    text.characters[2].withoutBits = 0.0f;
    return text;
}

// Relative luminance: how bright a colour looks.
double lightness(const QColor& c) { return 0.2126 * c.redF() + 0.7152 * c.greenF() + 0.0722 * c.blueF(); }

}  // namespace

class TestSurpriseView : public QObject {
    Q_OBJECT

private slots:
    void coloursOrderedByBits();
    void scaleMaximum();
    void toolTips();
    void paintsBrighterForSurprise();
    void exports_data();
    void exports();
    void htmlEscapes();
    void csvRows();
    void exportRefusesOtherSuffixes();
    void exportRefusesPicturesPastTheBudget();
    void viewTextsAndDebounce();
    void showsTheStepTheWindowsTimelineChose();
    void userTextCut();
    void comparisonWithoutAPart();
    void comparisonWithAnEarlierStep();
};

void TestSurpriseView::coloursOrderedByBits() {
    double previous = -1.0;
    for (int i = 0; i <= 40; ++i) {
        const double l = lightness(surpriseColor(i * 0.25, 10.0));
        QVERIFY2(l >= previous - 1e-9, qPrintable(QStringLiteral("%1 bits: %2 < %3").arg(i * 0.25).arg(l).arg(previous)));
        previous = l;
    }
    QVERIFY(lightness(surpriseColor(0.0, 10.0)) < 0.05);  // dark: expected
    QVERIFY(lightness(surpriseColor(10.0, 10.0)) > 0.75);  // bright: surprising
    QCOMPARE(surpriseColor(25.0, 10.0), surpriseColor(10.0, 10.0));  // beyond the scale: its top
    QCOMPARE(surpriseTextColor(surpriseColor(0.0, 10.0)), QColor(Qt::white));
    QCOMPARE(surpriseTextColor(surpriseColor(10.0, 10.0)), QColor(Qt::black));
}

void TestSurpriseView::scaleMaximum() {
    QCOMPARE(surpriseScaleMaximum(256), 8.0);
    QCOMPARE(surpriseScaleMaximum(2580), 12.0);  // log2 2580 = 11.3
    QCOMPARE(surpriseScaleMaximum(0), 8.0);
}

void TestSurpriseView::toolTips() {
    const SurpriseText text = sampleText();
    const QString rank2 = surpriseToolTip(text, 2);
    QVERIFY2(rank2.contains(QStringLiteral("2.00 bits")), qPrintable(rank2));
    QVERIFY2(rank2.contains(QStringLiteral("25.0%")), qPrintable(rank2));  // 2^-2
    QVERIFY2(rank2.contains(QStringLiteral("Rank 2")), qPrintable(rank2));
    QVERIFY2(rank2.contains(QStringLiteral("1. “x”  50.0%")), qPrintable(rank2));
    QVERIFY2(rank2.contains(QStringLiteral("3. ↵ (newline)  10.0%")), qPrintable(rank2));
    QCOMPARE(rank2.count(QLatin1Char('\n')), 2 + 5);  // bits, rank, "guesses:", five guesses
    QVERIFY(surpriseToolTip(text, 1).contains(QStringLiteral("first guess")));
    QVERIFY(surpriseToolTip(text, 0).contains(QStringLiteral("first character")));
    QVERIFY(surpriseToolTip(text, 6).contains(QStringLiteral("not in the model's vocabulary")));
    QVERIFY(surpriseToolTip(text, 99).isEmpty());

    // The widget answers with the tooltip of the character under the pointer.
    SurpriseTextWidget widget;
    widget.resize(400, 200);
    widget.setText(text);
    const QRectF cell = widget.characterRect(5);
    QVERIFY(!cell.isEmpty());
    QCOMPARE(widget.characterAt(cell.center()), 5);
    QCOMPARE(widget.toolTipAt(cell.center()), surpriseToolTip(text, 5));
    QVERIFY(!widget.characterAt(QPointF(399, 199)));
}

void TestSurpriseView::paintsBrighterForSurprise() {
    SurpriseTextWidget widget;
    widget.resize(500, 100);
    widget.setText(sampleText());
    QImage image(widget.size(), QImage::Format_ARGB32);
    image.fill(Qt::white);
    widget.render(&image);
    // The corner of a cell is its background: '<' (0.5 bits) dark, '>' (7.5 bits) bright.
    const QPoint low = widget.characterRect(1).topLeft().toPoint() + QPoint(1, 1);
    const QPoint high = widget.characterRect(3).topLeft().toPoint() + QPoint(1, 1);
    QVERIFY(lightness(image.pixelColor(low)) < 0.3);
    QVERIFY(lightness(image.pixelColor(high)) > 0.6);
}

void TestSurpriseView::exports_data() {
    QTest::addColumn<QString>("file");
    QTest::newRow("png") << "s.png";
    QTest::newRow("svg") << "s.svg";
    QTest::newRow("html") << "s.html";
    QTest::newRow("csv") << "s.csv";
}

void TestSurpriseView::exports() {
    QFETCH(QString, file);
    QTemporaryDir dir;
    const QString path = dir.filePath(file);
    QString error;
    QVERIFY2(exportSurprise(path, {sampleText(), sampleText(10, 5.0)}, QStringLiteral("Title"), QFont(), &error),
             qPrintable(error));
    QFile f(path);
    QVERIFY(f.open(QIODevice::ReadOnly));
    const QByteArray content = f.readAll();
    if (file.endsWith(QLatin1String("png"))) {
        QImage image;
        QVERIFY(image.loadFromData(content, "PNG"));
        QVERIFY(image.width() >= 800 && image.height() >= 150);
        QSet<QRgb> colours;
        for (int y = 0; y < image.height(); y += 2)
            for (int x = 0; x < image.width(); x += 2)
                colours.insert(image.pixel(x, y));
        QVERIFY2(colours.size() > 20, qPrintable(QString::number(colours.size())));  // the scale and the cells
    } else if (file.endsWith(QLatin1String("svg"))) {
        QVERIFY(content.contains("<svg"));
        QVERIFY(content.contains("</svg>"));
        QVERIFY(content.contains("Title"));
    } else if (file.endsWith(QLatin1String("html"))) {
        QVERIFY(content.startsWith("<!DOCTYPE html>"));
        QVERIFY(content.contains("</html>"));
        QCOMPARE(content.count("<span"), 2 * 8);  // one per character of each text
    } else {
        // The header, a row per character, and three newlines quoted inside the rows of each text.
        QCOMPARE(QString::fromUtf8(content).count(QLatin1Char('\n')), 1 + 2 * 8 + 2 * 3);
    }
}

void TestSurpriseView::htmlEscapes() {
    SurpriseText text = sampleText();
    text.label = QStringLiteral("<script>&\"");
    const QString html = surpriseHtml({text}, QStringLiteral("a <b> & c"));
    QVERIFY(!html.contains(QStringLiteral("<script>")));
    QVERIFY(html.contains(QStringLiteral("&lt;script&gt;&amp;&quot;")));
    QVERIFY(html.contains(QStringLiteral("<title>a &lt;b&gt; &amp; c</title>")));
    // The characters '<', '&', '>' as escaped span contents, each with its colour and tooltip.
    QVERIFY(html.contains(QStringLiteral(">&lt;</span>")));
    QVERIFY(html.contains(QStringLiteral(">&amp;</span>")));
    QVERIFY(html.contains(QStringLiteral(">&gt;</span>")));
    QVERIFY(!html.contains(QStringLiteral("><</span>")));
    QVERIFY(html.contains(QStringLiteral("style=\"background:%1;").arg(surpriseColor(7.5, 8.0).name())));
    QVERIFY(html.contains(QStringLiteral("title=\"“&lt;”: 0.50 bits")));
    // Tooltips with quotes cannot end their attribute early.
    SurpriseText quote;
    quote.vocabularySize = 10;
    quote.characters = {first("a"), scored(QStringLiteral("\""), 1.0f, 1, {"\""}, {0.5f})};
    const QString quoted = surpriseHtml({quote}, QStringLiteral("q"));
    QVERIFY(quoted.contains(QStringLiteral("title=\"“&quot;”: 1.00 bits")));
}

void TestSurpriseView::csvRows() {
    const QString csv = surpriseCsv({sampleText()});
    const QStringList lines = csv.split(QLatin1Char('\n'));
    QCOMPARE(lines.first(), QStringLiteral("text,position,char,bits,rank,guess1,p1,guess2,p2,guess3,p3,guess4,p4,guess5,p5"));
    QVERIFY(lines[1].startsWith(QStringLiteral("\"Sample, with a comma\",0,a,,,")));  // the first: not scored
    QVERIFY(csv.contains(
        QStringLiteral("\n\"Sample, with a comma\",2,&,2.0000,2,x,0.500000,&,0.250000,\"\n\",0.100000,")));
    QVERIFY(csv.contains(QStringLiteral(",7,\",\",3.0000,4,")));  // a comma quoted
}

void TestSurpriseView::exportRefusesOtherSuffixes() {
    QTemporaryDir dir;
    QString error;
    QVERIFY(!exportSurprise(dir.filePath("s.jpg"), {sampleText()}, QStringLiteral("t"), QFont(), &error));
    QVERIFY(error.contains(QStringLiteral(".html")));
    QVERIFY(!QFileInfo::exists(dir.filePath("s.jpg")));
    QVERIFY(!exportSurprise(dir.filePath("missing/s.csv"), {sampleText()}, QStringLiteral("t"), QFont(), &error));
    QVERIFY(error.contains(QStringLiteral("missing/s.csv")));
}

// A text that would make a picture taller than ViewExport::kMaxPictureSide (a
// line per character: 20,000 lines) is refused with the size it would have;
// nothing is written. The page and the table of it are written.
void TestSurpriseView::exportRefusesPicturesPastTheBudget() {
    QTemporaryDir dir;
    SurpriseText tall = sampleText();
    tall.characters.clear();
    for (int i = 0; i < 20000; ++i)
        tall.characters.append(i % 2 ? first(QStringLiteral("\n")) : unknown(QStringLiteral("a")));
    QVERIFY(surprisePictureSize({tall}, QFont()).height() > ViewExport::kMaxPictureSide);
    QVERIFY(surprisePictureSize({sampleText()}, QFont()).height() < ViewExport::kMaxPictureSide);
    QString error;
    QElapsedTimer clock;
    clock.start();
    for (const char* file : {"tall.png", "tall.svg"}) {
        QVERIFY(
            !exportSurprise(dir.filePath(QLatin1String(file)), {tall}, QStringLiteral("t"), QFont(), &error));
        QVERIFY2(error.contains(
                     QRegularExpression(QStringLiteral("would be 1000 x [0-9]+ pixels; a picture is at most "
                                                       "16384 pixels tall"))),
                 qPrintable(error));
        QVERIFY(!QFileInfo::exists(dir.filePath(QLatin1String(file))));
    }
    QVERIFY2(clock.elapsed() < 10000, qPrintable(QString::number(clock.elapsed())));
    QVERIFY2(exportSurprise(dir.filePath("tall.csv"), {tall}, QStringLiteral("t"), QFont(), &error),
             qPrintable(error));
}

void TestSurpriseView::viewTextsAndDebounce() {
    SurpriseView view;
    QSignalSpy changed(&view, &SurpriseView::textsChanged);
    view.setSamples(QStringLiteral("validation"), QStringLiteral("training"));
    QCOMPARE(changed.count(), 1);
    view.setSamples(QStringLiteral("validation"), QStringLiteral("training"));
    QCOMPARE(changed.count(), 1);  // the same texts: nothing to redo
    QCOMPARE(view.texts(), (QStringList{"validation", "training", ""}));
    // Typing asks once, after it pauses.
    view.userEdit()->insertPlainText(QStringLiteral("h"));
    view.userEdit()->insertPlainText(QStringLiteral("i"));
    QCOMPARE(changed.count(), 1);
    QTRY_COMPARE(changed.count(), 2);
    QTest::qWait(700);
    QCOMPARE(changed.count(), 2);
    QCOMPARE(view.texts().at(SurpriseView::User), QStringLiteral("hi"));
}

// The view has no timeline of its own (the window's is under the tabs): it
// shows the result of the step it is given, earlier or later, says its step,
// and draws the means of every step shown so far, the shown one marked.
void TestSurpriseView::showsTheStepTheWindowsTimelineChose() {
    SurpriseView view;
    view.resize(900, 700);
    QVERIFY(view.findChildren<QSlider*>().isEmpty());
    QVERIFY(!view.shownStep());
    auto result = [](qint64 step, double validation, double training) {
        SurpriseText v = sampleText(step, validation), t = sampleText(step, training), user;
        return QVector<SurpriseText>{v, t, user};
    };
    view.showResult(result(0, 8.0, 8.0), 0);
    view.showResult(result(100, 3.0, 2.5), 100);
    view.showResult(result(200, 4.0, 1.0), 200);
    QCOMPARE(view.shownStep(), qint64(200));
    QCOMPARE(view.meansPointCount(), 6);  // two means per step
    QVERIFY(view.paneHeader(SurpriseView::Validation)->text().contains(QStringLiteral("4.00 bits per character")));
    QVERIFY(view.paneHeader(SurpriseView::Training)->text().contains(QStringLiteral("1.00 bits per character")));
    QVERIFY(view.statusLabel()->text().contains(QStringLiteral("memorised")));  // 3 bits apart
    QCOMPARE(view.pane(SurpriseView::Validation)->text().size(), 8);
    QVERIFY(view.pane(SurpriseView::User)->text().isEmpty());

    // The same step again (the user typed): replaced on the means, not added.
    view.showResult(result(200, 4.5, 1.0), 200);
    QCOMPARE(view.meansPointCount(), 6);
    // Back in time, as the timeline chose: that step is shown, with its means.
    view.showResult(result(100, 3.0, 2.5), 100);
    QCOMPARE(view.shownStep(), qint64(100));
    QCOMPARE(view.meansPointCount(), 6);
    QVERIFY(view.paneHeader(SurpriseView::Validation)->text().contains(QStringLiteral("3.00 bits")));
    QVERIFY(view.statusLabel()->text().startsWith(QStringLiteral("Step 100: validation 3.00")));
    // A step between two shown ones joins the means in its place.
    view.showResult(result(50, 5.0, 4.0), 50);
    QCOMPARE(view.shownStep(), qint64(50));
    QCOMPARE(view.meansPointCount(), 8);
    view.showResult(result(100, 3.0, 2.5), 100);
    // The exports are of what is shown, labelled by pane.
    const QVector<SurpriseText> shown = view.shownTexts();
    QCOMPARE(shown.size(), 3);
    QCOMPARE(shown[0].label, view.paneTitle(SurpriseView::Validation));
    QCOMPARE(shown[0].meanBits, 3.0);
    QTemporaryDir dir;
    QVERIFY(view.exportTo(dir.filePath("v.html")));
    QVERIFY(QFileInfo(dir.filePath("v.html")).size() > 0);

    // A long run: every step shown stays on the curve.
    for (int step = 400; step < 400 + 100 * 100; step += 100)
        view.showResult(result(step, 3.0, 2.0), step);
    QCOMPARE(view.shownStep(), qint64(400 + 99 * 100));
    QCOMPARE(view.meansPointCount(), 2 * 104);

    // Another model: the means and the panes go.
    view.clear();
    QCOMPARE(view.meansPointCount(), 0);
    QVERIFY(!view.shownStep());
    QVERIFY(view.pane(SurpriseView::Validation)->text().isEmpty());
}

void TestSurpriseView::userTextCut() {
    SurpriseView view;
    const QString long_ = QString(SurpriseView::kMaxUserCharacters + 50, QLatin1Char('x'));
    view.setUserText(long_);
    QCOMPARE(view.texts().at(SurpriseView::User).size(), SurpriseView::kMaxUserCharacters);
    // Counted in characters: a character outside the BMP is one, not two.
    const QString wide = QString::fromUcs4(U"\U0001F600").repeated(SurpriseView::kMaxUserCharacters + 1);
    view.setUserText(wide);
    QCOMPARE(view.texts().at(SurpriseView::User).size(), 2 * SurpriseView::kMaxUserCharacters);
}

// "Compare without": each character coloured by the bits it costs without the
// part (red: the part helped, blue: it did better without), its tooltip and
// the pane's mean with both figures, the CSV with the bits without it; the view
// offers every part of the model and forgets one a new model lacks.
void TestSurpriseView::comparisonWithoutAPart() {
    const SurpriseText text = comparedText();
    const QColor helped = surpriseCharColor(text, text.characters[1]);
    const QColor hurt = surpriseCharColor(text, text.characters[2]);
    const QColor same = surpriseCharColor(text, text.characters[3]);
    QVERIFY(helped.redF() > helped.blueF() + 0.4);
    QVERIFY(hurt.blueF() > hurt.redF() + 0.2);
    QVERIFY(same.redF() > 0.9 && same.greenF() > 0.9 && same.blueF() > 0.9);
    QCOMPARE(surpriseCharColor(sampleText(), sampleText().characters[1]), surpriseColor(0.5, 8.0));

    SurpriseTextWidget widget;
    widget.resize(500, 100);
    widget.setText(text);
    QImage image(widget.size(), QImage::Format_ARGB32);
    image.fill(Qt::white);
    widget.render(&image);
    QCOMPARE(image.pixelColor(widget.characterRect(1).topLeft().toPoint() + QPoint(1, 1)), helped);
    QCOMPARE(image.pixelColor(widget.characterRect(2).topLeft().toPoint() + QPoint(1, 1)), hurt);

    const QString tip = surpriseToolTip(text, 1);
    QVERIFY2(tip.contains(QStringLiteral("Without L1 H2: 4.50 bits (+4.00 bits)")), qPrintable(tip));
    QVERIFY2(surpriseToolTip(text, 2).contains(QStringLiteral("(−2.00 bits)")), qPrintable(surpriseToolTip(text, 2)));
    QVERIFY(!surpriseToolTip(sampleText(), 1).contains(QStringLiteral("Without")));
    const QString mean = surpriseMeanText(text);
    QVERIFY2(mean.contains(QStringLiteral("without L1 H2: 3.50 (+0.50 bits)")), qPrintable(mean));

    const QStringList lines = surpriseCsv({text}).split(QLatin1Char('\n'));
    QVERIFY(lines.first().endsWith(QStringLiteral(",p5,knocked_out,bits_knocked_out")));
    QVERIFY2(lines[2].endsWith(QStringLiteral(",L1 H2,4.5000")), qPrintable(lines[2]));
    QVERIFY(lines[1].endsWith(QStringLiteral(",L1 H2,")));  // the first character: not scored
    QVERIFY(surpriseHtml({text}, QStringLiteral("t")).contains(QStringLiteral("Red: that part helped")));

    SurpriseView view;
    QSignalSpy changed(&view, &SurpriseView::textsChanged);
    QVERIFY(!view.comparison());
    view.setModelShape(2, 4);
    QCOMPARE(view.comparisonBox()->count(), 1 + 8 + 2 + 2);
    QCOMPARE(view.comparisonBox()->itemText(13 - 1), QStringLiteral("L2 feed-forward"));
    QCOMPARE(changed.count(), 0);
    const KnockoutPart l2h3{KnockoutKind::Head, 1, 2};
    view.setComparison(l2h3);
    QCOMPARE(changed.count(), 1);
    QVERIFY(view.comparison() && *view.comparison() == l2h3);
    QCOMPARE(view.comparisonBox()->currentText(), QStringLiteral("L2 H3"));
    view.setModelShape(2, 4);  // the same model: nothing changes
    QCOMPARE(changed.count(), 1);

    QVERIFY(!view.legend()->isDifference());
    view.showResult({text, SurpriseText(), SurpriseText()}, 10);
    QVERIFY(view.legend()->isDifference());
    QVERIFY(view.statusLabel()->text().contains(QStringLiteral("without L1 H2")));
    view.showResult({sampleText(11), SurpriseText(), SurpriseText()}, 11);
    QVERIFY(!view.legend()->isDifference());

    // A model of one layer has no L2 H3: the comparison is dropped, and asked anew.
    view.setModelShape(1, 4);
    QVERIFY(!view.comparison());
    QCOMPARE(changed.count(), 2);
    QCOMPARE(view.comparisonBox()->count(), 1 + 4 + 1 + 1);
    view.setComparison(l2h3);  // not a part of this model
    QVERIFY(!view.comparison());
    QCOMPARE(changed.count(), 2);
}

// The same text compared with step 200 (A) of its run, shown at step 800:
// the same colours, words of steps instead of a part.
void TestSurpriseView::comparisonWithAnEarlierStep() {
    SurpriseText text = comparedText();
    text.without.clear();
    text.comparedStep = 200;
    text.step = 800;
    QVERIFY(text.isComparison());
    const SurpriseText byPart = comparedText();
    for (int i = 1; i <= 3; ++i)
        QCOMPARE(surpriseCharColor(text, text.characters[i]), surpriseCharColor(byPart, byPart.characters[i]));
    const QString tip = surpriseToolTip(text, 1);
    QVERIFY2(tip.contains(QStringLiteral("At step 200: 4.50 bits (+4.00 bits)")), qPrintable(tip));
    QVERIFY2(surpriseMeanText(text).contains(QStringLiteral("at step 200: 3.50 (+0.50 bits)")),
             qPrintable(surpriseMeanText(text)));
    QCOMPARE(surpriseDifferenceLabel(text), QStringLiteral("Bits more at step 200:"));
    QCOMPARE(surpriseDifferenceLabel(byPart), QStringLiteral("Bits more without L1 H2:"));
    const QString colours = surpriseComparisonText(text);
    QVERIFY2(colours.contains(QStringLiteral("at step 200 than at step 800")) &&
                 colours.contains(QStringLiteral("Red: learned in between")),
             qPrintable(colours));
    const QStringList lines = surpriseCsv({text}).split(QLatin1Char('\n'));
    QVERIFY2(lines.first().endsWith(QStringLiteral(",p5,compared_step,bits_at_compared_step")), qPrintable(lines.first()));
    QVERIFY2(lines[2].endsWith(QStringLiteral(",200,4.5000")), qPrintable(lines[2]));
    QVERIFY(surpriseHtml({text}, QStringLiteral("t")).contains(QStringLiteral("Red: learned in between")));

    SurpriseView view;
    view.showResult({text, SurpriseText(), SurpriseText()}, 800);
    QVERIFY(view.legend()->isDifference());
    QVERIFY2(view.statusLabel()->text().contains(QStringLiteral("at step 200 than at step 800")),
             qPrintable(view.statusLabel()->text()));
}

CHARGPT_TEST_MAIN(TestSurpriseView)
}  // namespace tst_surpriseview
#include "tst_surpriseview.moc"
