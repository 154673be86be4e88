// SPDX-License-Identifier: GPL-3.0-or-later
// The lesson pane on a hand-made lesson: one step at a time, Back and Next
// within the lesson, the step said (stepShown) as it is shown; a question is
// answered only after a prediction, the answer judged against it and shown
// with what was computed; texts shown as text, never markup; English or
// Chinese, the step kept. The answers on hand-made data: softmax of scores
// times 1000, the spread of q.k against the head size, what a masked model
// gives the characters after a query, the head that looks at the previous one,
// the part that adds most to a character's logit.
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QSignalSpy>
#include <QTest>

#include <algorithm>
#include <cmath>

#include "TestProgram.h"
#include "widgets/AttentionData.h"
#include "widgets/AttributionData.h"
#include "widgets/ControlHighlight.h"
#include "widgets/InsideData.h"
#include "widgets/LessonAnswers.h"
#include "widgets/LessonPane.h"
#include "widgets/PatchingData.h"
#include "widgets/PresentationScale.h"

namespace tst_lessonpane {

namespace {

chargpt::LessonText words(const char* en, const char* zh = "") { return {en, zh}; }

chargpt::Lesson twoSteps() {
    chargpt::Lesson lesson;
    lesson.title = words("Masks <b>bold</b>", "掩码");
    chargpt::LessonStep first;
    first.title = words("First");
    first.text = words("No markup: <i>x</i> & y", "第一步");
    first.view = chargpt::LessonView::SoftmaxMask;
    chargpt::LessonStep second;
    second.title = words("Second");
    second.text = words("Predict.");
    chargpt::LessonQuestion q;
    q.text = words("What does softmax(1000 x) give?");
    q.answer = chargpt::LessonAnswerId::SoftmaxTimes1000;
    q.choices = {{"spread", words("Spread")}, {"one-hot", words("All on the largest", "全在最大的上")}};
    second.question = q;
    lesson.steps = {first, second};
    return lesson;
}

// A square causal head over `n` characters whose rows put `previous` on the
// character before and the rest on the query itself.
AttentionMatrix head(int n, float previous) {
    QStringList chars;
    QVector<float> w(n * n, 0.0f);
    for (int i = 0; i < n; ++i) {
        chars << QString(QChar('a' + i));
        if (i == 0) {
            w[0] = 1.0f;
        } else {
            w[i * n + i - 1] = previous;
            w[i * n + i] = 1.0f - previous;
        }
    }
    return AttentionMatrix::causal(chars, w);
}

}  // namespace

class TestLessonPane : public QObject {
    Q_OBJECT

private slots:
    void walksTheSteps() {
        LessonPane pane;
        QVERIFY(!pane.hasLesson());
        QSignalSpy shown(&pane, &LessonPane::stepShown);
        pane.setLesson(twoSteps());
        QCOMPARE(shown.count(), 1);
        QCOMPARE(shown.takeFirst().at(0).toInt(), 0);
        QCOMPARE(pane.stepText(), QStringLiteral("No markup: <i>x</i> & y"));
        auto* text = pane.findChild<QLabel*>(QStringLiteral("lessonText"));
        QCOMPARE(text->textFormat(), Qt::PlainText);
        QCOMPARE(pane.findChild<QLabel*>(QStringLiteral("lessonTitle"))->textFormat(), Qt::PlainText);
        auto* back = pane.findChild<QPushButton*>(QStringLiteral("lessonBack"));
        auto* next = pane.findChild<QPushButton*>(QStringLiteral("lessonNext"));
        QVERIFY(!back->isEnabled());
        QVERIFY(next->isEnabled());
        next->click();
        QCOMPARE(pane.stepIndex(), 1);
        QCOMPARE(shown.takeFirst().at(0).toInt(), 1);
        QVERIFY(!next->isEnabled());
        pane.next();  // past the end: stays, says nothing
        QCOMPARE(pane.stepIndex(), 1);
        QCOMPARE(shown.count(), 0);
        back->click();
        QCOMPARE(pane.stepIndex(), 0);
        pane.back();
        QCOMPARE(pane.stepIndex(), 0);
        pane.showStep(99);
        QCOMPARE(pane.stepIndex(), 1);
    }

