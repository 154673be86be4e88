// SPDX-License-Identifier: GPL-3.0-or-later
// The generation view: streamed characters, requests to start, step and stop,
// unknown prompt characters.
#include "GenerationView.h"

#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QtTest>

class TestGenerationView : public QObject {
    Q_OBJECT

private slots:
    void appendsCharactersOneByOne();
    void generateThenStop();
    void stepRestartsOnlyWhenSettingsChange();
    void highlightsUnknownCharacters();
    void showsCandidatesAndAttentionRows();
};

void TestGenerationView::appendsCharactersOneByOne() {
    GenerationView view;
    view.beginOutput(QStringLiteral("床前"));
    for (const QString& character : {QStringLiteral("明"), QStringLiteral("月"), QStringLiteral("\n")})
        view.appendCharacter(character);
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

    view.appendCharacter(QStringLiteral("f"));
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

QTEST_MAIN(TestGenerationView)
#include "tst_generationview.moc"
