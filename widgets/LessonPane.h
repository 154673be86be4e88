// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>
#include <QWidget>

#include <functional>

#include "model/lesson/Lesson.h"
#include "widgets/LessonAnswers.h"

class QBoxLayout;
class QButtonGroup;
class QLabel;
class QPushButton;
class QScrollArea;
class QVBoxLayout;
class QGroupBox;

// A lesson, one step at a time: its idea in a few sentences, Back and Next,
// and, where the step asks, the learner's prediction before the answer. What a
// step shows elsewhere (a view brought to the front, a control pointed at) and
// how an answer is computed are the window's: the pane says which step is
// shown (stepShown) and which answer is wanted (answerRequested), and shows
// what comes back (showAnswer).
class LessonPane : public QWidget {
    Q_OBJECT

public:
    explicit LessonPane(QWidget* parent = nullptr);

    // Shows the lesson from its first step.
    void setLesson(const chargpt::Lesson& lesson);
    const chargpt::Lesson& lesson() const { return lesson_; }
    bool hasLesson() const { return !lesson_.steps.empty(); }
    // "en" or "zh_CN": the language of the lesson's texts (English where it has none).
    void setLanguage(const QString& language);
    // What "{startButton}" in a step's text or question reads: the label of
    // the control of that name (model/lesson/LessonTables.h), as the window
    // shows it now (empty: the placeholder is left as written).
    void setControlLabels(std::function<QString(const QString& name)> labelOf);
    // The step's texts again, with the controls' labels of now (after a change
    // of language), keeping the prediction and the answer.
    void refreshTexts();

    int stepIndex() const { return step_; }
    int stepCount() const { return int(lesson_.steps.size()); }
    void showStep(int index);  // clamped to the lesson
    void next();
    void back();

    // The answer to the current step's question; its key is judged against the
    // learner's choice.
    void showAnswer(const LessonAnswer& answer);
    // The texts shown, for tests.
    QString stepText() const;
    QString answerText() const;
    // Picks choice `index` of the current question (as a click does).
    void choose(int index);
    // Asks for the answer (as the button does); only after a choice.
    void reveal();

signals:
    void stepShown(int index);
    void answerRequested(chargpt::LessonAnswerId answer);

protected:
    void changeEvent(QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void retranslateUi();
    void fill();
    void updateFonts();
    QString withControlLabels(QString text) const;
    // Brings the answer into the step's scroll box once it has its height.
    void scrollToAnswer();

    chargpt::Lesson lesson_;
    QString language_ = QStringLiteral("en");
    std::function<QString(const QString&)> controlLabel_;
    int step_ = 0;
    QLabel* lessonTitle_ = nullptr;
    QLabel* counter_ = nullptr;
    QLabel* stepTitle_ = nullptr;
    QLabel* text_ = nullptr;
    QGroupBox* question_ = nullptr;
    QLabel* questionText_ = nullptr;
    QBoxLayout* parts_ = nullptr;  // the idea and the question, side by side or one below the other
    QVBoxLayout* choicesLayout_ = nullptr;
    QButtonGroup* choices_ = nullptr;
    QPushButton* revealButton_ = nullptr;
    QLabel* answer_ = nullptr;
    QScrollArea* scroll_ = nullptr;  // the step: its idea, its question and the answer
    QPushButton* backButton_ = nullptr;
    QPushButton* nextButton_ = nullptr;
};
