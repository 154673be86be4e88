// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Owns the inspector (InspectWorker on a thread of its own) and feeds the
// views that run a frozen model: the Attention tab, the softmax lab's
// live scores and the Generate tab (docs/ARCHITECTURE.md). The views ask for
// results as fast as they like; each kind of result goes through one
// LatestRequest, so the inspector never works through a backlog and a stale
// answer is never shown.

#include <QObject>
#include <QString>
#include <QStringList>
#include <QThread>
#include <QTimer>

#include <optional>

#include "app/InspectionPace.h"
#include "app/LatestRequest.h"
#include "app/StudioTypes.h"
#include "widgets/AttentionData.h"
#include "widgets/AttributionData.h"
#include "widgets/InsideData.h"
#include "widgets/PatchingData.h"
#include "widgets/SurpriseData.h"

class AttentionPage;
class AttributionHistoryView;
class AttributionView;
class GenerationView;
class InsidePage;
class InspectWorker;
class LiveScoresView;
class PatchingLab;
class SurpriseView;
class Timeline;
namespace lesson_answers {
struct Inputs;
}

class InspectionController : public QObject {
    Q_OBJECT

public:
    // The views stay the caller's; they must outlive this controller.
    InspectionController(AttentionPage* attention, LiveScoresView* scores, GenerationView* generation,
                         QObject* parent = nullptr);
    ~InspectionController() override;

    // Whether the inspector has a model to run, and its step (none: no model).
    bool hasFrozenModel() const { return frozenStep_.has_value(); }
    std::optional<qint64> frozenStep() const { return frozenStep_; }
    QThread* inspectorThread() { return &thread_; }
    // The inspector, on its own thread: the source of what this controller
    // does not change (each character a generation streams, already in the
    // Generate tab), to be connected to directly (queued). Call none of its
    // methods: they are this controller's to call.
    const InspectWorker* inspector() const { return inspector_; }

    // Stops a generation and ends the inspector's thread (the destructor does
    // it when not done before).
    void shutdown();

    // Takes the probe from the corpus preview (whole lines up to about 30
    // characters) unless the user wrote their own.
    void setCorpusPreview(const QString& preview);

    // Feeds the Surprise tab: its texts are scored on each new frozen model and
    // after each edit, while it is shown (the view must outlive this controller).
    void attachSurprise(SurpriseView* view);
    // Feeds the Inside page: a frame of every frozen model the views follow, the
    // timeline's step (the lens of the probe, the heads' scores on the text of
    // setInsideText, the characters' map), and the knock-out table of that
    // step when the page asks (the page must outlive this controller).
    void attachInside(InsidePage* page);
    // Feeds the attribution view: a click on a character of the Surprise tab
    // or on a generated one in the Generate tab asks the inspector why the
    // frozen model wrote it (both views must outlive
    // this controller; InspectionAttribution.cpp).
    void attachAttribution(SurpriseView* surprise, AttributionView* view);
    // And, while the timeline shows a run with kept steps, the same click's
    // attribution at each of them in `view` (it must outlive this controller).
    void attachAttributionHistory(AttributionHistoryView* view);
    // Feeds the patching lab: its Run sweeps the prompts on the inspector,
    // its Stop ends them, its presets come from the text of setInsideText
    // (the lab must outlive this controller; InspectionPatching.cpp).
    void attachPatching(PatchingLab* lab);
    // The text the heads' previous-token scores are measured on (the loaded
    // corpus's validation sample); the probe when empty.
    void setInsideText(const QString& text);

    // Makes the views follow the window's timeline (it must outlive this
    // controller): at the live model's newest step they show the frozen models
    // setFrozenModel brings; at a step the run library keeps, the inspector reads
    // those weights and the views recompute on them (the Attention tab, the
    // live scores, the Surprise tab, the Inside page and Generate).
    void attachTimeline(Timeline* timeline);
    // A new model, or another run on the timeline: the views forget what they
    // showed (the Surprise tab's means and the head roles' lines are the
    // history of one run) and show the next frozen; weights the timeline
    // chose are computed again at once.
    void clearViews();
    // Whether the views show weights the timeline read from the run library.
    bool isReplaying() const { return replaying_; }

