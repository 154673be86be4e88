// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/InspectionController.h"
#include "app/WorkerThread.h"

#include <QCoreApplication>
#include <QLocale>

#include <chrono>
#include <optional>

#include "widgets/AttentionData.h"
#include "widgets/AttentionPage.h"
#include "widgets/GenerationView.h"
#include "app/InspectWorker.h"
#include "widgets/LiveScoresView.h"
#include "widgets/InsidePage.h"
#include "widgets/SurpriseView.h"
#include "widgets/Timeline.h"
#include "model/runtime/Runtime.h"

// The messages about the views keep the translation context of the window,
// which showed them before this controller did.

InspectionController::InspectionController(AttentionPage* attention, LiveScoresView* scores,
                                           GenerationView* generation, QObject* parent)
    : QObject(parent),
      attentionPage_(attention),
      liveScores_(scores),
      generationView_(generation),
      attention_([this](const AttentionRequest& request, quint64 sequence) {
          QMetaObject::invokeMethod(
              inspector_,
              [inspector = inspector_, request, sequence] {
                  inspector->computeAttention(request.text, request.against, sequence);
              },
              Qt::QueuedConnection);
      }),
      scores_([this](const ScoresRequest& request, quint64 sequence) {
          QMetaObject::invokeMethod(
              inspector_,
              [inspector = inspector_, request, sequence] {
                  inspector->computeScores(request.text, request.layer, request.head, sequence);
              },
              Qt::QueuedConnection);
      }) {
    InspectWorker::registerTypes();
    inspector_ = new InspectWorker;

    connect(inspector_, &InspectWorker::attentionReady, this,
            [this](const AttentionProbe& probe, qint64 step, quint64 request, double milliseconds) {
                if (wanted(attention_, request)) {
                    attentionPage_->showAttention(probe, step, milliseconds);
                    shown_.attention = probe.attention;
                    shown_.attentionStep = step;
                    emit attentionShown(step);
                }
            });
    showFailures(&InspectWorker::attentionFailed, attention_, [this](const QString& message) {
        attentionPage_->showProblem(
            QCoreApplication::translate("MainWindow", "No attention to show: %1").arg(message));
    });
    connect(inspector_, &InspectWorker::scoresReady, this,
            [this](const HeadScores& scores, qint64 step, quint64 request) {
                if (wanted(scores_, request)) {
                    liveScores_->setScores(scores, step);
                    emit scoresShown(step);
                }
            });
    showFailures(&InspectWorker::scoresFailed, scores_, [this](const QString& message) {
        liveScores_->showProblem(
            QCoreApplication::translate("MainWindow", "No scores to show: %1").arg(message));
    });
    connect(inspector_, &InspectWorker::promptChecked, this,
            [this](const QVector<int>& positions, const QStringList& characters) {
                generationView_->setUnknownCharacters(positions);
                if (!characters.isEmpty())
                    generationView_->showMessage(
                        QCoreApplication::translate("MainWindow", "Not in the model's vocabulary, left out of the prompt: %1")
                            .arg(characters.join(QStringLiteral(" "))));
                else if (!promptNote_.isEmpty())
                    generationView_->showMessage(promptNote_);  // the highlighting cleared it
            });
    connect(inspector_, &InspectWorker::samplesGenerated, generationView_, &GenerationView::appendSamples);
    connect(inspector_, &InspectWorker::generationFinished, this,
            [this](GenerationEnd reason, const QString& message) {
                generationView_->setRunning(false);
                if (reason == GenerationEnd::Error)
                    generationView_->showMessage(QCoreApplication::translate("MainWindow", "Generation failed: %1").arg(message));
                emit generationEnded(reason);
            });
    connect(inspector_, &InspectWorker::stepped, this, &InspectionController::onStepped);
    connect(inspector_, &InspectWorker::copiesFound, generationView_, &GenerationView::showCopies);
    connect(inspector_, &InspectWorker::stepFailed, this, [this](const QString& message) {
        generationView_->showMessage(QCoreApplication::translate("MainWindow", "Generation failed: %1").arg(message));
        emit stepShown(QString());
    });

    connect(attentionPage_, &AttentionPage::probeChanged, this, [this] {
        requestAttention();
        requestScores();
        requestInside();  // the lens reads the same probe
    });
    connect(liveScores_, &LiveScoresView::scoresRequested, this, &InspectionController::requestScores);
    connect(generationView_, &GenerationView::generateRequested, this, &InspectionController::generate);
    connect(generationView_, &GenerationView::stopRequested, this, [this] { inspector_->stopGeneration(); });
    connect(generationView_, &GenerationView::stepRequested, this, &InspectionController::step);
    connect(generationView_, &GenerationView::attentionLayerChanged, this, [this](int layer) {
        QMetaObject::invokeMethod(inspector_, [inspector = inspector_, layer] { inspector->stepAttention(layer); },
                                  Qt::QueuedConnection);
    });

    roundTimer_.setSingleShot(true);
    connect(&roundTimer_, &QTimer::timeout, this, &InspectionController::followFrozenModel);

    startWorkerThread(thread_, inspector_, QStringLiteral("inspector"), WorkerKind::Compute);
}

