// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// What the inspector keeps between its requests (InspectWorker.cpp and
// InspectWorkerGeneration.cpp): the frozen, the sampler of Generate and Step, the run library.
// LibTorch and model/ first, then Qt (see docs/ARCHITECTURE.md).
#include <torch/torch.h>

#include "model/generate/BatchSampler.h"
#include "model/io/Checkpoint.h"
#include "model/io/ConfigJson.h"
#include "model/nn/CharGPT.h"
#include "model/record/KeptWeights.h"
#include "model/record/RunLibrary.h"
#include "model/runtime/Error.h"
#include "model/text/CharTokenizer.h"
#include "model/text/CopyIndex.h"
#include "model/text/Utf8.h"

#include "app/AttributionBridge.h"
#include "app/ErrorMessage.h"
#include "app/InsideBridge.h"
#include "app/InspectWorker.h"
#include "app/PatchingBridge.h"
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
    FrozenModel frozen;  // what new requests run

    // Generation and step mode: the frozen model they started with, kept alive.
    FrozenModel samplerModel;
    std::optional<chargpt::BatchSampler> sampler;  // Generate's samples, or Step's one
    quint64 generationRun = 0;
    std::atomic<bool> stopRequested{false};
    std::atomic<bool> knockoutStopRequested{false};
    std::atomic<bool> patchingStopRequested{false};
    std::atomic<bool> historyStopRequested{false};
    std::atomic<qint64> busyNanoseconds{0};  // busyTime()
    CharacterMapAlignment mapAlignment;  // the Inside page's last map
    GenerationStep lastStep;
    bool hasLastStep = false;
    std::string generated;  // UTF-8, since the sampler started
    std::unique_ptr<chargpt::RunLibrary> library;  // loadKept's connection, opened at its first use

    // The weights run `run` keeps at `step`, checked against the run's own
    // settings; throws chargpt::Error saying why they cannot be shown.
    FrozenModel readKept(qint64 run, qint64 step) {
        if (!library)
            library = openRunLibraryToReadKept();
        auto checkpoint = std::make_shared<chargpt::Checkpoint>(chargpt::readKeptWeights(*library, run, step));
        checkpoint->model->eval();
        FrozenModel kept;
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
        if (frozen.isNull()) throw chargpt::Error("there is no model yet: train one or open a checkpoint.");
        return *frozen.checkpoint;
    }

    // Starts a sampler of `samples` on the current frozen model (Generate's
    // options.samples; Step follows one); reports unknown prompt characters.
    void startSampler(InspectWorker* worker, const GenerationOptions& options, int samples) {
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
        samplerModel = frozen;
        sampler.emplace(cp.model, cp.tokenizer, sampling, std::max(samples, 1));
        sampler->start(tokens);
        hasLastStep = false;
        generated.clear();
    }

    // Each head's attention row of the newest character of the sampler's
    // (first sample's) context in `layer`: CharGPT::attentionMaps on the
    // context, last row.
    QVector<AttentionMatrix> attentionRows(int layer) const {
        const chargpt::Checkpoint& cp = *samplerModel.checkpoint;
        const std::vector<int64_t>& context = sampler->context(0);
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
        chargpt::CharGPT model = cp.model;  // a handle: the frozen model itself
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
