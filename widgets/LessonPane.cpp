// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/LessonPane.h"
#include "widgets/PresentationScale.h"

#include <QButtonGroup>
#include <QCoreApplication>
#include <QEvent>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QRadioButton>
#include <QRegularExpression>
#include <QScrollArea>
#include <QTimer>
#include <QVBoxLayout>

#include <algorithm>

namespace {

QLabel* plainLabel(QWidget* parent) {
    auto* label = new QLabel(parent);
    label->setTextFormat(Qt::PlainText);  // a lesson file's text is never markup
    label->setWordWrap(true);
    label->setTextInteractionFlags(Qt::TextSelectableByMouse);
    return label;
}

}  // namespace

LessonPane::LessonPane(QWidget* parent) : QWidget(parent) {
    lessonTitle_ = plainLabel(this);
    lessonTitle_->setObjectName(QStringLiteral("lessonTitle"));
    counter_ = new QLabel(this);
    stepTitle_ = plainLabel(this);
    stepTitle_->setObjectName(QStringLiteral("lessonStepTitle"));
    updateFonts();
    text_ = plainLabel(this);
    text_->setObjectName(QStringLiteral("lessonText"));

    question_ = new QGroupBox(this);
    question_->setObjectName(QStringLiteral("lessonQuestion"));
    questionText_ = plainLabel(question_);
    choices_ = new QButtonGroup(this);
    choicesLayout_ = new QVBoxLayout;
    revealButton_ = new QPushButton(question_);
    revealButton_->setObjectName(QStringLiteral("lessonReveal"));
    answer_ = plainLabel(question_);
    answer_->setObjectName(QStringLiteral("lessonAnswer"));
    auto* questionLayout = new QVBoxLayout(question_);
    questionLayout->addWidget(questionText_);
    questionLayout->addLayout(choicesLayout_);
    questionLayout->addWidget(revealButton_, 0, Qt::AlignLeft);
    questionLayout->addWidget(answer_);

    backButton_ = new QPushButton(this);
    backButton_->setObjectName(QStringLiteral("lessonBack"));
    nextButton_ = new QPushButton(this);
    nextButton_->setObjectName(QStringLiteral("lessonNext"));
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(backButton_);
    buttons->addWidget(counter_, 1, Qt::AlignCenter);
    buttons->addWidget(nextButton_);

    // Wide and low, under the views: the step's idea on the left, the
    // question beside it, so that the view it is about keeps its height.
    // Back and Next stay where they are, whether a step asks or not.
    auto* idea = new QVBoxLayout;
    idea->addWidget(lessonTitle_);
    idea->addWidget(stepTitle_);
    idea->addWidget(text_);
    idea->addStretch(1);
    // The step scrolls when it is longer than the pane; Back and Next stay in sight.
    auto* content = new QWidget;
    // In a narrow pane (presentation mode puts it in the side panel's place)
    // the question goes below the idea instead (resizeEvent).
    auto* parts = new QHBoxLayout(content);
    parts_ = parts;
    parts->setContentsMargins(0, 0, 0, 0);
    parts->addLayout(idea, 3);
    // In a column of its own with room below, not aligned in the row: an
    // aligned widget gets the height of its size hint, not the height its
    // wrapped answer needs at the width it has, and the answer was cut off.
    auto* asking = new QVBoxLayout;
    asking->addWidget(question_);
    asking->addStretch(1);
    parts->addLayout(asking, 2);
    auto* scroll = new QScrollArea(this);
    scroll_ = scroll;
    scroll->setWidget(content);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(scroll, 1);
    layout->addLayout(buttons);

    connect(backButton_, &QPushButton::clicked, this, &LessonPane::back);
    connect(nextButton_, &QPushButton::clicked, this, &LessonPane::next);
    connect(revealButton_, &QPushButton::clicked, this, &LessonPane::reveal);
    connect(choices_, &QButtonGroup::idClicked, this, [this] { revealButton_->setEnabled(true); });
    retranslateUi();
    fill();
}