InspectionController::~InspectionController() { shutdown(); }

void InspectionController::shutdown() {
    if (!thread_.isRunning())
        return;
    inspector_->stopGeneration();
    inspector_->stopKnockout();
    inspector_->stopPatching();
    endWorkerThread(thread_);
}

void InspectionController::setFrozenModel(const FrozenModel& frozen) {
    live_ = frozen;
    if (!timeline_) {
        showFrozenModel(frozen, /*replayed=*/false);
        return;
    }
    if (!timeline_->isLive())
        return;  // a past run is on the timeline: the views stay on it
    // Following the newest step, this shows the frozen model (followTimeline).
    timeline_->setLiveStep(frozen.isNull() ? std::nullopt : std::optional<qint64>(frozen.step));
    if ((frozen.isNull() || timeline_->atLiveStep()) && (replaying_ || shownLiveSerial_ != frozen.serial))
        showFrozenModel(frozen, /*replayed=*/false);
}

void InspectionController::showFrozenModel(const FrozenModel& frozen, bool replayed) {
    const chargpt::RunConfig& model = frozen.settings;
    if (replayed || replaying_) {
        // Answers about the weights shown before go to no view: a replayed
        // frame is not one of the live model's, and the other way round.
        attention_.drop();
        scores_.drop();
        surprise_.drop();
        inside_.drop();
    }
    replaying_ = replayed;
    shownLiveSerial_ = replayed ? 0 : frozen.serial;
    QMetaObject::invokeMethod(
        inspector_, [inspector = inspector_, frozen] { inspector->setFrozenModel(frozen); },
        Qt::QueuedConnection);
    frozenStep_ = frozen.isNull() ? std::nullopt : std::optional<qint64>(frozen.step);
    contextLength_ = int(model.sequence_len);
    surpriseDue_ = true;
    if (!hasFrozenModel()) {
        roundDue_ = false;
        roundTimer_.stop();
        attention_.drop();
        scores_.drop();
        surprise_.drop();
        if (surpriseView_) {
            surpriseView_->clear();
            surpriseView_->setModelShape(0, 0);
        }
        inside_.drop();
        knockout_.drop();
        if (insidePage_)
            insidePage_->clear();
        attentionPage_->clear();
        forgetShownModel();
        liveScores_->setModelShape(0, 0);
        return;
    }
    liveScores_->setModelShape(int(model.n_layer), int(model.n_head()));
    if (surpriseView_)
        surpriseView_->setModelShape(int(model.n_layer), int(model.n_head()));
    generationView_->setLayerCount(int(model.n_layer));
    emit frozenModelArrived(frozen.step);
    roundDue_ = !training_ || followingTraining_ || replayed;
    followFrozenModel();
}

void InspectionController::setTraining(bool training) {
    if (training == training_)
        return;
    training_ = training;
    if (training)
        pace_ = InspectionPace();  // the run's first frozen model goes at once
    else
        followFrozenModel();  // paused or ended: nothing to slow down
}

