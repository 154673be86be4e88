// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/lesson/LessonTables.h"

#include <algorithm>

#include "model/train/RunFields.h"

namespace chargpt {

const std::vector<LessonViewEntry>& lessonViews() {
    static const std::vector<LessonViewEntry> table = {
        {LessonView::Training, "training"},
        {LessonView::Attention, "attention"},
        {LessonView::Surprise, "surprise"},
        {LessonView::SoftmaxMask, "softmax/mask"},
        {LessonView::SoftmaxVariance, "softmax/variance"},
        {LessonView::SoftmaxLive, "softmax/live"},
        {LessonView::InsideLens, "inside/lens"},
        {LessonView::InsideRoles, "inside/roles"},
        {LessonView::InsideKnockout, "inside/knockout"},
        {LessonView::InsideFeedForward, "inside/feedforward"},
        {LessonView::InsideResidual, "inside/residual"},
        {LessonView::InsideMap, "inside/map"},
        {LessonView::Generate, "generate"},
        {LessonView::Filmstrip, "filmstrip"},
        {LessonView::Runs, "runs"},
        {LessonView::Ladder, "ladder"},
        {LessonView::WhyPatching, "why/patching"},
    };
    return table;
}

const char* lessonViewName(LessonView view) {
    for (const auto& entry : lessonViews())
        if (entry.id == view) return entry.name;
    return "";
}

std::optional<LessonView> findLessonView(std::string_view name) {
    for (const auto& entry : lessonViews())
        if (name == entry.name) return entry.id;
    return std::nullopt;
}

const std::vector<LessonControlEntry>& lessonControls() {
    static const std::vector<LessonControlEntry> table = [] {
        using V = LessonView;
        std::vector<LessonControlEntry> t = {
            {"lossUnit", V::Training},
            {"logScale", V::Training},
            {"smoothingSlider", V::Training},
            {"findLearningRateButton", V::Training},
            {"probe", V::Attention},
            {"layer", V::Attention},
            {"surpriseText", V::Surprise},
            {"softmaxMaskCheck", V::SoftmaxMask},
            {"softmaxMultiplier", V::SoftmaxVariance},
            {"softmaxHeadSize", V::SoftmaxVariance},
            {"scoreLayer", V::SoftmaxLive},
            {"scoreHead", V::SoftmaxLive},
            {"knockoutButton", V::InsideKnockout},
            {"feedForwardLayer", V::InsideFeedForward},
            {"residualKnockout", V::InsideResidual},
            {"neighboursCharacter", V::InsideMap},
            {"prompt", V::Generate},
            {"samples", V::Generate},
            {"filmstripPrompt", V::Filmstrip},
            {"filmstripSample", V::Filmstrip},
            {"runsTable", V::Runs},
            {"runsFilter", V::Runs},
            {"runsOpen", V::Runs},
            {"runsContinue", V::Runs},
            {"ladderStart", V::Ladder},
            {"cleanPrompt", V::WhyPatching},
            {"corruptedPrompt", V::WhyPatching},
            {"targetCharacter", V::WhyPatching},
            {"runPatching", V::WhyPatching},
            // The side panel's, beside every view.
            {"startButton", std::nullopt},
            {"pauseButton", std::nullopt},
            {"stopButton", std::nullopt},
            {"resetButton", std::nullopt},
            {"restoreBestButton", std::nullopt},
            {"preset", std::nullopt},
        };
        for (const RunField& field : runFields())
            if (field.shown()) t.push_back({field.key, std::nullopt});
        // The timeline's, below every view.
        t.push_back({"timelineSlider", std::nullopt});
        t.push_back({"timelinePlay", std::nullopt});
        return t;
    }();
    return table;
}

const LessonControlEntry& lessonControlEntry(LessonControl control) {
    return lessonControls().at(control.index);
}

std::optional<LessonControl> findLessonControl(std::string_view name) {
    const auto& table = lessonControls();
    for (std::size_t i = 0; i < table.size(); ++i)
        if (table[i].name == name) return LessonControl{i};
    return std::nullopt;
}

bool lessonControlOnView(LessonControl control, std::optional<LessonView> view) {
    const auto& home = lessonControlEntry(control).view;
    return !home || home == view;
}

const std::vector<LessonAnswerEntry>& lessonAnswers() {
    using A = LessonAnswerId;
    static const std::vector<LessonAnswerEntry> table = {
        // softmax(1000 x) of the softmax lab's scores: nearly all on the largest?
        {A::SoftmaxTimes1000, "softmax-times-1000", {"spread", "one-hot", "uniform"}},
        // The largest weight any character of the probe gives to one after it.
        {A::AttentionToFuture, "attention-to-future", {"none", "some"}},
        // Whether a head of the model puts most of its attention on the previous character.
        {A::PreviousCharacterHead, "previous-character-head", {"yes", "no"}},
        // How the spread of q.k grows with the head size when it is not scaled.
        {A::UnscaledSpread, "unscaled-spread", {"grows", "stays"}},
        // How much the validation loss rises with a layer's feed-forward knocked out (the most of any layer).
        {A::FeedForwardKnockout, "feed-forward-knockout", {"little", "some", "much"}},
        // Where the model's lowest validation loss stands against the uniform guess and the unigram entropy.
        {A::LossAgainstFloors, "loss-against-floors", {"above-uniform", "between", "below-unigram"}},
        // Which part adds most to the logit of the character the why window explains.
        {A::TopPart, "top-part", {"last-layer-head", "earlier-head", "not-a-head"}},
        // The first layer after which the patching lab's stream at the last position restores half or more.
        {A::PatchingLayer, "patching-layer", {"first-layer", "later-layer"}},
    };
    return table;
}

const LessonAnswerEntry& lessonAnswer(LessonAnswerId id) {
    const auto& table = lessonAnswers();
    const auto it =
        std::find_if(table.begin(), table.end(), [id](const LessonAnswerEntry& e) { return e.id == id; });
    return it != table.end() ? *it : table.front();
}

const LessonAnswerEntry* findLessonAnswer(std::string_view name) {
    for (const auto& entry : lessonAnswers())
        if (name == entry.name) return &entry;
    return nullptr;
}

}  // namespace chargpt
