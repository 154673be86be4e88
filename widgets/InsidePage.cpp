// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/InsidePage.h"

#include <QEvent>
#include <QLabel>
#include <QTabWidget>
#include <QVBoxLayout>

#include <algorithm>

#include "widgets/CharacterMapView.h"
#include "widgets/FeedForwardView.h"
#include "widgets/HeadRolesView.h"
#include "widgets/KnockoutView.h"
#include "widgets/LogitLensView.h"
#include "widgets/ResidualStreamView.h"

InsidePage::InsidePage(QWidget* parent) : QWidget(parent) {
    intro_ = new QLabel(this);
    intro_->setWordWrap(true);
    stepLabel_ = new QLabel(this);
    stepLabel_->setObjectName(QStringLiteral("insideStep"));
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
    feedForward_ = new FeedForwardView(tabs_);
    residual_ = new ResidualStreamView(tabs_);
    tabs_->addTab(lens_, QString());
    tabs_->addTab(roles_, QString());
    tabs_->addTab(knockout_, QString());
    tabs_->addTab(feedForward_, QString());
    tabs_->addTab(residual_, QString());
    tabs_->addTab(map_, QString());

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(intro_);
    layout->addWidget(stepLabel_);
    layout->addWidget(problem_);
    layout->addWidget(tabs_, 1);

    // One measurement for both views that ask for it.
    auto requestKnockout = [this] {
        knockout_->setBusy(true);
        residual_->setBusy(true);
        emit knockoutRequested();
    };
    connect(knockout_, &KnockoutView::knockoutRequested, this, requestKnockout);
    connect(residual_, &ResidualStreamView::knockoutRequested, this, requestKnockout);
    retranslateUi();
}

void InsidePage::setComparedStep(std::optional<qint64> step) { roles_->setComparedStep(step); }

void InsidePage::showFrame(const InsideFrame& frame) {
    shownStep_ = frame.step;
    shownGaps_ = frame.gaps;
    shownProblem_ = frame.problem;
    showProblemLine();
    if (frame.lens.isValid())
        lens_->setLens(frame.lens);
    else
        lens_->showProblem(tr("No logit lens at this step: the probe needs two characters the model knows."));
    addRoles(frame);
    roles_->setHeadRoles(headRoles_);
    roles_->setCurrentStep(frame.step);
    CharacterMap map;
    CharacterMapFrame shown = frame.map;
    shown.step = frame.step;
    map.frames.append(shown);
    map_->setMap(map);
    map_->setCurrentStep(frame.step);
    if (frame.feedForward.isValid())
        feedForward_->setProbe(frame.feedForward);
    else
        feedForward_->showProblem(tr("No feed-forward at this step: the probe has no character the model knows."));
    if (frame.residual.isValid())
        residual_->setStream(frame.residual);
    else
        residual_->showProblem(tr("No residual stream at this step: the probe has no character the model knows."));
    updateStepLabel();
}

void InsidePage::addRoles(const InsideFrame& frame) {
    if (headRoles_.layers != frame.layers || headRoles_.heads != frame.heads) {
        headRoles_.frames.clear();  // another shape: the lines would not match
        headRoles_.layers = frame.layers;
        headRoles_.heads = frame.heads;
    }
    headRoles_.previousTokenChance = frame.previousTokenChance;
    headRoles_.inductionChance = frame.inductionChance;
    HeadRolesFrame roles = frame.roles;
    roles.step = frame.step;
    QVector<HeadRolesFrame>& frames = headRoles_.frames;
    const auto at = std::lower_bound(frames.begin(), frames.end(), frame.step,
                                     [](const HeadRolesFrame& f, qint64 step) { return f.step < step; });
    if (at != frames.end() && at->step == frame.step)
        *at = roles;
    else
        frames.insert(at, roles);
    if (frames.size() <= kMaxRoleSteps)
        return;
    // Every second step goes, but the first, the newest and the one shown: the
    // lines keep their whole span at half the density.
    QVector<HeadRolesFrame> kept;
    const qsizetype last = frames.size() - 1;
    for (qsizetype i = 0; i <= last; ++i)
        if (i % 2 == 0 || i == last || frames[i].step == frame.step)
            kept.append(frames[i]);
    frames = kept;
}

void InsidePage::updateStepLabel() {
    stepLabel_->setText(
        shownStep_ ? tr("The model at step %1, as the timeline below the tabs chose it.").arg(*shownStep_)
                   : tr("No model yet: train one, open a checkpoint or open a run in the Runs tab."));
}

void InsidePage::clear() {
    headRoles_ = HeadRoles();
    shownStep_.reset();
    lens_->setLens(LogitLens());
    roles_->setHeadRoles(headRoles_);
    map_->setMap(CharacterMap());
    knockout_->setKnockout(Knockout());
    knockout_->setBusy(false);
    feedForward_->setProbe(FeedForwardProbeData());
    residual_->setStream(ResidualStreamData());
    residual_->setKnockout(Knockout());
    shownGaps_.clear();
    shownProblem_.clear();
    showProblemLine();
    updateStepLabel();
}

void InsidePage::showProblem(const QString& message) {
    shownGaps_.clear();
    shownProblem_ = message;
    showProblemLine();
}

void InsidePage::showProblemLine() {
    QStringList lines;
    for (InsideGap gap : shownGaps_) lines << insideGapText(gap);
    if (!shownProblem_.isEmpty()) lines << shownProblem_;
    problem_->setText(lines.join(QLatin1Char(' ')));
    problem_->setVisible(!lines.isEmpty());
}

void InsidePage::setKnockout(const Knockout& knockout) {
    knockout_->setBusy(false);
    knockout_->setKnockout(knockout);
    residual_->setKnockout(knockout);
}

void InsidePage::setKnockoutProgress(int done, int total) { knockout_->setProgress(done, total); }

void InsidePage::showKnockoutProblem(const QString& message) {
    knockout_->setBusy(false);
    knockout_->showProblem(message);
    residual_->showKnockoutProblem(message);
}

void InsidePage::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    QWidget::changeEvent(event);
}

void InsidePage::retranslateUi() {
    intro_->setText(tr("Inside the model as it trains: what each block would predict, what each head has "
                       "learned to do, what each part is worth, which feed-forward neurons fire, what each "
                       "part writes into the residual stream, and where the characters sit. Move the "
                       "timeline below the tabs to see the model at any step the run keeps."));
    tabs_->setTabText(tabs_->indexOf(lens_), tr("Logit lens"));
    tabs_->setTabText(tabs_->indexOf(roles_), tr("Head roles"));
    tabs_->setTabText(tabs_->indexOf(knockout_), tr("Knock-out"));
    tabs_->setTabText(tabs_->indexOf(feedForward_), tr("Feed-forward"));
    tabs_->setTabText(tabs_->indexOf(residual_), tr("Residual stream"));
    showProblemLine();
    tabs_->setTabText(tabs_->indexOf(map_), tr("Characters' map"));
    updateStepLabel();
}