    void predictsBeforeTheAnswer() {
        LessonPane pane;
        pane.setLesson(twoSteps());
        auto* question = pane.findChild<QWidget*>(QStringLiteral("lessonQuestion"));
        QVERIFY(question->isHidden());  // the first step asks nothing
        pane.next();
        QVERIFY(!question->isHidden());
        QSignalSpy asked(&pane, &LessonPane::answerRequested);
        auto* reveal = pane.findChild<QPushButton*>(QStringLiteral("lessonReveal"));
        QVERIFY(!reveal->isEnabled());
        pane.reveal();  // no prediction yet: nothing is asked
        QCOMPARE(asked.count(), 0);
        pane.choose(0);  // "Spread"
        QVERIFY(reveal->isEnabled());
        reveal->click();
        QCOMPARE(asked.count(), 1);
        QVERIFY(asked.first().at(0).value<chargpt::LessonAnswerId>() ==
                chargpt::LessonAnswerId::SoftmaxTimes1000);
        pane.showAnswer(lesson_answers::softmaxTimes1000({0.1, 0.5, -0.3}));
        QVERIFY2(pane.answerText().startsWith(QStringLiteral("Not what you predicted. The answer: All on the largest")),
                 qPrintable(pane.answerText()));
        pane.choose(1);
        pane.showAnswer(lesson_answers::softmaxTimes1000({0.1, 0.5, -0.3}));
        QVERIFY(pane.answerText().startsWith(QStringLiteral("Your prediction was right.")));
        // A new step starts without an answer.
        pane.back();
        pane.next();
        QVERIFY(pane.answerText().isEmpty());
        // An answer that needs a model says so, and judges nothing.
        pane.choose(0);
        LessonAnswer none;
        none.text = QStringLiteral("Train a model first.");
        pane.showAnswer(none);
        QCOMPARE(pane.answerText(), QStringLiteral("Train a model first."));
    }

    // A long answer is shown whole in a wide, low pane (the dock under the
    // views), not cut to the question's first height.
    void answerIsShownWhole() {
        LessonPane pane;
        pane.resize(1200, 420);
        pane.setLesson(twoSteps());
        pane.show();
        QVERIFY(QTest::qWaitForWindowExposed(&pane));
        pane.next();
        pane.choose(0);
        LessonAnswer long_;
        long_.available = true;
        long_.key = QStringLiteral("spread");
        long_.text = QString(QStringLiteral("A sentence of an answer that goes on. ")).repeated(12);
        pane.showAnswer(long_);
        QCoreApplication::processEvents();
        auto* answer = pane.findChild<QLabel*>(QStringLiteral("lessonAnswer"));
        QVERIFY(answer);
        QVERIFY2(answer->height() >= answer->heightForWidth(answer->width()),
                 qPrintable(QStringLiteral("%1 < %2").arg(answer->height()).arg(answer->heightForWidth(answer->width()))));
    }

    // In a pane lower than the step (the dock under the views, in Chinese,
    // whose answer wraps to several lines in the question's column), the
    // pane scrolls to the answer: shown whole, not cut at the fold.
    void lowPaneScrollsToTheAnswer() {
        LessonPane pane;
        pane.resize(1200, 230);
        pane.setLesson(twoSteps());
        pane.setLanguage(QStringLiteral("zh_CN"));
        pane.show();
        QVERIFY(QTest::qWaitForWindowExposed(&pane));
        pane.next();
        pane.choose(1);
        LessonAnswer long_;
        long_.available = true;
        long_.key = QStringLiteral("one-hot");
        long_.text = QStringLiteral(
                         "softmax(x) = [0.156, 0.056, 0.052, 0.137, 0.049, 0.176, 0.310, 0.064]\n"
                         "softmax(1000 x) = [0.000, 0.000, 0.000, 0.000, 0.000, 0.000, 1.000, 0.000]\n") +
                     QStringLiteral("最大的分数拿走了 100.0% 的权重：分数被放大后，softmax 趋向独热向量。")
                         .repeated(3);
        pane.showAnswer(long_);
        auto* answer = pane.findChild<QLabel*>(QStringLiteral("lessonAnswer"));
        auto* scroll = pane.findChild<QScrollArea*>();
        QVERIFY(answer && scroll);
        const auto answerBox = [&] {
            return QRect(answer->mapTo(scroll->viewport(), QPoint(0, 0)), answer->size());
        };
        // Whole (its wrapped height, not cut to a lower one) and in the scroll box's sight.
        const auto shown = [&] {
            return answer->height() >= answer->heightForWidth(answer->width()) &&
                   scroll->viewport()->rect().contains(answerBox());
        };
        QTRY_VERIFY2(shown(), qPrintable(QStringLiteral("answer %1 high (needs %2) at %3 in a box %4 high")
                                             .arg(answer->height())
                                             .arg(answer->heightForWidth(answer->width()))
                                             .arg(answerBox().y())
                                             .arg(scroll->viewport()->height())));
    }

