// SPDX-License-Identifier: GPL-3.0-or-later
// LibTorch and model/ first, then Qt (see docs/ARCHITECTURE.md).
#include <torch/torch.h>

#include "model/nn/CharGPT.h"
#include "model/text/CharTokenizer.h"
#include "model/text/CopyIndex.h"
#include "model/io/Checkpoint.h"
#include "model/io/ConfigJson.h"
#include "model/record/KeptWeights.h"
#include "model/record/RunLibrary.h"
#include "model/runtime/Error.h"
#include "model/generate/Sampler.h"
#include "model/text/Utf8.h"

#include "app/ErrorMessage.h"
#include "app/InspectWorker.h"
#include "app/InsideBridge.h"
#include "app/StudioIdentity.h"
#include "app/SurpriseBridge.h"

#include <QElapsedTimer>
#include <QMetaObject>

#include <algorithm>
#include <atomic>
#include <optional>

namespace {

constexpr int kMaxHighlightedUnknown = 1000;
constexpr int kMaxNamedUnknown = 20;
// Step mode looks for copies after every character while the text is at most
// this long (a few milliseconds); a longer one at its end only.
constexpr std::size_t kMaxStepCopyCheckBytes = 20000;
// Step mode's logit lens shows the newest positions of the window.
constexpr int kStepLensPositions = 16;

}  // namespace

struct InspectWorker::Private {
    ModelSnapshot snapshot;  // what new requests run

    // Generation and step mode: the snapshot they started with, kept alive.
    ModelSnapshot samplerSnapshot;
    std::optional<chargpt::Sampler> sampler;
    quint64 generationRun = 0;
    std::atomic<bool> stopRequested{false};
    std::atomic<bool> knockoutStopRequested{false};
    std::atomic<qint64> busyNanoseconds{0};  // busyTime()
    CharacterMapAlignment mapAlignment;  // the Inside page's last map
    GenerationStep lastStep;
    bool hasLastStep = false;
    std::string generated;  // UTF-8, since the sampler started
    std::unique_ptr<chargpt::RunLibrary> library;  // loadKept's connection, opened at its first use

    // The weights run `run` keeps at `step`, checked against the run's own
    // settings; throws chargpt::Error saying why they cannot be shown.
    ModelSnapshot readKept(qint64 run, qint64 step) {
        if (!library)
            library = openRunLibraryToReadKept();
        auto checkpoint = std::make_shared<chargpt::Checkpoint>(chargpt::readKeptWeights(*library, run, step));
        checkpoint->model->eval();
        ModelSnapshot kept;
        kept.step = step;
        kept.settings = checkpoint->config;
        kept.checkpoint = std::move(checkpoint);
        return kept;
    }

    // The weights the Surprise tab compares with (the timeline's mark A),
    // read once and kept while the same step is asked for.
    std::shared_ptr<const chargpt::Checkpoint> compared;
    KeptStep comparedAt;
    const chargpt::Checkpoint& comparedWeights(const KeptStep& at) {
        if (!compared || comparedAt.run != at.run || comparedAt.step != at.step) {
            compared.reset();
            try {
                compared = readKept(at.run, at.step).checkpoint;
            } catch (const chargpt::Error& error) {
                throw chargpt::Error("cannot compare with step " + std::to_string(at.step) + ": " + error.what());
            }
            comparedAt = at;
        }
        return *compared;
    }

    const chargpt::Checkpoint& checkpoint() const {
        if (snapshot.isNull())
            throw chargpt::Error("there is no model yet: train one or open a checkpoint.");
        return *snapshot.checkpoint;
    }

