// SPDX-License-Identifier: GPL-3.0-or-later
// The window's part of the lessons: which views a lesson may name, where a
// question's answer finds its inputs, and the Lessons menu.
#include "app/MainWindow.h"

#include <QTabWidget>

#include <tuple>

#include "app/LessonController.h"
#include "app/SidePanel.h"
#include "widgets/AttentionPage.h"
#include "widgets/AttributionView.h"
#include "widgets/CharacterMapView.h"
#include "widgets/FeedForwardView.h"
#include "widgets/FilmstripPage.h"
#include "widgets/GenerationView.h"
#include "widgets/HeadRolesView.h"
#include "widgets/InsidePage.h"
#include "widgets/KnockoutView.h"
#include "widgets/LadderView.h"
#include "widgets/LiveScoresView.h"
#include "widgets/LogitLensView.h"
#include "widgets/LossPlot.h"
#include "widgets/PatchingLab.h"
#include "widgets/ResidualStreamView.h"
#include "widgets/RunsPage.h"
#include "widgets/SoftmaxLab.h"
#include "widgets/SurpriseView.h"
#include "widgets/Timeline.h"
#include "widgets/WhyWindow.h"

void MainWindow::createLessons(QMenu* menu) {
    using View = LessonController::View;
    QTabWidget* softmaxTabs = softmaxLab_->tabs();
    std::map<QString, View> views = {
        {QStringLiteral("training"), {trainingPage_, nullptr}},
        {QStringLiteral("attention"), {attentionPage_, nullptr}},
        {QStringLiteral("surprise"), {surpriseView_, nullptr}},
        {QStringLiteral("softmax/mask"), {softmaxLab_, softmaxTabs->widget(0)}},
        {QStringLiteral("softmax/variance"), {softmaxLab_, softmaxTabs->widget(1)}},
        {QStringLiteral("softmax/live"), {softmaxLab_, liveScores_}},
        {QStringLiteral("inside/lens"), {insidePage_, insidePage_->lensView()}},
        {QStringLiteral("inside/roles"), {insidePage_, insidePage_->headRolesView()}},
        {QStringLiteral("inside/knockout"), {insidePage_, insidePage_->knockoutView()}},
        {QStringLiteral("inside/feedforward"), {insidePage_, insidePage_->feedForwardView()}},
        {QStringLiteral("inside/residual"), {insidePage_, insidePage_->residualView()}},
        {QStringLiteral("inside/map"), {insidePage_, insidePage_->characterMapView()}},
        {QStringLiteral("generate"), {generationView_, nullptr}},
        {QStringLiteral("filmstrip"), {filmstripPage_, nullptr}},
        {QStringLiteral("runs"), {runsPage_, nullptr}},
        {QStringLiteral("ladder"), {ladderView_, nullptr}},
        {QStringLiteral("why/patching"), {whyWindow_->labPage(), nullptr}},
    };
    LessonController::Sources sources;
    sources.softmaxVector = [this] { return softmaxLab_->lessonVector(); };
    sources.attention = [this]() -> const ModelAttention* {
        const ModelAttention& shown = attentionPage_->shownAttention();
        return shown.layers.isEmpty() ? nullptr : &shown;
    };
    sources.knockout = [this] { return &insidePage_->knockoutView()->knockout(); };
    sources.attribution = [this] { return &attributionView_->attribution(); };
    sources.patching = [this] { return &whyWindow_->patchingLab()->result(); };
    sources.loss = [this] {
        lesson_answers::LossLevels levels;
        for (const auto& e : lossPlot_->curve().evaluations) levels.validation.emplace_back(e.step, e.valLoss);
        std::tie(levels.uniform, levels.unigram) = referenceLevels();
        return levels;
    };
    sources.shown = [this] {
        lesson_answers::Measured shown;
        shown.step = attentionPage_->shownStep();
        shown.run = timeline_->run();
        if (!timeline_->steps().isEmpty()) shown.newestStep = timeline_->steps().last();
        return shown;
    };
    lessons_ = new LessonController(this, std::move(views), std::move(sources));
    lessons_->setSidePanel(side_);
    lessons_->fillMenu(menu);
    connect(lessons_, &LessonController::problem, this, [this](const QString& text) { showMessage(text, Level::Error); });
}