void InspectionController::followFrozenModel() {
    if (!roundDue_ || !hasFrozenModel()) return;
    const auto now = InspectionPace::Clock::now();
    const auto busy = inspector_->busyTime();
    if (training_ && !replaying_) {  // a step the user chose never waits
        if (attention_.inFlight() || scores_.inFlight() || surprise_.inFlight() || inside_.inFlight()) {
            roundTimer_.start(kRoundPollMs);  // the last round's work is not counted yet
            return;
        }
        const auto next = pace_.nextRound(busy);
        if (now < next) {
            roundTimer_.start(int(std::chrono::ceil<std::chrono::milliseconds>(next - now).count()));
            return;
        }
    }
    roundDue_ = false;
    roundTimer_.stop();
    pace_.roundStarted(now, busy);
    requestAttention();
    requestScores();
    requestSurprise();
    requestInside();
}

void InspectionController::requestAttention() {
    if (!hasFrozenModel() || attentionPage_->probeText().isEmpty()) return;
    AttentionRequest request{attentionPage_->probeText(), std::nullopt};
    if (timeline_ && timeline_->markedStep() && timeline_->run())
        request.against = KeptStep{*timeline_->run(), *timeline_->markedStep()};
    attention_.submit(request);
}

void InspectionController::requestScores() {
    if (hasFrozenModel() && !attentionPage_->probeText().isEmpty())
        scores_.submit({attentionPage_->probeText(), liveScores_->layer(), liveScores_->head()});
}

void InspectionController::generate(const GenerationOptions& options) {
    if (!hasFrozenModel()) {
        generationView_->setRunning(false);
        generationView_->showMessage(QCoreApplication::translate("MainWindow", "There is no model yet: train one or open a checkpoint."));
        emit generationEnded(GenerationEnd::Error);
        return;
    }
    showPromptNote(options.prompt);
    inspector_->prepareGeneration();
    QMetaObject::invokeMethod(inspector_, [inspector = inspector_, options] { inspector->generate(options); },
                              Qt::QueuedConnection);
}

void InspectionController::showPromptNote(const QString& prompt) {
    // Counted in code points, as the model counts characters (no copy made).
    qsizetype characters = 0;
    for (qsizetype i = 0; i < prompt.size(); ++i)
        if (!prompt.at(i).isLowSurrogate())
            ++characters;
    promptNote_.clear();
    if (contextLength_ > 0 && characters > contextLength_)
        promptNote_ = QCoreApplication::translate("MainWindow", "The prompt has %1 characters; the model reads only its last %2.")
                          .arg(QLocale().toString(characters))
                          .arg(contextLength_);
    generationView_->showMessage(promptNote_);
}

void InspectionController::step(const GenerationOptions& options, bool restart) {
    if (!hasFrozenModel()) {
        generationView_->showMessage(QCoreApplication::translate("MainWindow", "There is no model yet: train one or open a checkpoint."));
        emit stepShown(QString());
        return;
    }
    if (restart)
        showPromptNote(options.prompt);
    const int layer = generationView_->attentionLayer();
    QMetaObject::invokeMethod(
        inspector_, [inspector = inspector_, options, restart, layer] { inspector->step(options, restart, layer); },
        Qt::QueuedConnection);
}

void InspectionController::onStepped(const GenerationStep& step) {
    if (!step.attentionOnly) {
        if (step.character.isEmpty() && step.finished) {
            generationView_->showMessage(
                QCoreApplication::translate("MainWindow", "The generation is over (end of text or length reached): change the prompt or a "
                           "setting to start again."));
            emit stepShown(QString());
            return;
        }
        generationView_->appendSamples({1}, {step.character});
        generationView_->showCandidates(step.candidates, step.probabilities, step.picked);
        generationView_->showLens(step.lens);
    }
    if (step.layer == generationView_->attentionLayer())
        generationView_->showAttentionRows(step.attentionRows);
    if (!step.attentionOnly)
        emit stepShown(step.character);
}