    // Starts a sampler on the current snapshot; reports unknown prompt characters.
    void startSampler(InspectWorker* worker, const GenerationOptions& options) {
        const chargpt::Checkpoint& cp = checkpoint();
        chargpt::SamplingOptions sampling;
        sampling.temperature = options.temperature;
        sampling.topK = options.topK;
        sampling.topP = options.topP;
        sampling.seed = options.seed;
        sampling.maxNewChars = options.length;
        sampling.candidates = 10;
        // As the book's code: once the text outgrows the context, every character
        // is computed from exactly the last sequence_len ones, so the window shows
        // what Python shows for the same model.
        sampling.exactWindow = true;
        sampling.bf16 = cp.config.bf16;  // the precision the model trains in
        const std::u32string prompt = chargpt::utf8::decodeOrThrow(options.prompt.toStdString(), "the prompt");
        std::vector<chargpt::UnknownChar> unknown;
        const std::vector<int64_t> tokens = cp.tokenizer.encode(prompt, &unknown);
        // A pasted megabyte may hold a million unknown characters: the window
        // highlights the first ones and names each distinct character once,
        // so that neither the signal nor the highlighting grows with the paste.
        QVector<int> positions;
        QStringList characters;
        for (const chargpt::UnknownChar& u : unknown) {
            if (positions.size() < kMaxHighlightedUnknown)
                positions.append(static_cast<int>(u.position));
            const QString character = QString::fromStdString(chargpt::utf8::encode(u.codePoint));
            if (characters.size() < kMaxNamedUnknown && !characters.contains(character))
                characters.append(character);
        }
        emit worker->promptChecked(positions, characters);
        if (!prompt.empty() && tokens.empty())
            throw chargpt::Error("no character of the prompt is in the model's vocabulary.");
        sampler.reset();
        samplerSnapshot = snapshot;
        sampler.emplace(cp.model, cp.tokenizer, sampling);
        // Keep the last sequence_len characters, as the sampler crops anyway.
        sampler->start(tokens);
        hasLastStep = false;
        generated.clear();
    }

    // Each head's attention row of the newest character of the sampler's
    // context in `layer`: CharGPT::attentionMaps on the context, last row.
    QVector<AttentionMatrix> attentionRows(int layer) const {
        const chargpt::Checkpoint& cp = *samplerSnapshot.checkpoint;
        const std::vector<int64_t>& context = sampler->context();
        const int64_t S = cp.config.sequence_len;
        const int64_t n = static_cast<int64_t>(context.size());
        const int64_t from = std::max<int64_t>(0, n - S);
        const int64_t t = n - from;
        if (cp.config.n_layer == 0) return {};  // a bigram model (a rung of the ladder): no attention
        layer = std::clamp(layer, 0, static_cast<int>(cp.config.n_layer) - 1);
        std::vector<int64_t> window(context.begin() + from, context.end());
        const auto device = cp.model->token_emb->weight.device();
        const torch::Tensor idx = torch::tensor(window, torch::dtype(torch::kInt64)).view({1, t}).to(device);
        // (L, 1, heads, T, T) -> (heads, T) rows of the last query
        chargpt::CharGPT model = cp.model;  // a handle: the snapshot itself
        const torch::Tensor rows = model->attentionMaps(idx)
                                       .weights.select(0, layer)
                                       .select(0, 0)
                                       .select(/*dim=*/1, /*index=*/t - 1)
                                       .to(torch::kCPU, torch::kFloat32)
                                       .contiguous();
        QStringList keys;
        for (int64_t id : window)
            keys.append(QString::fromStdString(cp.tokenizer.tokenText(id)));
        QVector<AttentionMatrix> result;
        const float* data = rows.data_ptr<float>();
        for (int64_t h = 0; h < rows.size(0); ++h) {
            AttentionMatrix row;
            row.queryChars = QStringList{keys.constLast()};
            row.keyChars = keys;
            row.firstQueryPosition = static_cast<int>(t - 1);
            row.weights = QVector<float>(data + h * t, data + (h + 1) * t);
            result.append(row);
        }
        return result;
    }
};

namespace {

// Adds the time from its construction to its end to the views' busy time.
class BusyClock {
public:
    explicit BusyClock(std::atomic<qint64>& total) : total_(total) { timer_.start(); }
    ~BusyClock() { total_ += timer_.nsecsElapsed(); }
    BusyClock(const BusyClock&) = delete;
    BusyClock& operator=(const BusyClock&) = delete;

private:
    std::atomic<qint64>& total_;
    QElapsedTimer timer_;
};

}  // namespace

InspectWorker::InspectWorker(QObject* parent) : QObject(parent), d(std::make_unique<Private>()) {}

InspectWorker::~InspectWorker() = default;

void InspectWorker::registerTypes() {
    qRegisterMetaType<ModelSnapshot>();
    qRegisterMetaType<AttentionProbe>();
    qRegisterMetaType<HeadScores>();
    qRegisterMetaType<GenerationStep>();
    qRegisterMetaType<GenerationOptions>();
    qRegisterMetaType<GenerationEnd>();
    qRegisterMetaType<SurpriseText>();
    qRegisterMetaType<QVector<SurpriseText>>();
    qRegisterMetaType<CopiedSpans>();
    qRegisterMetaType<InsideFrame>();
    qRegisterMetaType<Knockout>();
}