void LessonPane::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    // Side by side where each half has room for about 40 characters of its text.
    const int sideBySide = 80 * fontMetrics().averageCharWidth();
    parts_->setDirection(width() >= sideBySide ? QBoxLayout::LeftToRight : QBoxLayout::TopToBottom);
}

void LessonPane::setLesson(const chargpt::Lesson& lesson) {
    lesson_ = lesson;
    step_ = 0;
    fill();
    if (hasLesson()) emit stepShown(step_);
}

void LessonPane::setLanguage(const QString& language) {
    if (language == language_) return;
    language_ = language;
    // The texts again, without leaving the step or dropping the prediction; an
    // answer shown is asked for again, to come back in the new language.
    const bool answered = !answer_->text().isEmpty();
    const int chosen = choices_->checkedId();
    fill();
    if (chosen >= 0) choose(chosen);
    if (answered) reveal();
}

void LessonPane::setControlLabels(std::function<QString(const QString&)> labelOf) {
    controlLabel_ = std::move(labelOf);
    refreshTexts();
}

void LessonPane::refreshTexts() {
    if (!hasLesson()) return;
    const std::string language = language_.toStdString();
    const auto& step = lesson_.steps[size_t(step_)];
    text_->setText(withControlLabels(QString::fromStdString(step.text.in(language))));
    if (step.question)
        questionText_->setText(withControlLabels(QString::fromStdString(step.question->text.in(language))));
}

QString LessonPane::withControlLabels(QString text) const {
    if (!controlLabel_) return text;
    static const QRegularExpression placeholder(QStringLiteral("\\{([A-Za-z][A-Za-z0-9_]*)\\}"));
    QString out;
    qsizetype from = 0;
    for (auto it = placeholder.globalMatch(text); it.hasNext();) {
        const QRegularExpressionMatch match = it.next();
        const QString label = controlLabel_(match.captured(1));
        out += text.mid(from, match.capturedStart() - from) + (label.isEmpty() ? match.captured(0) : label);
        from = match.capturedEnd();
    }
    return out + text.mid(from);
}

void LessonPane::showStep(int index) {
    if (!hasLesson()) return;
    step_ = std::clamp(index, 0, stepCount() - 1);
    fill();
    emit stepShown(step_);
}

void LessonPane::next() {
    if (step_ + 1 < stepCount()) showStep(step_ + 1);
}

void LessonPane::back() {
    if (step_ > 0) showStep(step_ - 1);
}

QString LessonPane::stepText() const { return text_->text(); }
QString LessonPane::answerText() const { return answer_->text(); }

void LessonPane::choose(int index) {
    if (auto* button = choices_->button(index)) {
        button->setChecked(true);
        revealButton_->setEnabled(true);
    }
}

void LessonPane::reveal() {
    if (!hasLesson() || !lesson_.steps[size_t(step_)].question || choices_->checkedId() < 0) return;
    emit answerRequested(lesson_.steps[size_t(step_)].question->answer);
}

void LessonPane::showAnswer(const LessonAnswer& answer) {
    if (!hasLesson() || !lesson_.steps[size_t(step_)].question) return;
    if (!answer.available) {
        answer_->setText(answer.text);
        scrollToAnswer();
        return;
    }
    const auto& question = *lesson_.steps[size_t(step_)].question;
    const int chosen = choices_->checkedId();
    QString verdict;
    if (chosen >= 0 && size_t(chosen) < question.choices.size()) {
        const bool right = QString::fromStdString(question.choices[size_t(chosen)].key) == answer.key;
        verdict = right ? tr("Your prediction was right.") : tr("Not what you predicted.");
    }
    for (size_t i = 0; i < question.choices.size(); ++i) {
        if (QString::fromStdString(question.choices[i].key) == answer.key) {
            const QString shown = QString::fromStdString(question.choices[i].text.in(language_.toStdString()));
            verdict += (verdict.isEmpty() ? QString() : QStringLiteral(" ")) + tr("The answer: %1").arg(shown);
            break;
        }
    }
    answer_->setText(verdict + QStringLiteral("\n") + answer.text);
    scrollToAnswer();
}