    // Whether the views follow the frozen models of a model that trains (they do
    // unless told otherwise): `chargpt-studio --measure-stall S --views-off`
    // trains without them, to measure what they cost the trainer.
    void setFollowingTraining(bool follow) { followingTraining_ = follow; }

    // What the views were last given that a lesson's answers read: the
    // attention and its step, the knock-out table, the why window's
    // attribution and the patching lab's result (InspectionLessons.cpp). The
    // pointers are into this controller, good until its next result.
    lesson_answers::Inputs lessonInputs() const;

public slots:
    // The model the next requests run, with its settings (an empty frozen model:
    // the views forget the model). The views follow it at once, or, while the
    // model trains (setTraining), at the InspectionPace.
    void setFrozenModel(const FrozenModel& frozen);
    // Whether the model trains now (not paused, not ended). When a run starts
    // or resumes, its first frozen model is shown at once; when it pauses or ends,
    // the frozen model waiting for its turn is shown at once.
    void setTraining(bool training);
    void requestAttention();
    void requestScores();
    void requestSurprise();
    void requestInside();

signals:
    void frozenModelArrived(qint64 step);
    void attentionShown(qint64 step);
    void scoresShown(qint64 step);
    void surpriseShown(qint64 step);
    void insideShown(qint64 step);
    void knockoutShown();  // its step is the table's (Knockout::step)
    // The attribution view shows an answer (or why there is none).
    void attributionShown();
    // The time machine's tab of the why window shows an answer (or why there is none).
    void attributionHistoryShown();
    // The patching lab shows a result (or why there is none).
    void patchingShown();
    void generationEnded(GenerationEnd reason);
    // The character of one step (empty when none came).
    void stepShown(const QString& character);
    // The weights the timeline chose cannot be shown (missing, damaged, of
    // another architecture): a sentence saying so; the views stay as they were.
    void replayFailed(const QString& text);

private:
    // The one way a view hears of its requests' answers: a failure (`failed`,
    // a signal of the inspector's with the message and the request) is shown
    // by `show` when it answers the view's latest request; an answer is wanted
    // when it does, and a model is still shown to answer for.
    template <typename Request, typename Failed, typename Show>
    void showFailures(Failed failed, LatestRequest<Request>& latest, Show show) {
        connect(inspector_, failed, this, [&latest, show](const QString& message, quint64 request) {
            if (latest.answered(request)) show(message);
        });
    }
    template <typename Request>
    bool wanted(LatestRequest<Request>& latest, quint64 request) {
        return latest.answered(request) && hasFrozenModel();
    }

    struct ScoresRequest {
        QString text;
        int layer = 0, head = 0;
    };
    void generate(const GenerationOptions& options);
    void step(const GenerationOptions& options, bool restart);
    void onStepped(const GenerationStep& step);
    void showPromptNote(const QString& prompt);
    // Clears the views and drops the answers on their way to them.
    void forgetShown();
    // Brings the views up to date with the frozen model when the pace allows, or
    // sets roundTimer_ to try again.
    void followFrozenModel();
    // Hands `frozen` to the inspector and the views: the live model's
    // (setFrozenModel) or weights read from the run library (`replayed`).
    void showFrozenModel(const FrozenModel& frozen, bool replayed);
    // The timeline chose a step: the live frozen, or kept weights to read.
    void followTimeline();