void InspectWorker::reportCopies() {
    if (d->samplerSnapshot.isNull() || !d->samplerSnapshot.copies)
        return;
    chargpt::CopyCheck check;
    try {
        check = d->samplerSnapshot.copies->check(std::string_view(d->generated));
    } catch (const std::exception&) {
        return;  // not UTF-8 (never from the sampler): nothing to say
    }
    CopiedSpans copies;
    for (const chargpt::CopyCheck::Span& span : check.spans) {
        copies.starts.append(int(span.start));
        copies.lengths.append(int(span.length));
    }
    copies.share = check.share();
    copies.minimumLength = d->samplerSnapshot.copies->minLength();
    emit copiesFound(copies);
}

void InspectWorker::stopGeneration() { d->stopRequested = true; }

std::chrono::nanoseconds InspectWorker::busyTime() const { return std::chrono::nanoseconds(d->busyNanoseconds.load()); }

void InspectWorker::setSnapshot(const ModelSnapshot& snapshot) { d->snapshot = snapshot; }

void InspectWorker::loadKept(qint64 run, qint64 step, quint64 request) {
    try {
        emit keptLoaded(d->readKept(run, step), request);
    } catch (const std::exception& error) {
        emit keptFailed(QStringLiteral("run %1, step %2: %3").arg(run).arg(step).arg(messageOf(error)), request);
    }
}

void InspectWorker::computeAttention(const QString& text, const std::optional<KeptStep>& against,
                                     quint64 request) {
    const BusyClock busy(d->busyNanoseconds);
    try {
        QElapsedTimer timer;
        timer.start();
        AttentionProbe probe = ::computeAttention(d->checkpoint(), text);
        if (against) {
            // Step A's weights that cannot be read leave it uncompared (the
            // Surprise tab says why).
            try {
                const chargpt::Checkpoint& then = d->comparedWeights(*against);
                const AttentionProbe before = ::computeAttention(then, text);
                if (before.text == probe.text && before.attention.layers.size() == probe.attention.layers.size()) {
                    // One figure a head crosses to the window, not a second set of matrices.
                    for (qsizetype l = 0; l < probe.attention.layers.size(); ++l) {
                        QVector<double> layer;
                        const QVector<AttentionMatrix>& now = probe.attention.layers[l].heads;
                        const QVector<AttentionMatrix>& earlier = before.attention.layers[l].heads;
                        for (qsizetype h = 0; h < now.size() && h < earlier.size(); ++h)
                            layer.append(attentionChange(now[h], earlier[h]));
                        probe.changes.append(layer);
                    }
                    probe.comparedStep = then.step;
                }
            } catch (const chargpt::Error&) {
            }
        }
        emit attentionReady(probe, d->snapshot.step, request, timer.nsecsElapsed() / 1e6);
    } catch (const std::exception& error) {
        emit attentionFailed(messageOf(error), request);
    }
}

void InspectWorker::computeScores(const QString& text, int layer, int head, quint64 request) {
    const BusyClock busy(d->busyNanoseconds);
    try {
        const HeadScores scores = computeHeadScores(d->checkpoint(), text, layer, head);
        emit scoresReady(scores, d->snapshot.step, request);
    } catch (const std::exception& error) {
        emit scoresFailed(messageOf(error), request);
    }
}

void InspectWorker::computeSurprise(const SurpriseRequest& what, quint64 request) {
    const BusyClock busy(d->busyNanoseconds);
    try {
        const chargpt::Checkpoint& checkpoint = d->checkpoint();
        const chargpt::Checkpoint* against = what.against ? &d->comparedWeights(*what.against) : nullptr;
        const KnockoutPart* without = what.without && !against ? &*what.without : nullptr;
        QVector<SurpriseText> results;
        results.reserve(what.texts.size());
        for (const QString& text : what.texts) {
            try {
                results.append(computeSurpriseText(checkpoint, text, without, against));
            } catch (const chargpt::Error& error) {
                SurpriseText failed;
                failed.step = checkpoint.step;
                failed.problem = messageOf(error);
                results.append(failed);
            }
        }
        emit surpriseReady(results, d->snapshot.step, request);
    } catch (const std::exception& error) {
        emit surpriseFailed(messageOf(error), request);
    }
}

void InspectWorker::computeInside(const QString& probe, const QString& text, const std::optional<KeptStep>& against,
                                  quint64 request) {
    const BusyClock busy(d->busyNanoseconds);
    try {
        // Step A's weights that cannot be read leave the map uncompared (the
        // Surprise tab says why).
        const chargpt::Checkpoint* then = nullptr;
        if (against) {
            try {
                then = &d->comparedWeights(*against);
            } catch (const chargpt::Error&) {
            }
        }
        const InsideFrame frame = computeInsideFrame(d->checkpoint(), probe, text, d->mapAlignment, then);
        emit insideReady(frame, request);
    } catch (const std::exception& error) {
        emit insideFailed(messageOf(error), request);
    }
}