void InspectionController::setCorpusPreview(const QString& preview) {
    // Whole lines up to about 30 characters (newlines included: some heads
    // learn to look at the start of the line), from the first line long enough
    // to show a pattern.
    const QString current = attentionPage_->probeText();
    if (!current.isEmpty() && current != defaultProbe_)
        return;
    QString chosen;
    for (const QString& line : preview.split(QLatin1Char('\n'))) {
        const QString trimmed = line.trimmed();
        const int length = int(splitCharacters(trimmed).size());
        if (chosen.isEmpty() && length < 12)
            continue;
        if (!chosen.isEmpty() && (length == 0 || splitCharacters(chosen).size() + 1 + length > 30))
            break;
        chosen += (chosen.isEmpty() ? QString() : QStringLiteral("\n"));
        chosen += splitCharacters(trimmed).mid(0, 48).join(QString());
    }
    if (chosen.isEmpty())
        chosen = splitCharacters(preview.simplified()).mid(0, 48).join(QString());
    defaultProbe_ = chosen;
    attentionPage_->setProbeText(chosen);
}

void InspectionController::attachSurprise(SurpriseView* view) {
    surpriseView_ = view;
    connect(inspector_, &InspectWorker::surpriseReady, this,
            [this](const QVector<SurpriseText>& texts, qint64 step, quint64 request) {
                if (wanted(surprise_, request)) {
                    surpriseView_->showResult(texts, step);
                    emit surpriseShown(step);
                }
            });
    showFailures(&InspectWorker::surpriseFailed, surprise_, [this](const QString& message) {
        surpriseView_->showProblem(
            QCoreApplication::translate("MainWindow", "No surprise to show: %1").arg(message));
    });
    connect(view, &SurpriseView::textsChanged, this, [this] {
        surpriseDue_ = true;
        requestSurprise();
    });
    connect(view, &SurpriseView::shown, this, [this] {
        if (surpriseDue_)
            requestSurprise();
    });
}

void InspectionController::sendSurprise(const SurpriseRequest& what, quint64 sequence) {
    QMetaObject::invokeMethod(
        inspector_, [inspector = inspector_, what, sequence] { inspector->computeSurprise(what, sequence); },
        Qt::QueuedConnection);
}

void InspectionController::requestSurprise() {
    // Only while the tab is shown: a hidden view asks when it shows again.
    if (!surpriseView_ || !hasFrozenModel() || !surpriseView_->isVisible()) return;
    surpriseDue_ = false;
    SurpriseRequest what{surpriseView_->texts(), surpriseView_->comparison(), std::nullopt};
    if (timeline_ && timeline_->markedStep() && timeline_->run())  // step A, marked on the timeline
        what.against = KeptStep{*timeline_->run(), *timeline_->markedStep()};
    surprise_.submit(what);
}

void InspectionController::attachInside(InsidePage* page) {
    insidePage_ = page;
    connect(inspector_, &InspectWorker::insideReady, this, [this](const InsideFrame& frame, quint64 request) {
        if (wanted(inside_, request)) {
            insidePage_->showFrame(frame);
            emit insideShown(frame.step);
        }
    });
    showFailures(&InspectWorker::insideFailed, inside_, [this](const QString& message) {
        insidePage_->showProblem(
            QCoreApplication::translate("MainWindow", "Nothing to show inside the model: %1").arg(message));
    });
    connect(inspector_, &InspectWorker::knockoutProgress, this, [this](int done, int total, quint64 request) {
        if (knockout_.inFlight() && request == knockout_.lastSequence())
            insidePage_->setKnockoutProgress(done, total);
    });
    connect(inspector_, &InspectWorker::knockoutReady, this,
            [this](const Knockout& knockout, quint64 request) {
                if (wanted(knockout_, request)) {
                    insidePage_->setKnockout(knockout);
                    shown_.knockout = knockout;
                    emit knockoutShown();
                }
            });
    showFailures(&InspectWorker::knockoutFailed, knockout_, [this](const QString& message) {
        insidePage_->showKnockoutProblem(
            QCoreApplication::translate("MainWindow", "No knock-out: %1").arg(message));
    });
    connect(page, &InsidePage::knockoutRequested, this, [this] {
        if (!hasFrozenModel()) {
            insidePage_->showKnockoutProblem(QCoreApplication::translate("MainWindow", "There is no model yet: train one or open a checkpoint."));
            return;
        }
        knockout_.submit(true);
    });
}

