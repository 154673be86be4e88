// SPDX-License-Identifier: GPL-3.0-or-later
// The window's part of the lessons: which views a lesson may name, where a
// question's answer finds its inputs, and the Lessons menu.
#include "app/MainWindow.h"

#include <tuple>

#include "app/InspectionController.h"
#include "app/LessonController.h"
#include "app/SidePanel.h"
#include "app/TrainingController.h"
#include "widgets/AttentionPage.h"
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
#include "widgets/ResidualStreamView.h"
#include "widgets/RunsPage.h"
#include "widgets/SoftmaxLab.h"
#include "widgets/SurpriseView.h"
#include "widgets/Timeline.h"
#include "widgets/WhyWindow.h"

// The page of each view a lesson may name (model/lesson/LessonTables.h): a
// switch with a case for each and no default, so a view added to the table
// without its page does not compile.
#pragma GCC diagnostic push
#pragma GCC diagnostic error "-Wswitch"
void MainWindow::createLessons(QMenu* menu) {
    auto viewOf = [this](chargpt::LessonView view) -> LessonController::View {
        using V = chargpt::LessonView;
        switch (view) {
            case V::Training:
                return {trainingPage_, nullptr};
            case V::Attention:
                return {attentionPage_, nullptr};
            case V::Surprise:
                return {surpriseView_, nullptr};
            case V::SoftmaxMask:
                return {softmaxLab_, softmaxLab_->maskPage()};
            case V::SoftmaxVariance:
                return {softmaxLab_, softmaxLab_->variancePage()};
            case V::SoftmaxLive:
                return {softmaxLab_, liveScores_};
            case V::InsideLens:
                return {insidePage_, insidePage_->lensView()};
            case V::InsideRoles:
                return {insidePage_, insidePage_->headRolesView()};
            case V::InsideKnockout:
                return {insidePage_, insidePage_->knockoutView()};
            case V::InsideFeedForward:
                return {insidePage_, insidePage_->feedForwardView()};
            case V::InsideResidual:
                return {insidePage_, insidePage_->residualView()};
            case V::InsideMap:
                return {insidePage_, insidePage_->characterMapView()};
            case V::Generate:
                return {generationView_, nullptr};
            case V::Filmstrip:
                return {filmstripPage_, nullptr};
            case V::Runs:
                return {runsPage_, nullptr};
            case V::Ladder:
                return {ladderView_, nullptr};
            case V::WhyPatching:
                return {whyWindow_->labPage(), nullptr};
        }
        return {};
    };
    // The answers' inputs from the controllers that own them: the inspection's
    // results, the run's evaluations; the softmax lab's own vector; the
    // timeline's run and its newest step.
    auto inputs = [this] {
        lesson_answers::Inputs in = inspection_->lessonInputs();
        in.softmaxVector = softmaxLab_->lessonVector();
        for (const auto& e : training_->model().history.evaluations)
            in.loss.validation.emplace_back(e.step, e.valLoss);
        std::tie(in.loss.uniform, in.loss.unigram) = referenceLevels();
        in.run = timeline_->run();
        if (!timeline_->steps().isEmpty()) in.newestStep = timeline_->steps().last();
        return in;
    };
    lessons_ = new LessonController(this, viewOf, inputs);
    lessons_->setSidePanel(side_);
    lessons_->fillMenu(menu);
    connect(lessons_, &LessonController::problem, this, [this](const QString& text) { showMessage(text, Level::Error); });
}
#pragma GCC diagnostic pop
