// SPDX-License-Identifier: GPL-3.0-or-later
// The generation view: streamed characters, requests to start, step and stop,
// unknown prompt characters, copied spans marked, a click on a generated
// character asking why.
#include "widgets/GenerationView.h"

#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include "TestProgram.h"
#include "widgets/Plot.h"

namespace tst_generationview {

namespace {
// A point inside the output's character at `documentPosition`, `dx` pixels
// right of its caret.
QPoint pointAt(GenerationView& view, int documentPosition, int dx) {
    QTextCursor cursor(view.outputEdit()->document());
    cursor.setPosition(documentPosition);
    const QRect caret = view.outputEdit()->cursorRect(cursor);
    return QPoint(caret.x() + dx, caret.center().y());
}
}  // namespace

class TestGenerationView : public QObject {
    Q_OBJECT

private slots:
    void appendsCharactersOneByOne();
    void generateThenStop();
    void stepRestartsOnlyWhenSettingsChange();
    void highlightsUnknownCharacters();
    void showsCandidatesAndAttentionRows();
    void marksCopiedSpans();
    void copiesClearedByANewGeneration();
    void severalSamplesTakeTheWidth();
    void oneSlotTakesEverySample();
    void clickOnAGeneratedCharacterAsksWhy();
    void chineseAxisTitleStandsLevel();
};

void TestGenerationView::appendsCharactersOneByOne() {
    GenerationView view;
    view.beginOutput(QStringLiteral("床前"));
    for (const QString& character : {QStringLiteral("明"), QStringLiteral("月"), QStringLiteral("\n")})
        view.appendSamples({1}, {character});
    QCOMPARE(view.generatedText(), QStringLiteral("明月\n"));
    QCOMPARE(view.outputText(), QStringLiteral("床前明月\n"));
}

void TestGenerationView::generateThenStop() {
    GenerationView view;
    GenerationOptions options;
    options.prompt = QStringLiteral("def ");
    options.temperature = 0.8;
    options.topK = 5;
    options.topP = 0.9;
    options.length = 42;
    options.seed = 7;
    view.setOptions(options);

    QSignalSpy generate(&view, &GenerationView::generateRequested);
    QSignalSpy stop(&view, &GenerationView::stopRequested);
    QVERIFY(!view.stopButton()->isEnabled());
    QTest::mouseClick(view.generateButton(), Qt::LeftButton);
    QCOMPARE(generate.size(), 1);
    const auto requested = generate.first().at(0).value<GenerationOptions>();
    QCOMPARE(requested.prompt, options.prompt);
    QCOMPARE(requested.topK, 5);
    QCOMPARE(requested.length, 42);
    QCOMPARE(requested.seed, quint64(7));
    QVERIFY(std::abs(requested.temperature - 0.8) < 1e-9);
    QVERIFY(view.isRunning());
    QVERIFY(view.stopButton()->isEnabled());
    QVERIFY(!view.generateButton()->isEnabled());

    view.appendSamples({1}, {QStringLiteral("f")});
    QTest::mouseClick(view.stopButton(), Qt::LeftButton);
    QCOMPARE(stop.size(), 1);
    view.setRunning(false);
    QVERIFY(view.generateButton()->isEnabled());
    QVERIFY(!view.stopButton()->isEnabled());
}

void TestGenerationView::stepRestartsOnlyWhenSettingsChange() {
    GenerationView view;
    QSignalSpy step(&view, &GenerationView::stepRequested);
    QTest::mouseClick(view.stepButton(), Qt::LeftButton);
    QTest::mouseClick(view.stepButton(), Qt::LeftButton);
    GenerationOptions options = view.options();
    options.temperature = 0.5;
    view.setOptions(options);
    QTest::mouseClick(view.stepButton(), Qt::LeftButton);
    QCOMPARE(step.size(), 3);
    QCOMPARE(step.at(0).at(1).toBool(), true);
    QCOMPARE(step.at(1).at(1).toBool(), false);
    QCOMPARE(step.at(2).at(1).toBool(), true);
}

void TestGenerationView::highlightsUnknownCharacters() {
    GenerationView view;
    GenerationOptions options;
    options.prompt = QStringLiteral("a☃b\U0001F600");
    view.setOptions(options);
    view.setUnknownCharacters({1, 3});
    auto* prompt = view.findChild<QPlainTextEdit*>();
    QVERIFY(prompt);
    const auto selections = prompt->extraSelections();
    QCOMPARE(selections.size(), 2);
    QCOMPARE(selections[0].cursor.selectedText(), QStringLiteral("☃"));
    QCOMPARE(selections[1].cursor.selectedText(), QStringLiteral("\U0001F600"));
    // Editing the prompt clears the stale highlight.
    prompt->setPlainText(QStringLiteral("ab"));
    QVERIFY(view.unknownCharacters().isEmpty());
    QVERIFY(prompt->extraSelections().isEmpty());
}

void TestGenerationView::showsCandidatesAndAttentionRows() {
    GenerationView view;
    view.showCandidates({QStringLiteral("月"), QStringLiteral(" "), QStringLiteral("\n")},
                        {0.6, 0.3, 0.1}, 1);
    AttentionMatrix row;
    row.keyChars = splitCharacters(QStringLiteral("床前明"));
    row.queryChars = QStringList{QStringLiteral("明")};
    row.firstQueryPosition = 2;
    row.weights = {0.2f, 0.7f, 0.1f};
    view.setLayerCount(4);
    view.showAttentionRows({row, row});
    view.showAttentionRows({row});
    view.resize(1000, 700);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
}

void TestGenerationView::marksCopiedSpans() {
    GenerationView view;
    view.resize(900, 600);
    const QString prompt = QStringLiteral("prompt: ");
    view.beginOutput(prompt);
    // 23 characters; U+1D11E takes two UTF-16 units, the marks count characters.
    const QString generated = QStringLiteral("ab\U0001D11Ecdefghij\n明月光疑是地上霜xyz");
    for (const uint codePoint : generated.toUcs4())
        view.appendSamples({1}, {QString::fromUcs4(reinterpret_cast<const char32_t*>(&codePoint), 1)});
    QCOMPARE(view.generatedText(), generated);

    CopiedSpans copies;
    copies.starts = {1, 12, 40};  // the last lies past the text: ignored
    copies.lengths = {9, 8, 8};
    copies.share = 17.0 / 23.0;
    view.showCopies(copies);

    const QList<QTextEdit::ExtraSelection> marks = view.copyMarks();
    QCOMPARE(marks.size(), 2);
    QCOMPARE(marks[0].cursor.selectedText(), QStringLiteral("b\U0001D11Ecdefghi"));
    QCOMPARE(marks[1].cursor.selectedText(), QStringLiteral("明月光疑是地上霜"));
    for (const QTextEdit::ExtraSelection& mark : marks) {
        QVERIFY(mark.format.background().style() != Qt::NoBrush);
        QCOMPARE(mark.format.underlineStyle(), QTextCharFormat::SingleUnderline);
    }
    QCOMPARE(view.copiesLine(),
             QStringLiteral("copied: 74% of the characters (spans of 8 or more found verbatim in the training text)"));

    // The tooltip over a copied character says where it comes from; over the
    // prompt or an uncopied character, nothing.
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    auto pointInside = [&](int documentPosition) { return pointAt(view, documentPosition, 3); };
    const int c = int(prompt.size()) + 4;  // 'c': after a, b and the two units of U+1D11E
    QCOMPARE(view.outputToolTipAt(pointInside(c)), QStringLiteral("found verbatim in the training text"));
    QCOMPARE(view.outputToolTipAt(pointInside(int(prompt.size()) + 13)), QStringLiteral("found verbatim in the training text"));
    QCOMPARE(view.outputToolTipAt(pointInside(2)), QString());  // the prompt
    QCOMPARE(view.outputToolTipAt(pointInside(int(prompt.size()) + 21)), QString());  // 'x'
}

void TestGenerationView::copiesClearedByANewGeneration() {
    GenerationView view;
    view.beginOutput(QString());
    for (const QChar character : QStringLiteral("abcdefghij")) view.appendSamples({1}, {character});
    CopiedSpans copies;
    copies.starts = {0};
    copies.lengths = {10};
    copies.share = 1.0;
    view.showCopies(copies);
    QCOMPARE(view.copyMarks().size(), 1);
    QVERIFY(view.copiesLine().startsWith(QStringLiteral("copied: 100%")));

    // Generate: the marks and the line go with the old text.
    QSignalSpy requested(&view, &GenerationView::generateRequested);
    view.generateButton()->click();
    QCOMPARE(requested.size(), 1);
    QVERIFY(view.copyMarks().isEmpty());
    QVERIFY(view.copiesLine().isEmpty());
    QVERIFY(std::isnan(view.copies().share));

    // Nothing checked (no index): no line, no marks.
    view.showCopies(CopiedSpans());
    QVERIFY(view.copiesLine().isEmpty());
    QVERIFY(view.copyMarks().isEmpty());
}

// Several samples generated together take the width Step's panel had (it
// shows one sample) and share the height; Step brings its panel back.
void TestGenerationView::severalSamplesTakeTheWidth() {
    GenerationView view;
    view.resize(1500, 900);
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    GenerationOptions options;
    options.prompt = QStringLiteral("ab");
    options.samples = 3;
    view.setOptions(options);
    QTest::mouseClick(view.generateButton(), Qt::LeftButton);
    QVERIFY(view.otherSamplesShown());
    QWidget* step = view.findChild<QWidget*>(QStringLiteral("stepPanel"));
    QVERIFY(step);
    QVERIFY(!step->isVisible());
    QCoreApplication::processEvents();
    auto* second = view.findChild<QPlainTextEdit*>(QStringLiteral("sample2"));
    auto* third = view.findChild<QPlainTextEdit*>(QStringLiteral("sample3"));
    QVERIFY(second && third);
    QVERIFY2(second->width() > view.width() * 3 / 4, qPrintable(QString::number(second->width())));
    QVERIFY2(second->height() > second->fontMetrics().lineSpacing() * 6,
             qPrintable(QString::number(second->height())));
    QVERIFY(std::abs(third->height() - second->height()) <= 1);  // the height shared out, a pixel left over
    view.setRunning(false);
    QTest::mouseClick(view.stepButton(), Qt::LeftButton);
    QVERIFY(step->isVisible());
    QVERIFY(!view.otherSamplesShown());
}

// Every step of every sample comes through appendSamples: sample 1's
// character to the output, the others' below it, each in its own order; a
// sample that ended is simply left out of a step, and a number without a
// sample shown changes nothing.
void TestGenerationView::oneSlotTakesEverySample() {
    GenerationView view;
    GenerationOptions options;
    options.prompt = QStringLiteral("ab");
    options.samples = 3;
    view.setOptions(options);
    QTest::mouseClick(view.generateButton(), Qt::LeftButton);
    view.appendSamples({1, 2, 3}, {QStringLiteral("x"), QStringLiteral("y"), QStringLiteral("z")});
    view.appendSamples({1, 3}, {QStringLiteral("\U0001D11E"), QStringLiteral("w")});
    view.appendSamples({2, 4, 0}, {QStringLiteral("v"), QStringLiteral("never"), QStringLiteral("never")});
    QCOMPARE(view.generatedText(), QStringLiteral("x\U0001D11E"));
    QCOMPARE(view.outputText(), QStringLiteral("abx\U0001D11E"));
    QCOMPARE(view.otherSampleText(2), QStringLiteral("yv"));
    QCOMPARE(view.otherSampleText(3), QStringLiteral("zw"));
    QCOMPARE(view.otherSampleText(4), QString());
}

void TestGenerationView::clickOnAGeneratedCharacterAsksWhy() {
    GenerationView view;
    view.resize(900, 600);
    view.beginOutput(QStringLiteral("ab"));
    for (const QString& character : {QStringLiteral("c"), QStringLiteral("\U0001D11E"), QStringLiteral("d")})
        view.appendSamples({1}, {character});
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    auto pointInside = [&](int documentPosition) { return pointAt(view, documentPosition, 2); };
    QSignalSpy asked(&view, &GenerationView::characterClicked);
    QWidget* viewport = view.outputEdit()->viewport();
    // 'd': after a, b, c and the two UTF-16 units of U+1D11E; the fifth character shown.
    QCOMPARE(view.generatedIndexAt(pointInside(5)), 2);
    QTest::mouseClick(viewport, Qt::LeftButton, {}, pointInside(5));
    QCOMPARE(asked.count(), 1);
    const QStringList shown{QStringLiteral("a"), QStringLiteral("b"), QStringLiteral("c"),
                            QStringLiteral("\U0001D11E"), QStringLiteral("d")};
    QCOMPARE(asked[0][0].toStringList(), shown);
    QCOMPARE(asked[0][1].toInt(), 4);
    QTest::mouseClick(viewport, Qt::LeftButton, {}, pointInside(2));  // 'c', the first generated
    QCOMPARE(asked.count(), 2);
    QCOMPARE(asked[1][1].toInt(), 2);
    // The prompt was not generated: nothing to ask.
    QCOMPARE(view.generatedIndexAt(pointInside(1)), -1);
    QTest::mouseClick(viewport, Qt::LeftButton, {}, pointInside(1));
    QCOMPARE(asked.count(), 2);
    // The end of a selection is not a click.
    view.outputEdit()->selectAll();
    QTest::mouseRelease(viewport, Qt::LeftButton, {}, pointInside(5));
    QCOMPARE(asked.count(), 2);
}

// The candidates chart's "概率" (probability): turned on its side, Chinese
// characters overlapped; a Chinese title of a vertical axis is written level
// above the plot, at the axis's side, and an English one is the axis's label.
void TestGenerationView::chineseAxisTitleStandsLevel() {
    Plot plot;
    plot.resize(400, 300);
    const int rows = plot.plotLayout()->rowCount();
    setAxisTitle(plot.yAxis, QStringLiteral("概率"));
    QVERIFY(plot.yAxis->label().isEmpty());
    QCPTextElement* level = levelAxisTitle(plot.yAxis);
    QVERIFY(level);
    QCOMPARE(level->text(), QStringLiteral("概率"));
    QVERIFY(level->textFlags() & Qt::AlignLeft);
    QCOMPARE(plot.plotLayout()->rowCount(), rows + 1);
    QCOMPARE(plot.plotLayout()->element(0, 0), level);
    setAxisTitle(plot.yAxis, QStringLiteral("下一个字的概率"));  // the same title, its text changed
    QCOMPARE(plot.plotLayout()->rowCount(), rows + 1);
    QCOMPARE(levelAxisTitle(plot.yAxis)->text(), QStringLiteral("下一个字的概率"));
    plot.replot();
    QVERIFY(level->outerRect().height() > 0);
    QVERIFY(level->outerRect().bottom() <= plot.axisRect()->outerRect().top());
    // A horizontal axis's title reads level as it is.
    setAxisTitle(plot.xAxis, QStringLiteral("步数"));
    QCOMPARE(plot.xAxis->label(), QStringLiteral("步数"));
    QVERIFY(!levelAxisTitle(plot.xAxis));
    // Back in English: the axis's own label, the row gone.
    setAxisTitle(plot.yAxis, QStringLiteral("probability"));
    QCOMPARE(plot.yAxis->label(), QStringLiteral("probability"));
    QVERIFY(!levelAxisTitle(plot.yAxis));
    QCOMPARE(plot.plotLayout()->rowCount(), rows);
}

CHARGPT_TEST_MAIN(TestGenerationView)
}  // namespace tst_generationview
#include "tst_generationview.moc"