void InspectionController::sendInside(const InsideRequest& request, quint64 sequence) {
    QMetaObject::invokeMethod(
        inspector_,
        [inspector = inspector_, request, sequence] {
            inspector->computeInside(request.probe, request.text, request.against, sequence);
        },
        Qt::QueuedConnection);
}

void InspectionController::sendKnockout(quint64 sequence) {
    QMetaObject::invokeMethod(
        inspector_, [inspector = inspector_, sequence] { inspector->computeKnockout(sequence); }, Qt::QueuedConnection);
}

void InspectionController::requestInside() {
    // Every frozen, shown or not: the head roles' lines are a history of the run.
    if (!insidePage_ || !hasFrozenModel()) return;
    InsideRequest request{attentionPage_->probeText(), insideText_, std::nullopt};
    if (timeline_ && timeline_->markedStep() && timeline_->run())
        request.against = KeptStep{*timeline_->run(), *timeline_->markedStep()};
    inside_.submit(request);
}

void InspectionController::clearViews() {
    forgetShown();
    // Weights the timeline chose are of the run on screen: shown again at once.
    // The live model's next frozen model is on its way (a run's first, or the one
    // asked for when a model arrives).
    if (replaying_ && hasFrozenModel()) {
        roundDue_ = true;
        followFrozenModel();
    }
}

void InspectionController::forgetShown() {
    attention_.drop();
    surprise_.drop();
    inside_.drop();
    if (knockout_.inFlight())
        inspector_->stopKnockout();  // a table of the model before: no use measuring on
    knockout_.drop();
    attentionPage_->clear();
    forgetShownModel();
    if (surpriseView_)
        surpriseView_->clear();
    if (insidePage_)
        insidePage_->clear();
}

void InspectionController::attachTimeline(Timeline* timeline) {
    timeline_ = timeline;
    if (historyView_) connectHistoryMarks();  // InspectionAttribution.cpp
    connect(timeline_, &Timeline::stepChosen, this, &InspectionController::followTimeline);
    connect(timeline_, &Timeline::markChanged, this, [this] {
        surpriseDue_ = true;
        requestSurprise();
        requestInside();
        requestAttention();
    });
    connect(inspector_, &InspectWorker::keptLoaded, this, [this](const FrozenModel& frozen, quint64 request) {
        if (!kept_.answered(request) || timeline_->atLiveStep()) return;
        FrozenModel kept = frozen;
        if (!timeline_->isLive() && timeline_->run() != pastRun_) {
            forgetShown();  // another past run: nothing of the one before stays on screen
            pastRun_ = timeline_->run();
        }
        if (timeline_->isLive()) {
            pastRun_.reset();
            // The run that trains now: what the views know of its text holds.
            kept.copies = live_.copies;
            kept.evaluation = live_.evaluation;
        }
        showFrozenModel(kept, /*replayed=*/true);
    });
    showFailures(&InspectWorker::keptFailed, kept_, [this](const QString& message) {
        emit replayFailed(QCoreApplication::translate("MainWindow",
                                                      "These weights are skipped, the views stay as "
                                                      "they were: %1")
                              .arg(message));
    });
}

void InspectionController::followTimeline() {
    if (timeline_->atLiveStep() || (timeline_->isLive() && !timeline_->chosenIsKept())) {
        kept_.drop();
        if (timeline_->isLive() && (replaying_ || shownLiveSerial_ != live_.serial))
            showFrozenModel(live_, /*replayed=*/false);
        return;
    }
    if (timeline_->chosenIsKept())
        kept_.submit({*timeline_->run(), *timeline_->chosenStep()});  // kept: the run is known
}

void InspectionController::sendKept(const KeptRequest& request, quint64 sequence) {
    QMetaObject::invokeMethod(
        inspector_, [inspector = inspector_, request, sequence] { inspector->loadKept(request.run, request.step, sequence); },
        Qt::QueuedConnection);
}