    // An answer measured on the model names the step and run it measured,
    // and says when a newer step could answer otherwise.
    void answersNameTheStepTheyMeasured() {
        ModelAttention model;
        model.layers.resize(1);
        model.layers[0].heads = {head(6, 0.9f)};
        lesson_answers::Inputs inputs;
        inputs.attention = &model;
        inputs.attentionStep = 64;
        inputs.run = 3;
        inputs.newestStep = 842;
        const LessonAnswer a =
            lesson_answers::compute(chargpt::LessonAnswerId::PreviousCharacterHead, inputs);
        QVERIFY2(a.text.contains(QStringLiteral("Measured on your model at step 64 of run 3.")), qPrintable(a.text));
        QVERIFY2(a.text.contains(QStringLiteral("newest step is 842")), qPrintable(a.text));
        inputs.attentionStep = 842;
        const LessonAnswer newest =
            lesson_answers::compute(chargpt::LessonAnswerId::PreviousCharacterHead, inputs);
        QVERIFY2(newest.text.contains(QStringLiteral("at step 842 of run 3.")), qPrintable(newest.text));
        QVERIFY2(!newest.text.contains(QStringLiteral("newest")), qPrintable(newest.text));
        QVERIFY(!lesson_answers::compute(chargpt::LessonAnswerId::PreviousCharacterHead, {})
                     .text.contains(QStringLiteral("Measured")));
    }

    void speaksTheLessonsLanguage() {
        LessonPane pane;
        pane.setLesson(twoSteps());
        pane.setLanguage(QStringLiteral("zh_CN"));
        QCOMPARE(pane.stepText(), QStringLiteral("第一步"));
        QCOMPARE(pane.findChild<QLabel*>(QStringLiteral("lessonTitle"))->text(), QStringLiteral("掩码"));
        pane.next();
        pane.choose(1);
        pane.showAnswer(lesson_answers::softmaxTimes1000({1.0, 2.0}));
        const QString answer = pane.answerText();
        QVERIFY(answer.contains(QStringLiteral("全在最大的上")));
        // Switching back keeps the step and the prediction, and asks for the
        // answer again, to show it in the new language.
        QSignalSpy asked(&pane, &LessonPane::answerRequested);
        pane.setLanguage(QStringLiteral("en"));
        QCOMPARE(pane.stepIndex(), 1);
        QCOMPARE(asked.count(), 1);
        pane.showAnswer(lesson_answers::softmaxTimes1000({1.0, 2.0}));
        QVERIFY(pane.answerText().startsWith(QStringLiteral("Your prediction was right. The answer: All on the largest")));
        QCOMPARE(pane.stepText(), QStringLiteral("Predict."));  // no Chinese: English
    }

    // Presentation mode's scale of a font, in points or in pixels, never to a
    // size of zero or less.
    void scalesFontsOfEitherUnit() {
        QFont points;
        points.setPointSizeF(10.0);
        QCOMPARE(scaledFont(points, 1.5).pointSizeF(), 15.0);
        QFont pixels;
        pixels.setPixelSize(15);
        QCOMPARE(scaledFont(pixels, 2.0).pixelSize(), 30);
        QCOMPARE(scaledFont(pixels, 2.0).pointSizeF(), -1.0);
        QCOMPARE(scaledFont(scaledFont(pixels, 1.5), 1.0 / 1.5).pixelSize(), 15);
        QCOMPARE(scaledFont(pixels, 0.01).pixelSize(), 1);
        QCOMPARE(scaledFont(points, -1.0).pointSizeF(), 10.0);
    }

