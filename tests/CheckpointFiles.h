// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// A checkpoint made as a user's first one is (the tiny preset trained 12 steps
// on a short poem in Chinese and English), and the byte-level helpers the
// checkpoint tests read and edit such files with.

#include <torch/serialize.h>
#include <torch/torch.h>

#include "model/io/Checkpoint.h"
#include "model/session/TrainingSession.h"
#include "model/text/CharTokenizer.h"
#include "model/text/Corpus.h"
#include "model/train/Dataset.h"
#include "model/train/RunConfig.h"
#include "model/train/Trainer.h"

#include <QByteArray>
#include <QFile>
#include <QString>

#include <memory>
#include <string>
#include <vector>

namespace checkpoint_files {

inline std::vector<char> readBytes(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return {};
    const QByteArray b = f.readAll();
    return std::vector<char>(b.begin(), b.end());
}

inline bool writeBytes(const QString& path, const char* data, std::size_t size) {
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly)) return false;
    return f.write(data, qint64(size)) == qint64(size);
}

inline c10::IValue key(const char* k) { return c10::IValue(std::string(k)); }

inline c10::impl::GenericDict sub(c10::impl::GenericDict& d, const char* k) { return d.at(key(k)).toGenericDict(); }

struct TrainedCheckpoint {
    chargpt::CharTokenizer tokenizer;
    chargpt::RunConfig config;
    std::shared_ptr<const chargpt::Dataset> data;
    chargpt::EndReason reason = chargpt::EndReason::Stopped;
    chargpt::Checkpoint checkpoint;  // with its optimizer's state and history
};

// Trains the tiny preset for 12 steps (evaluated every 5) from seed 1.
inline TrainedCheckpoint trainTinyCheckpoint() {
    using namespace chargpt;
    TrainedCheckpoint out;
    std::string text;
    for (int i = 0; i < 30; ++i) text += "床前明月光，疑是地上霜。the moon, the frost.\n";
    const Corpus corpus = Corpus::fromUtf8(text, "poem");
    out.tokenizer = corpus.buildTokenizer();
    out.config = *RunConfig::preset("tiny");
    out.config.vocab_size = out.tokenizer.vocabSize();
    out.config.max_steps = 12;
    out.config.eval_interval = 5;
    out.config.eval_iters = 2;
    out.data = std::make_shared<const Dataset>(corpus.encode(out.tokenizer), out.config.sequence_len);
    torch::manual_seed(1);
    Trainer trainer(CharGPT(out.config), out.data, out.config);
    out.reason = trainer.run().reason;
    out.checkpoint = checkpointFromTrainer(trainer, out.tokenizer);
    return out;
}

}  // namespace checkpoint_files