    AttentionPage* attentionPage_;
    // The results last shown, kept for lessonInputs().
    struct Shown {
        ModelAttention attention;
        qint64 attentionStep = -1;
        Knockout knockout;
        CharacterAttribution attribution;
        PatchingResult patching;
    };
    Shown shown_;
    // The model's results are gone (another model, or none): the attention and the knock-out table.
    void forgetShownModel();
    LiveScoresView* liveScores_;
    GenerationView* generationView_;
    QThread thread_;
    InspectionPace pace_;
    bool roundDue_ = false;    // a frozen model came that the views do not follow yet
    bool training_ = false;    // setTraining
    bool followingTraining_ = true;
    QTimer roundTimer_;
    static constexpr int kRoundPollMs = 20;
    InspectWorker* inspector_ = nullptr;  // lives on thread_
    struct AttentionRequest {
        QString text;
        std::optional<KeptStep> against;  // the timeline's step A
    };
    LatestRequest<AttentionRequest> attention_;
    LatestRequest<ScoresRequest> scores_;
    SurpriseView* surpriseView_ = nullptr;
    void sendSurprise(const SurpriseRequest& what, quint64 sequence);
    LatestRequest<SurpriseRequest> surprise_{
        [this](const SurpriseRequest& what, quint64 sequence) { sendSurprise(what, sequence); }};
    bool surpriseDue_ = false;  // the texts or the model changed since the last request
    struct InsideRequest {
        QString probe, text;
        std::optional<KeptStep> against;  // the timeline's step A
    };
    InsidePage* insidePage_ = nullptr;
    void sendInside(const InsideRequest& request, quint64 sequence);
    LatestRequest<InsideRequest> inside_{
        [this](const InsideRequest& request, quint64 sequence) { sendInside(request, sequence); }};
    struct AttributionRequest {
        QStringList characters;
        int index = 0;
    };
    AttributionView* attributionView_ = nullptr;
    struct HistoryRequest {
        QStringList characters;
        int index = 0;
        qint64 run = 0;  // the run on the timeline, whose kept steps are `steps`
        QVector<qint64> steps;
    };
    AttributionHistoryView* historyView_ = nullptr;
    // The history view compares the timeline's marked step A and the step shown.
    void connectHistoryMarks();
    void sendHistory(const HistoryRequest& request, quint64 sequence);
    LatestRequest<HistoryRequest> history_{
        [this](const HistoryRequest& request, quint64 sequence) { sendHistory(request, sequence); }};
    void sendAttribution(const AttributionRequest& request, quint64 sequence);
    LatestRequest<AttributionRequest> attribution_{
        [this](const AttributionRequest& request, quint64 sequence) { sendAttribution(request, sequence); }};
    PatchingLab* patchingLab_ = nullptr;
    void sendPatching(const PatchingPrompts& prompts, quint64 sequence);
    LatestRequest<PatchingPrompts> patching_{
        [this](const PatchingPrompts& prompts, quint64 sequence) { sendPatching(prompts, sequence); }};
    LatestRequest<bool> knockout_{[this](bool, quint64 sequence) { sendKnockout(sequence); }};
    void sendKnockout(quint64 sequence);
    QString insideText_;
    Timeline* timeline_ = nullptr;
    FrozenModel live_;          // the newest frozen model the training worker holds
    bool replaying_ = false;    // the views show weights read from the run library
    std::optional<qint64> pastRun_;  // the past run whose weights the views show; none: the live model's
    quint64 shownLiveSerial_ = 0;    // the serial of the live frozen model shown (0: none)
    struct KeptRequest {
        qint64 run = 0, step = 0;  // a run the library keeps, and a step of it
    };
    void sendKept(const KeptRequest& request, quint64 sequence);
    LatestRequest<KeptRequest> kept_{
        [this](const KeptRequest& request, quint64 sequence) { sendKept(request, sequence); }};
    std::optional<qint64> frozenStep_;  // of the model the inspector runs; none: it has none
    int contextLength_ = 0;
    QString promptNote_;    // about the prompt of the running generation, or empty
    QString defaultProbe_;  // the probe taken from the corpus, while unedited
};