    void softmaxTimes1000() {
        const LessonAnswer sharp = lesson_answers::softmaxTimes1000({0.2, 0.9, -1.0, 0.4});
        QVERIFY(sharp.available);
        QCOMPARE(sharp.key, QStringLiteral("one-hot"));
        QVERIFY(sharp.text.contains(QStringLiteral("100.0%")));
        // Equal scores stay equal whatever they are multiplied by.
        QCOMPARE(lesson_answers::softmaxTimes1000({0.5, 0.5, 0.5}).key, QStringLiteral("uniform"));
        // Two scores tied at the top share it: not one-hot.
        QCOMPARE(lesson_answers::softmaxTimes1000({0.5, 0.5, 0.1}).key, QStringLiteral("spread"));
    }

    void unscaledSpread() {
        const LessonAnswer a = lesson_answers::unscaledSpread();
        QVERIFY(a.available);
        QCOMPARE(a.key, QStringLiteral("grows"));  // about sqrt(8) = 2.8 against sqrt(64) = 8
    }

    void attentionToFuture() {
        ModelAttention masked;
        masked.layers.resize(2);
        masked.layers[0].heads = {head(5, 0.9f), head(5, 0.2f)};
        masked.layers[1].heads = {head(5, 0.5f)};
        const LessonAnswer none = lesson_answers::attentionToFuture(masked);
        QVERIFY(none.available);
        QCOMPARE(none.key, QStringLiteral("none"));
        QVERIFY2(none.text.contains(QStringLiteral("15 rows")), qPrintable(none.text));
        // A head whose rows do not add up to 1 over what they may see gave the rest away.
        ModelAttention leaky = masked;
        QVector<float> w(9, 0.0f);
        w[0] = 0.7f;  // 0.3 of the first row went to later characters
        w[3] = 0.5f;
        w[4] = 0.5f;
        w[6] = 0.2f;
        w[7] = 0.3f;
        w[8] = 0.5f;
        leaky.layers[1].heads << AttentionMatrix::causal({QStringLiteral("a"), QStringLiteral("b"), QStringLiteral("c")}, w);
        QCOMPARE(lesson_answers::attentionToFuture(leaky).key, QStringLiteral("some"));
        // Nothing shown: the learner is told what is needed.
        QVERIFY(!lesson_answers::attentionToFuture(ModelAttention{}).available);
        QVERIFY(!lesson_answers::compute(chargpt::LessonAnswerId::AttentionToFuture, {}).available);
    }

    void previousCharacterHead() {
        ModelAttention model;
        model.layers.resize(2);
        model.layers[0].heads = {head(6, 0.1f), head(6, 0.3f)};
        model.layers[1].heads = {head(6, 0.2f), head(6, 0.9f)};
        const LessonAnswer yes = lesson_answers::previousCharacterHead(model);
        QCOMPARE(yes.key, QStringLiteral("yes"));
        QVERIFY2(yes.text.contains(QStringLiteral("layer 2, head 2 puts 90.0%")), qPrintable(yes.text));
        model.layers[1].heads[1] = head(6, 0.4f);
        const LessonAnswer no = lesson_answers::previousCharacterHead(model);
        QCOMPARE(no.key, QStringLiteral("no"));
        QVERIFY2(no.text.contains(QStringLiteral("layer 2, head 2, puts 40.0%")), qPrintable(no.text));
    }

