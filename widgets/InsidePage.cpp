// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/InsidePage.h"

#include <QEvent>
#include <QLabel>
#include <QSlider>
#include <QTabWidget>
#include <QVBoxLayout>

#include "widgets/CharacterMapView.h"
#include "widgets/HeadRolesView.h"
#include "widgets/KnockoutView.h"
#include "widgets/LogitLensView.h"
#include "widgets/TimelineBar.h"

InsidePage::InsidePage(QWidget* parent) : QWidget(parent) {
    intro_ = new QLabel(this);
    intro_->setWordWrap(true);
    problem_ = new QLabel(this);
    problem_->setTextFormat(Qt::PlainText);  // messages name files and hold text read from them: never markup
    problem_->setWordWrap(true);
    problem_->setStyleSheet(QStringLiteral("color: #a33;"));
    problem_->setVisible(false);

    tabs_ = new QTabWidget(this);
    tabs_->setObjectName(QStringLiteral("insideTabs"));
    lens_ = new LogitLensView(tabs_);
    knockout_ = new KnockoutView(tabs_);
    roles_ = new HeadRolesView(tabs_);
    map_ = new CharacterMapView(tabs_);
    tabs_->addTab(lens_, QString());
    tabs_->addTab(roles_, QString());
    tabs_->addTab(knockout_, QString());
    tabs_->addTab(map_, QString());

    timeline_ = new TimelineBar(this);
    timeline_->slider()->setObjectName(QStringLiteral("insideTimeline"));

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(intro_);
    layout->addWidget(problem_);
    layout->addWidget(tabs_, 1);
    layout->addWidget(timeline_);

    connect(timeline_, &TimelineBar::frameChosen, this, &InsidePage::showFrame);
    connect(knockout_, &KnockoutView::knockoutRequested, this, [this] {
        knockout_->setBusy(true);
        emit knockoutRequested();
    });
    retranslateUi();
}

void InsidePage::addFrame(const InsideFrame& frame) {
    const bool toEnd = timeline_->atEnd();
    problem_->setText(frame.problem);
    problem_->setVisible(!frame.problem.isEmpty());
    if (!steps_.isEmpty() && frame.step <= steps_.constLast()) {
        // The same step again (a resumed run, a second look): it replaces the
        // newest frame; an earlier step means a new model.
        if (frame.step < steps_.constLast())
            clear();
        else {
            steps_.removeLast();
            lenses_.removeLast();
            if (!headRoles_.frames.isEmpty()) headRoles_.frames.removeLast();
            if (!characterMap_.frames.isEmpty()) characterMap_.frames.removeLast();
        }
    }
    if (headRoles_.layers != frame.layers || headRoles_.heads != frame.heads) {
        headRoles_.frames.clear();  // another shape: the lines would not match
        headRoles_.layers = frame.layers;
        headRoles_.heads = frame.heads;
    }
    steps_.append(frame.step);
    lenses_.append(frame.lens);
    HeadRolesFrame roles = frame.roles;
    roles.step = frame.step;
    headRoles_.frames.append(roles);
    headRoles_.previousTokenChance = frame.previousTokenChance;
    headRoles_.inductionChance = frame.inductionChance;
    CharacterMapFrame map = frame.map;
    map.step = frame.step;
    // Neighbours are kept for the newest frames only: with a vocabulary of
    // thousands of characters they would otherwise be most of the page's memory.
    if (characterMap_.frames.size() >= kFramesWithNeighbours)
        characterMap_.frames[characterMap_.frames.size() - kFramesWithNeighbours].neighbours.clear();
    characterMap_.frames.append(map);
    thin();

    roles_->setHeadRoles(headRoles_);
    map_->setMap(characterMap_);
    updateTimeline(toEnd);
    if (toEnd)
        showFrame(int(steps_.size()) - 1);
    else if (shown_ >= 0 && shown_ < steps_.size())
        showFrame(timeline_->slider()->value());
}

void InsidePage::thin() {
    if (steps_.size() <= kMaxFrames)
        return;
    // Every second frame of all but the newest goes: the timeline keeps its
    // whole span at half the density.
    QVector<qint64> steps;
    QVector<LogitLens> lenses;
    QVector<HeadRolesFrame> roles;
    QVector<CharacterMapFrame> maps;
    const int last = int(steps_.size()) - 1;
    for (int i = 0; i <= last; ++i) {
        if (i % 2 != 0 && i != last)
            continue;
        steps.append(steps_[i]);
        lenses.append(lenses_[i]);
        roles.append(headRoles_.frames[i]);
        maps.append(characterMap_.frames[i]);
    }
    steps_ = steps;
    lenses_ = lenses;
    headRoles_.frames = roles;
    characterMap_.frames = maps;
}

void InsidePage::updateTimeline(bool toEnd) { timeline_->setSteps(steps_, toEnd); }

void InsidePage::showFrame(int index) {
    if (index < 0 || index >= steps_.size())
        return;
    shown_ = index;
    const LogitLens& lens = lenses_[index];
    if (lens.isValid())
        lens_->setLens(lens);
    else
        lens_->showProblem(tr("No logit lens at this step: the probe needs two characters the model knows."));
    roles_->setCurrentStep(steps_[index]);
    map_->setCurrentStep(steps_[index]);
}

void InsidePage::clear() {
    steps_.clear();
    lenses_.clear();
    headRoles_ = HeadRoles();
    characterMap_ = CharacterMap();
    shown_ = -1;
    lens_->setLens(LogitLens());
    roles_->setHeadRoles(headRoles_);
    map_->setMap(characterMap_);
    knockout_->setKnockout(Knockout());
    knockout_->setBusy(false);
    problem_->clear();
    problem_->setVisible(false);
    updateTimeline(true);
}

void InsidePage::showProblem(const QString& message) {
    problem_->setText(message);
    problem_->setVisible(!message.isEmpty());
}

void InsidePage::setKnockout(const Knockout& knockout) {
    knockout_->setBusy(false);
    knockout_->setKnockout(knockout);
}

void InsidePage::setKnockoutProgress(int done, int total) { knockout_->setProgress(done, total); }

void InsidePage::showKnockoutProblem(const QString& message) {
    knockout_->setBusy(false);
    knockout_->showProblem(message);
}

void InsidePage::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    QWidget::changeEvent(event);
}

void InsidePage::retranslateUi() {
    intro_->setText(tr("Inside the model as it trains: what each block would predict, what each head has "
                       "learned to do, what each part is worth, and where the characters sit. Move the "
                       "timeline to see any snapshot of the run."));
    tabs_->setTabText(tabs_->indexOf(lens_), tr("Logit lens"));
    tabs_->setTabText(tabs_->indexOf(roles_), tr("Head roles"));
    tabs_->setTabText(tabs_->indexOf(knockout_), tr("Knock-out"));
    tabs_->setTabText(tabs_->indexOf(map_), tr("Characters' map"));
}