void InspectWorker::stopKnockout() { d->knockoutStopRequested = true; }

void InspectWorker::computeKnockout(quint64 request) {
    d->knockoutStopRequested = false;
    try {
        const chargpt::Checkpoint& checkpoint = d->checkpoint();
        if (!d->snapshot.evaluation || d->snapshot.evaluation->empty())
            throw chargpt::Error("the model has no validation text to measure on: train it on the loaded corpus first.");
        QElapsedTimer sinceProgress;
        sinceProgress.start();
        const Knockout knockout =
            ::computeKnockout(checkpoint, *d->snapshot.evaluation, [&](int done, int total) {
                if (sinceProgress.elapsed() >= 100 || done == total) {
                    emit knockoutProgress(done, total, request);
                    sinceProgress.restart();
                }
                return !d->knockoutStopRequested.load();
            });
        if (d->knockoutStopRequested)
            throw chargpt::Error("the knock-out was stopped.");
        emit knockoutReady(knockout, request);
    } catch (const std::exception& error) {
        emit knockoutFailed(messageOf(error), request);
    }
}

void InspectWorker::prepareGeneration() { d->stopRequested = false; }

void InspectWorker::generate(const GenerationOptions& options) {
    const quint64 run = ++d->generationRun;
    try {
        d->startSampler(this, options);
    } catch (const std::exception& error) {
        d->sampler.reset();
        emit generationFinished(GenerationEnd::Error, messageOf(error));
        return;
    }
    // One character per event, so attention requests and Stop interleave.
    QMetaObject::invokeMethod(this, [this, run] { continueGeneration(run); }, Qt::QueuedConnection);
}

void InspectWorker::continueGeneration(quint64 run) {
    if (run != d->generationRun || !d->sampler)
        return;
    if (d->stopRequested) {
        d->sampler.reset();
        reportCopies();
        emit generationFinished(GenerationEnd::Stopped, QString());
        return;
    }
    try {
        chargpt::SampleStep step;
        if (!d->sampler->next(step)) {
            d->sampler.reset();
            reportCopies();
            emit generationFinished(GenerationEnd::Finished, QString());
            return;
        }
        d->generated += step.text;
        emit characterGenerated(QString::fromStdString(step.text));
        if (d->sampler->finished()) {
            d->sampler.reset();
            reportCopies();
            emit generationFinished(GenerationEnd::Finished, QString());
            return;
        }
    } catch (const std::exception& error) {
        d->sampler.reset();
        emit generationFinished(GenerationEnd::Error, messageOf(error));
        return;
    }
    QMetaObject::invokeMethod(this, [this, run] { continueGeneration(run); }, Qt::QueuedConnection);
}

void InspectWorker::step(const GenerationOptions& options, bool restart, int layer) {
    ++d->generationRun;  // a running generation ends here
    try {
        if (restart || !d->sampler)
            d->startSampler(this, options);
        GenerationStep result;
        chargpt::SampleStep step;
        if (!d->sampler->next(step)) {
            result.finished = true;  // end-of-text or the length reached
            emit stepped(result);
            if (d->generated.size() > kMaxStepCopyCheckBytes)
                reportCopies();  // not checked after the last steps
            return;
        }
        result.character = QString::fromStdString(step.text);
        result.probability = step.probability;
        d->generated += step.text;
        for (std::size_t i = 0; i < step.top.size(); ++i) {
            result.candidates.append(QString::fromStdString(step.top[i].text));
            result.probabilities.append(step.top[i].probability);
            if (step.top[i].token == step.token)
                result.picked = static_cast<int>(i);
        }
        result.layer = layer;
        result.attentionRows = d->attentionRows(layer);
        result.lens = stepLens(*d->samplerSnapshot.checkpoint, d->sampler->context(), kStepLensPositions);
        result.finished = d->sampler->finished();
        d->lastStep = result;
        d->hasLastStep = true;
        emit stepped(result);
        if (d->generated.size() <= kMaxStepCopyCheckBytes || result.finished)
            reportCopies();
    } catch (const std::exception& error) {
        d->sampler.reset();
        emit stepFailed(messageOf(error));
    }
}

void InspectWorker::stepAttention(int layer) {
    if (!d->sampler || !d->hasLastStep)
        return;
    try {
        GenerationStep result = d->lastStep;
        result.layer = layer;
        result.attentionRows = d->attentionRows(layer);
        result.attentionOnly = true;
        emit stepped(result);
    } catch (const std::exception& error) {
        emit stepFailed(messageOf(error));
    }
}