    void feedForwardKnockout() {
        Knockout table;
        table.baselineLoss = 2.0;
        table.layers = 2;
        table.heads = 1;
        auto row = [](KnockoutKind kind, int layer, double increase) {
            KnockoutRow r;
            r.kind = kind;
            r.layer = layer;
            if (kind == KnockoutKind::Head) r.head = 0;
            r.increase = increase;
            r.loss = 2.0 + increase;
            return r;
        };
        table.rows = {row(KnockoutKind::Head, 0, 0.9), row(KnockoutKind::Attention, 0, 1.5),
                      row(KnockoutKind::FeedForward, 0, 0.02), row(KnockoutKind::FeedForward, 1, 0.3)};
        LessonAnswer a = lesson_answers::feedForwardKnockout(table);
        QVERIFY(a.available);
        QCOMPARE(a.key, QStringLiteral("some"));  // the feed-forwards' largest, 0.3; the attention's 1.5 is not theirs
        QVERIFY2(a.text.contains(QStringLiteral("layer 1: 0.020, layer 2: 0.300")), qPrintable(a.text));
        table.rows[3].increase = 0.7;
        QCOMPARE(lesson_answers::feedForwardKnockout(table).key, QStringLiteral("much"));
        table.rows[3].increase = 0.01;
        QCOMPARE(lesson_answers::feedForwardKnockout(table).key, QStringLiteral("little"));
        // Not measured yet: says how to measure it.
        const LessonAnswer none = lesson_answers::compute(chargpt::LessonAnswerId::FeedForwardKnockout, {});
        QVERIFY(!none.available);
        QVERIFY(none.text.startsWith(QStringLiteral("Press Knock out")));
    }

    void lossAgainstFloors() {
        lesson_answers::LossLevels levels;
        levels.uniform = std::log(100.0);  // 4.605
        levels.unigram = 3.2;
        QVERIFY(!lesson_answers::lossAgainstFloors(levels).available);  // no evaluation yet
        levels.validation = {{0, 4.7}, {100, 3.5}, {200, 2.9}, {300, 3.0}};
        LessonAnswer a = lesson_answers::lossAgainstFloors(levels);
        QVERIFY(a.available);
        QCOMPARE(a.key, QStringLiteral("below-unigram"));
        QVERIFY2(a.text.contains(QStringLiteral("2.900 nats, at step 200")), qPrintable(a.text));
        QVERIFY(a.text.contains(QStringLiteral("4.605")) && a.text.contains(QStringLiteral("3.200")));
        levels.validation = {{0, 4.7}, {100, 3.5}};
        QCOMPARE(lesson_answers::lossAgainstFloors(levels).key, QStringLiteral("between"));
        levels.validation = {{0, 4.7}, {100, std::nan("")}};
        QCOMPARE(lesson_answers::lossAgainstFloors(levels).key, QStringLiteral("above-uniform"));
        // No corpus, no floors: nothing to compare with.
        levels.unigram = std::nan("");
        QVERIFY(!lesson_answers::lossAgainstFloors(levels).available);
    }

    void topPart() {
        QVERIFY(
            !lesson_answers::compute(chargpt::LessonAnswerId::TopPart, {}).available);  // nothing clicked yet
        CharacterAttribution a;
        a.characters = {QStringLiteral("a")};
        a.chosen = QStringLiteral("b");
        a.logit = 2.0;
        a.step = 30;
        const auto bar = [](AttributionBar::Kind kind, std::optional<int> layer, std::optional<int> head,
                            double logit) {
            AttributionBar b;
            b.kind = kind;
            b.layer = layer;
            b.head = head;
            b.logit = logit;
            return b;
        };
        a.bars = {bar(AttributionBar::TokenEmbedding, std::nullopt, std::nullopt, 0.5),
                  bar(AttributionBar::Head, 0, 2, 1.5), bar(AttributionBar::Head, 1, 0, -3.0),
                  bar(AttributionBar::FeedForward, 1, std::nullopt, 1.0)};
        lesson_answers::Inputs inputs;
        inputs.attribution = &a;
        LessonAnswer answer = lesson_answers::compute(chargpt::LessonAnswerId::TopPart, inputs);
        QVERIFY(answer.available);
        QCOMPARE(answer.key,
                 QStringLiteral("earlier-head"));  // L1 H3 of two layers; adding most, not the largest |x|
        QVERIFY2(answer.text.contains(QStringLiteral("'b'")) &&
                     answer.text.contains(QStringLiteral("L1 H3: 1.500")),
                 qPrintable(answer.text));
        QVERIFY2(answer.text.contains(QStringLiteral("at step 30")), qPrintable(answer.text));
        a.bars[1].layer = 1;
        QCOMPARE(lesson_answers::compute(chargpt::LessonAnswerId::TopPart, inputs).key,
                 QStringLiteral("last-layer-head"));
        a.bars[3].logit = 2.5;
        QCOMPARE(lesson_answers::compute(chargpt::LessonAnswerId::TopPart, inputs).key,
                 QStringLiteral("not-a-head"));
    }