void LessonPane::scrollToAnswer() {
    // A low pane (the dock under the views) scrolls: the answer, asked for
    // at the bottom of the question, is shown rather than left below the
    // fold. Its wrapped height is known once the layouts have run.
    QTimer::singleShot(0, this, [this] {
        QCoreApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
        if (!answer_->text().isEmpty()) scroll_->ensureWidgetVisible(answer_, 0, 0);
    });
}

bool LessonPane::eventFilter(QObject* watched, QEvent* event) {
    if (event->type() == QEvent::MouseButtonRelease) {
        const QVariant choice = watched->property("choice");
        if (choice.isValid()) choose(choice.toInt());
    }
    return QWidget::eventFilter(watched, event);
}

void LessonPane::updateFonts() {
    // The titles' type follows the pane's, which presentation mode enlarges.
    QFont titleFont = font();
    titleFont.setBold(true);
    lessonTitle_->setFont(titleFont);
    stepTitle_->setFont(scaledFont(titleFont, 1.15));
}

void LessonPane::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange) retranslateUi();
    if (event->type() == QEvent::FontChange) updateFonts();
    QWidget::changeEvent(event);
}

void LessonPane::retranslateUi() {
    backButton_->setText(tr("Back"));
    nextButton_->setText(tr("Next"));
    revealButton_->setText(tr("Check my prediction"));
    question_->setTitle(tr("Predict first"));
    if (hasLesson()) counter_->setText(tr("Step %1 of %2").arg(step_ + 1).arg(stepCount()));
    else counter_->clear();
}

void LessonPane::fill() {
    const std::string language = language_.toStdString();
    const auto text = [&](const chargpt::LessonText& t) { return QString::fromStdString(t.in(language)); };
    for (auto* button : choices_->buttons()) choices_->removeButton(button);
    while (QLayoutItem* item = choicesLayout_->takeAt(0)) {
        delete item->widget();
        delete item;
    }
    answer_->clear();
    revealButton_->setEnabled(false);
    if (!hasLesson()) {
        lessonTitle_->setText(tr("No lesson is open. Choose one in the Lessons menu."));
        stepTitle_->clear();
        text_->clear();
        question_->hide();
        backButton_->setEnabled(false);
        nextButton_->setEnabled(false);
        retranslateUi();
        return;
    }
    const auto& step = lesson_.steps[size_t(step_)];
    lessonTitle_->setText(text(lesson_.title));
    stepTitle_->setText(text(step.title));
    text_->setText(withControlLabels(text(step.text)));
    question_->setVisible(step.question.has_value());
    if (step.question) {
        questionText_->setText(withControlLabels(text(step.question->text)));
        for (size_t i = 0; i < step.question->choices.size(); ++i) {
            // The button without text and the choice in a label beside it that
            // wraps (a button's text would not, and would widen the pane); a
            // click on the label picks the choice too.
            auto* row = new QWidget(question_);
            auto* button = new QRadioButton(row);
            auto* label = plainLabel(row);
            label->setTextInteractionFlags(Qt::NoTextInteraction);
            label->setText(text(step.question->choices[i].text));
            label->setProperty("choice", int(i));
            label->installEventFilter(this);
            auto* rowLayout = new QHBoxLayout(row);
            rowLayout->setContentsMargins(0, 0, 0, 0);
            rowLayout->addWidget(button, 0, Qt::AlignTop);
            rowLayout->addWidget(label, 1);
            choices_->addButton(button, int(i));
            choicesLayout_->addWidget(row);
        }
    }
    backButton_->setEnabled(step_ > 0);
    nextButton_->setEnabled(step_ + 1 < stepCount());
    retranslateUi();
}
