// SPDX-License-Identifier: GPL-3.0-or-later
// The activation patching lab (PatchingLab) on hand-made values: a preset is
// the corpus's text with one character changed and the character after it as
// the target; Run checks the prompts before it asks; a result fills the three
// heat maps (the stream's layer x position, layer x head, the feed-forwards'
// layer x position) and a sentence names what restores most; while it runs, only Stop is enabled.
#include "TestProgram.h"

#include <QLineEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTest>

#include <algorithm>
#include <cmath>

#include "model/lesson/Lesson.h"
#include "widgets/LessonAnswers.h"
#include "widgets/PatchingLab.h"
#include "widgets/ValueGrid.h"

#include <QFontMetricsF>

namespace tst_patchinglab {

namespace {

int differences(const QString& a, const QString& b) {
    const QList<uint> x = a.toUcs4(), y = b.toUcs4();
    int n = 0;
    for (int i = 0; i < std::min(x.size(), y.size()); ++i) n += x[i] != y[i];
    return n;
}

PatchingResult handMade() {
    PatchingResult r;
    r.clean = {QStringLiteral("a"), QStringLiteral("b"), QStringLiteral(" ")};
    r.corrupted = {QStringLiteral("a"), QStringLiteral("x"), QStringLiteral(" ")};
    r.target = QStringLiteral("c");
    r.wrong = QStringLiteral("d");
    r.cleanDifference = 2.0;
    r.corruptedDifference = -1.0;
    r.layers = 2;
    r.heads = 2;
    r.residual = {0.0, 1.0,  0.0,   // embeddings
                  0.1, 0.83, 0.0,   // after L1
                  0.0, 0.2,  1.0};  // after L2
    r.residual[1] = 0.5;
    r.residual[8] = 0.9;
    r.perHead = {0.05, 0.4, NAN, -0.1};
    r.feedForward = {0.0, 0.1, 0.0,    // L1's feed-forward at each position
                     0.0, 0.3, 0.25};  // L2's
    r.step = 7;
    return r;
}

}  // namespace

class TestPatchingLab : public QObject {
    Q_OBJECT

private slots:
    void presetChangesOneCharacter();
    void runChecksThePrompts();
    void resultFillsTheMaps();
    void lessonAnswerNamesTheLayer();
};

void TestPatchingLab::presetChangesOneCharacter() {
    const QString text = QStringLiteral("First Citizen:\nBefore we proceed any further, hear me speak.\n");
    for (quint32 seed = 0; seed < 20; ++seed) {
        const PatchingPrompts p = PatchingPrompts::presetFrom(text, 16, seed);
        QCOMPARE(p.clean.size(), 16);
        QCOMPARE(p.corrupted.size(), 16);
        QCOMPARE(differences(p.clean, p.corrupted), 1);
        QVERIFY2(text.contains(p.clean + p.target), qPrintable(p.clean + p.target));  // the target follows it
        QCOMPARE(p.target.size(), 1);
    }
    QVERIFY(PatchingPrompts::presetFrom(QStringLiteral("short"), 16, 0).clean.isEmpty());
    QVERIFY(PatchingPrompts::presetFrom(QStringLiteral("aaaaaaaaaaaaaaaaaaaaaa"), 16, 0).clean.isEmpty());

    PatchingLab lab;
    QVERIFY(!lab.presetButton()->isEnabled());  // no corpus yet
    lab.setPresetSource(text);
    lab.setContext(12);
    QTest::mouseClick(lab.presetButton(), Qt::LeftButton);
    QCOMPARE(lab.prompts().clean.size(), 12);  // no longer than the model reads
    QCOMPARE(differences(lab.prompts().clean, lab.prompts().corrupted), 1);
    // From the why window: its characters as the clean prompt, one changed.
    lab.prepareFrom(QStringLiteral("we proceed"), QStringLiteral(" "));
    QCOMPARE(lab.prompts().clean, QStringLiteral("we proceed"));
    QCOMPARE(lab.prompts().target, QStringLiteral(" "));
    QCOMPARE(differences(lab.prompts().clean, lab.prompts().corrupted), 1);
}

void TestPatchingLab::runChecksThePrompts() {
    PatchingLab lab;
    lab.setContext(8);
    QSignalSpy asked(&lab, &PatchingLab::runRequested);
    QSignalSpy stopped(&lab, &PatchingLab::stopRequested);
    const auto run = [&](const QString& clean, const QString& corrupted, const QString& target) {
        lab.setPrompts({clean, corrupted, target});
        QTest::mouseClick(lab.runButton(), Qt::LeftButton);
    };
    run(QStringLiteral("abc"), QStringLiteral("abcd"), QStringLiteral("e"));
    QVERIFY(lab.message().contains(QLatin1String("same number of characters")));
    run(QStringLiteral("abcdefghi"), QStringLiteral("abcdefghj"), QStringLiteral("e"));
    QVERIFY(lab.message().contains(QLatin1String("at most 8")));
    run(QStringLiteral("abc"), QStringLiteral("abd"), QStringLiteral("ef"));
    QVERIFY(lab.message().contains(QLatin1String("one character")));
    run(QStringLiteral("abc"), QStringLiteral("abc"), QStringLiteral("e"));
    QVERIFY(lab.message().contains(QLatin1String("the same")));
    QCOMPARE(asked.count(), 0);
    run(QStringLiteral("a\U0001D11Ec"), QStringLiteral("abc"), QStringLiteral("e"));  // three characters each
    QCOMPARE(asked.count(), 1);
    QCOMPARE(asked[0][0].value<PatchingPrompts>().corrupted, QStringLiteral("abc"));

    lab.setRunning(true);
    QVERIFY(!lab.runButton()->isEnabled());
    QVERIFY(lab.stopButton()->isEnabled());
    lab.setProgress(3, 10);
    QVERIFY(lab.message().contains(QLatin1String("3 of 10")));
    QTest::mouseClick(lab.stopButton(), Qt::LeftButton);
    QCOMPARE(stopped.count(), 1);
    lab.setRunning(false);
    QVERIFY(lab.runButton()->isEnabled());
    QVERIFY(!lab.stopButton()->isEnabled());
}

void TestPatchingLab::resultFillsTheMaps() {
    PatchingLab lab;
    QVERIFY(lab.residualGrid()->isHidden());
    lab.setResult(handMade());
    const ValueGridData& residual = lab.residualGrid()->data();
    QCOMPARE(residual.rows(), 3);  // the embeddings and after each of 2 layers
    QCOMPARE(residual.columns(), 3);
    QCOMPARE(residual.rowLabels[0], QStringLiteral("embeddings"));
    QCOMPARE(residual.rowLabels[2], QStringLiteral("after L2"));
    QCOMPARE(residual.columnLabels[1], QStringLiteral("b/x"));  // the changed character, both ways
    QCOMPARE(residual.columnLabels[2], QStringLiteral("\u2423"));
    QCOMPARE(residual.value(1, 1), 0.83);
    QCOMPARE(residual.cellText(1, 1), QStringLiteral("83"));
    const ValueGridData& heads = lab.headGrid()->data();
    QCOMPARE(heads.rows(), 2);
    QCOMPARE(heads.columns(), 2);
    QCOMPARE(heads.columnLabels[1], QStringLiteral("H2"));
    QVERIFY(std::isnan(heads.value(1, 0)));
    QVERIFY(!lab.residualGrid()->isHidden());
    const ValueGridData& feedForward = lab.feedForwardGrid()->data();
    QCOMPARE(feedForward.rows(), 2);
    QCOMPARE(feedForward.columns(), 3);
    QCOMPARE(feedForward.rowLabels[1], QStringLiteral("L2 FF"));
    QCOMPARE(feedForward.columnLabels[1], QStringLiteral("b/x"));
    QCOMPARE(feedForward.value(1, 2), 0.25);
    QVERIFY(!lab.feedForwardGrid()->isHidden());
    QVERIFY(lab.feedForwardGrid()->toolTipText(1, 1).contains(QLatin1String("Layer 2's feed-forward")));
    // The sentence: the measure, the residual cell and the head that restore most.
    const QString finding = lab.finding();
    QVERIFY2(finding.contains(QLatin1String("logit of 'c' minus that of 'd'")), qPrintable(finding));
    QVERIFY2(finding.contains(QLatin1String("2.000 in the clean run and -1.000")), qPrintable(finding));
    // Not the changed character's embedding (50%) nor the last layer's last position (90%): those carry it
    // all by construction.
    QVERIFY2(finding.contains(QStringLiteral("position 2 ('b') after layer 1 restores most: 83%")),
             qPrintable(finding));
    QVERIFY2(finding.contains(QLatin1String("L1 H2 restores most: 40%")), qPrintable(finding));
    QVERIFY2(!finding.contains(QLatin1String("feed-forward")), qPrintable(finding));  // 30% < the head's 40%
    QCOMPARE(lab.message(), finding);
    QVERIFY(lab.residualGrid()->toolTipText(1, 1).contains(QLatin1String("after layer 1 at position 2")));
    // The colour scale's title is read whole, not cut short between its end numbers.
    for (const ValueGrid* grid : {lab.residualGrid(), lab.headGrid(), lab.feedForwardGrid()}) {
        const QSize size = ValueGrid::preferredSize(grid->data(), grid->font(), 24.0);
        const QRectF bar = ValueGrid::scaleBar(size, grid->data(), grid->font());
        const QFontMetricsF metrics(grid->font());
        QVERIFY(!bar.isEmpty());
        QVERIFY2(bar.width() >= metrics.horizontalAdvance(grid->data().scaleTitle) +
                                    metrics.horizontalAdvance(QStringLiteral("-1.00")) * 2,
                 qPrintable(QStringLiteral("%1 for %2").arg(bar.width()).arg(grid->data().scaleTitle)));
    }

    // A feed-forward that restores more than every head is the one named.
    PatchingResult strongFeedForward = handMade();
    strongFeedForward.feedForward[4] = 0.6;
    lab.setResult(strongFeedForward);
    QVERIFY2(lab.finding().contains(
                 QLatin1String("layer 2's feed-forward at position 2 ('b') restores most: 60%")),
             qPrintable(lab.finding()));
    QVERIFY(!lab.finding().contains(QLatin1String("L1 H2")));
    // A model without feed-forwards: no third map.
    PatchingResult noFeedForward = handMade();
    noFeedForward.feedForward.clear();
    lab.setResult(noFeedForward);
    QVERIFY(lab.feedForwardGrid()->isHidden());
    QVERIFY(lab.finding().contains(QLatin1String("L1 H2 restores most")));

    PatchingResult failed;
    failed.problem = QStringLiteral("the patching was stopped.");
    lab.setResult(failed);
    QCOMPARE(lab.message(), failed.problem);
    QVERIFY(lab.residualGrid()->isHidden());
    QVERIFY(lab.feedForwardGrid()->isHidden());
}

// The chapter lesson's patching step: the first layer after which the stream
// at the last position restores half the difference or more.
void TestPatchingLab::lessonAnswerNamesTheLayer() {
    QVERIFY(!lesson_answers::compute(chargpt::LessonAnswerId::PatchingLayer, {}).available);  // not run yet
    PatchingResult r = handMade();  // the last position: 0% after L1, 100% after L2
    lesson_answers::Inputs inputs;
    inputs.patching = &r;
    LessonAnswer answer = lesson_answers::compute(chargpt::LessonAnswerId::PatchingLayer, inputs);
    QVERIFY(answer.available);
    QCOMPARE(answer.key, QStringLiteral("later-layer"));
    QVERIFY2(answer.text.contains(QLatin1String("after layer 1: 0%, after layer 2: 90%")),
             qPrintable(answer.text));
    QVERIFY2(answer.text.contains(QLatin1String("('b' at position 2)")), qPrintable(answer.text));
    QVERIFY2(answer.text.contains(QLatin1String("at step 7")), qPrintable(answer.text));
    r.residual[5] = 0.6;  // after L1 at the last position
    QCOMPARE(lesson_answers::compute(chargpt::LessonAnswerId::PatchingLayer, inputs).key,
             QStringLiteral("first-layer"));
    r.residual[5] = 0.49;
    QCOMPARE(lesson_answers::compute(chargpt::LessonAnswerId::PatchingLayer, inputs).key,
             QStringLiteral("later-layer"));
    // Every key it gives is one the lesson table knows.
    const auto& keys = chargpt::lessonAnswer(chargpt::LessonAnswerId::PatchingLayer).keys;
    QVERIFY(std::find(keys.begin(), keys.end(), "first-layer") != keys.end());
    QVERIFY(std::find(keys.begin(), keys.end(), "later-layer") != keys.end());
    // The last character changed: it is at the last position already, nothing to ask.
    r.corrupted = {QStringLiteral("a"), QStringLiteral("b"), QStringLiteral("x")};
    answer = lesson_answers::compute(chargpt::LessonAnswerId::PatchingLayer, inputs);
    QVERIFY(!answer.available);
    QVERIFY2(answer.text.contains(QLatin1String("change an earlier one")), qPrintable(answer.text));
}

CHARGPT_TEST_MAIN(TestPatchingLab)
}  // namespace tst_patchinglab
#include "tst_patchinglab.moc"