    // Every answer of the table (model/lesson/LessonTables.h) is computed:
    // with what it needs at hand, it gives one of the keys the table lists
    // for it, and says what it computed; with nothing at hand, what is needed.
    void everyAnswerOfTheTableIsComputed() {
        ModelAttention model;
        model.layers.resize(1);
        model.layers[0].heads = {head(6, 0.9f)};
        Knockout knockout;
        knockout.baselineLoss = 2.0;
        knockout.layers = 1;
        KnockoutRow feedForward;
        feedForward.kind = KnockoutKind::FeedForward;
        feedForward.layer = 0;
        feedForward.increase = 0.3;
        knockout.rows = {feedForward};
        CharacterAttribution attribution;
        attribution.characters = {QStringLiteral("a")};
        attribution.chosen = QStringLiteral("b");
        AttributionBar bar;
        bar.kind = AttributionBar::Head;
        bar.layer = 0;
        bar.logit = 1.0;
        attribution.bars = {bar};
        PatchingResult patching;
        patching.clean = {QStringLiteral("a"), QStringLiteral("b"), QStringLiteral("c")};
        patching.corrupted = {QStringLiteral("a"), QStringLiteral("x"), QStringLiteral("c")};
        patching.layers = 1;
        patching.heads = 1;
        patching.residual = {0.0, 0.0, 0.0, 0.0, 0.0, 0.8};
        patching.perHead = {0.5};
        lesson_answers::Inputs inputs;
        inputs.softmaxVector = {1.0, 2.0, 3.0};
        inputs.attention = &model;
        inputs.knockout = &knockout;
        inputs.attribution = &attribution;
        inputs.patching = &patching;
        inputs.loss.validation = {{0, 4.0}, {100, 3.0}};
        inputs.loss.uniform = 4.2;
        inputs.loss.unigram = 3.3;
        QVERIFY(!chargpt::lessonAnswers().empty());
        for (const auto& entry : chargpt::lessonAnswers()) {
            const LessonAnswer a = lesson_answers::compute(entry.id, inputs);
            QVERIFY2(a.available, entry.name);
            QVERIFY2(!a.text.isEmpty(), entry.name);
            const std::string key = a.key.toStdString();
            QVERIFY2(std::find(entry.keys.begin(), entry.keys.end(), key) != entry.keys.end(),
                     qPrintable(QStringLiteral("%1 gives %2").arg(QString::fromUtf8(entry.name), a.key)));
            if (entry.id == chargpt::LessonAnswerId::SoftmaxTimes1000 ||
                entry.id == chargpt::LessonAnswerId::UnscaledSpread)
                continue;  // from the lab's own numbers: nothing of the model is needed
            const LessonAnswer none = lesson_answers::compute(entry.id, {});
            QVERIFY2(!none.available && !none.text.isEmpty(), entry.name);
        }
    }

    void ringsAControl() {
        QWidget window;
        window.resize(400, 300);
        auto* button = new QPushButton(QStringLiteral("Start"), &window);
        button->setGeometry(50, 60, 100, 30);
        ControlHighlight ring(&window);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        ring.setTarget(button);
        QVERIFY(ring.isVisible());
        QVERIFY(ring.geometry().contains(button->geometry()));
        QVERIFY(ring.testAttribute(Qt::WA_TransparentForMouseEvents));
        button->move(200, 200);
        QVERIFY(ring.geometry().contains(button->geometry()));
        button->hide();
        QVERIFY(!ring.isVisible());
        button->show();
        QVERIFY(ring.isVisible());
        ring.setTarget(nullptr);
        QVERIFY(!ring.isVisible());
        // A control that goes away takes the ring with it.
        ring.setTarget(button);
        delete button;
        QVERIFY(!ring.target());
        QVERIFY(!ring.isVisible());
    }
};

CHARGPT_TEST_MAIN(TestLessonPane)
}  // namespace tst_lessonpane
#include "tst_lessonpane.moc"
