// SPDX-License-Identifier: GPL-3.0-or-later
// Checkpoints: exact round trip, torch.save-compatible layout with the seed's
// per-head names, refusal of edited checkpoints, and safe saving. Files that
// are not checkpoints, or hostile ones: tst_checkpointrefusals.
#include <torch/serialize.h>
#include <torch/torch.h>

#include "CheckpointFiles.h"
#include "CheckpointFixtures.h"
#include "TrainingFixtures.h"
#include "model/io/Checkpoint.h"
#include "model/io/Pickle.h"
#include "model/nn/CharGPT.h"
#include "model/runtime/Error.h"
#include "model/session/TrainingSession.h"
#include "model/text/CharTokenizer.h"
#include "model/text/Corpus.h"
#include "model/train/Dataset.h"
#include "model/train/RunConfig.h"
#include "model/train/Trainer.h"

#include "TestProgram.h"

#include <sys/resource.h>

#include <cmath>
#include <fstream>
#include <functional>
#include <limits>
#include <memory>

namespace tst_checkpoint {

using namespace chargpt;
using namespace checkpoint_files;
using namespace checkpoint_fixtures;

using training_fixtures::reasonText;

using DictEdit = std::function<void(c10::impl::GenericDict&)>;
}  // namespace tst_checkpoint
Q_DECLARE_METATYPE(tst_checkpoint::DictEdit)
namespace tst_checkpoint {

namespace {

std::map<std::string, torch::Tensor> parameters(const CharGPT& model) {
    std::map<std::string, torch::Tensor> out;
    for (const auto& item : model->named_parameters()) out[item.key()] = item.value();
    return out;
}

bool sameTensors(const std::map<std::string, torch::Tensor>& a, const std::map<std::string, torch::Tensor>& b) {
    if (a.size() != b.size()) return false;
    for (const auto& [name, t] : a) {
        auto it = b.find(name);
        if (it == b.end() || !torch::equal(t, it->second)) return false;
    }
    return true;
}

}  // namespace

class TestCheckpoint : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void roundTrip();
    void roundTripWithoutTrainingState();
    void restoreOptimizerRoundTrip();
    void fileLayout();
    void seedNames();
    void rejectsEditedCheckpoints_data();
    void rejectsEditedCheckpoints();
    void saveFailuresKeepExistingFile();

private:
    QTemporaryDir dir_;
    QString goodPath_;
    CharTokenizer tokenizer_;
    RunConfig config_;
    std::shared_ptr<const Dataset> data_;
    Checkpoint original_;
};

void TestCheckpoint::initTestCase() {
    QVERIFY(dir_.isValid());
    initThreads(0);
    TrainedCheckpoint trained = trainTinyCheckpoint();
    QCOMPARE(reasonText(trained.reason), reasonText(EndReason::Finished));
    tokenizer_ = trained.tokenizer;
    config_ = trained.config;
    data_ = trained.data;
    original_ = trained.checkpoint;
    QCOMPARE(original_.step, int64_t(12));
    QVERIFY(!original_.expAvg.empty());
    goodPath_ = dir_.filePath("good.pt");
    saveCheckpoint(goodPath_.toStdString(), original_);
    QVERIFY(QFileInfo(goodPath_).size() > 0);
}

void TestCheckpoint::roundTrip() {
    Checkpoint loaded = loadCheckpoint(goodPath_.toStdString());

    const RunConfig& a = original_.config;
    const RunConfig& b = loaded.config;
    QCOMPARE(b.vocab_size, a.vocab_size);
    QCOMPARE(b.emb_size, a.emb_size);
    QCOMPARE(b.head_size, a.head_size);
    QCOMPARE(b.n_layer, a.n_layer);
    QCOMPARE(b.sequence_len, a.sequence_len);
    QCOMPARE(b.dropout, a.dropout);
    QCOMPARE(b.batch_size, a.batch_size);
    QCOMPARE(b.learning_rate, a.learning_rate);
    QCOMPARE(b.min_learning_rate, a.min_learning_rate);
    QCOMPARE(b.weight_decay, a.weight_decay);
    QCOMPARE(b.beta1, a.beta1);
    QCOMPARE(b.beta2, a.beta2);
    QCOMPARE(b.grad_clip, a.grad_clip);
    QCOMPARE(b.warmup_steps, a.warmup_steps);
    QCOMPARE(b.max_steps, a.max_steps);
    QCOMPARE(b.time_limit_s, a.time_limit_s);
    QCOMPARE(b.eval_interval, a.eval_interval);
    QCOMPARE(b.eval_iters, a.eval_iters);
    QCOMPARE(b.val_fraction, a.val_fraction);
    QCOMPARE(b.seed, a.seed);

    QVERIFY(loaded.tokenizer == original_.tokenizer);
    QVERIFY(loaded.tokenizer.vocabulary() == tokenizer_.vocabulary());
    QCOMPARE(loaded.step, original_.step);
    QCOMPARE(loaded.tokensSeen, original_.tokensSeen);
    QVERIFY(loaded.tokensSeen > 0);

    QVERIFY(loaded.history.steps == original_.history.steps);
    QVERIFY(loaded.history.trainLoss == original_.history.trainLoss);
    QVERIFY(loaded.history.learningRate == original_.history.learningRate);
    QVERIFY(loaded.history.evalSteps == original_.history.evalSteps);
    QVERIFY(loaded.history.evalTrainLoss == original_.history.evalTrainLoss);
    QVERIFY(loaded.history.evalValLoss == original_.history.evalValLoss);
    QCOMPARE(loaded.history.steps.size(), std::size_t(12));
    QVERIFY(!loaded.history.evalSteps.empty());

    QCOMPARE(loaded.optimizerStep, original_.optimizerStep);
    QVERIFY(loaded.optimizerStep > 0);
    QVERIFY(sameTensors(loaded.expAvg, original_.expAvg));
    QVERIFY(sameTensors(loaded.expAvgSq, original_.expAvgSq));
    QCOMPARE(loaded.expAvg.size(), parameters(original_.model).size());

    QVERIFY(loaded.model);
    QVERIFY(sameTensors(parameters(loaded.model), parameters(original_.model)));
    // A separate copy, not the trainer's model.
    QVERIFY(loaded.model.ptr() != original_.model.ptr());

    torch::NoGradGuard noGrad;
    original_.model->eval();
    loaded.model->eval();
    const torch::Tensor idx = torch::randint(0, config_.vocab_size, {2, config_.sequence_len}, torch::kInt64);
    QVERIFY(torch::equal(loaded.model->forward(idx), original_.model->forward(idx)));
}

void TestCheckpoint::roundTripWithoutTrainingState() {
    torch::manual_seed(2);
    Checkpoint fresh;
    fresh.config = config_;
    fresh.tokenizer = tokenizer_;
    fresh.model = CharGPT(config_);
    const QString path = dir_.filePath("fresh.pt");
    saveCheckpoint(path.toStdString(), fresh);
    const Checkpoint loaded = loadCheckpoint(path.toStdString());
    QVERIFY(loaded.expAvg.empty());
    QVERIFY(loaded.expAvgSq.empty());
    QCOMPARE(loaded.step, int64_t(0));
    QVERIFY(loaded.history.steps.empty());
    QVERIFY(sameTensors(parameters(loaded.model), parameters(fresh.model)));
}

void TestCheckpoint::restoreOptimizerRoundTrip() {
    const Checkpoint loaded = loadCheckpoint(goodPath_.toStdString());
    Trainer trainer(loaded.model, data_, loaded.config);
    restoreOptimizer(loaded, trainer);
    trainer.setProgress(loaded.step, loaded.tokensSeen);
    const Checkpoint again = checkpointFromTrainer(trainer, loaded.tokenizer);
    QCOMPARE(again.optimizerStep, original_.optimizerStep);
    QVERIFY(sameTensors(again.expAvg, original_.expAvg));
    QVERIFY(sameTensors(again.expAvgSq, original_.expAvgSq));
    QCOMPARE(again.step, original_.step);
}

void TestCheckpoint::fileLayout() {
    const std::vector<char> bytes = readBytes(goodPath_);
    QVERIFY(bytes.size() > 4);
    QCOMPARE(bytes[0], 'P');  // a zip archive, as torch.save writes
    QCOMPARE(bytes[1], 'K');

    const c10::IValue root = torch::pickle_load(bytes);
    QVERIFY(root.isGenericDict());
    c10::impl::GenericDict dict = root.toGenericDict();
    QCOMPARE(QString::fromStdString(dict.at(key("format")).toStringRef()), QString(kCheckpointFormat));
    QCOMPARE(dict.at(key("version")).toInt(), kCheckpointVersion);
    QVERIFY(dict.contains(key("config")));
    QVERIFY(dict.contains(key("vocab")));
    QVERIFY(dict.contains(key("step")));
    QVERIFY(dict.contains(key("history")));
    QCOMPARE(int64_t(dict.at(key("vocab")).toListRef().size()), config_.vocab_size);
    QCOMPARE(QString::fromStdString(dict.at(key("vocab")).toListRef()[0].toStringRef()), QStringLiteral("<|e|>"));

    // The model is stored under the seed's per-head names, as Python expects.
    c10::impl::GenericDict model = sub(dict, "model");
    QVERIFY(model.contains(key("blocks.0.mha.heads.1.query.weight")));
    QVERIFY(model.contains(key("blocks.1.mha.heads.3.value.weight")));
    QVERIFY(model.contains(key("token_emb.weight")));
    QVERIFY(model.contains(key("lm.weight")));
    for (const auto& entry : model)
        QVERIFY2(entry.key().toStringRef().find("qkv") == std::string::npos, entry.key().toStringRef().c_str());
}

void TestCheckpoint::seedNames() {
    const RunConfig& c = config_;
    const int64_t C = c.emb_size, H = c.head_size, nh = c.n_head();
    const std::map<std::string, torch::Tensor> fused = parameters(original_.model);
    const std::map<std::string, torch::Tensor> seed = toSeedNames(fused, c);

    QCOMPARE(seed.size(), fused.size() - std::size_t(c.n_layer) + std::size_t(3 * nh * c.n_layer));
    const char* projections[3] = {"query", "key", "value"};
    for (int64_t layer = 0; layer < c.n_layer; ++layer) {
        const torch::Tensor qkv = fused.at("blocks." + std::to_string(layer) + ".mha.qkv.weight");
        QVERIFY(!seed.count("blocks." + std::to_string(layer) + ".mha.qkv.weight"));
        for (int p = 0; p < 3; ++p)
            for (int64_t h = 0; h < nh; ++h) {
                const std::string name = "blocks." + std::to_string(layer) + ".mha.heads." + std::to_string(h) + "." +
                                         projections[p] + ".weight";
                QVERIFY2(seed.count(name), name.c_str());
                const torch::Tensor& t = seed.at(name);
                QCOMPARE(t.sizes().vec(), (std::vector<int64_t>{H, C}));
                QVERIFY(t.is_contiguous());
                QVERIFY2(torch::equal(t, qkv.slice(0, p * C + h * H, p * C + (h + 1) * H)), name.c_str());
            }
    }
    for (const auto& [name, t] : fused)
        if (name.find(".qkv.") == std::string::npos) QVERIFY2(torch::equal(seed.at(name), t), name.c_str());

    const std::map<std::string, torch::Tensor> back = fromSeedNames(seed, c);
    QVERIFY(sameTensors(back, fused));

    // The seed-named tensors are copies: changing them leaves the model alone.
    torch::NoGradGuard noGrad;
    seed.at("blocks.0.mha.heads.0.query.weight").fill_(123.0f);
    seed.at("lm.weight").fill_(7.0f);
    QVERIFY(!torch::equal(fused.at("blocks.0.mha.qkv.weight").slice(0, 0, H), seed.at("blocks.0.mha.heads.0.query.weight")));
    QVERIFY(fused.at("lm.weight").max().item<float>() < 7.0f);

    // A missing head cannot be fused back.
    std::map<std::string, torch::Tensor> incomplete = toSeedNames(fused, c);
    incomplete.erase("blocks.1.mha.heads.2.key.weight");
    QVERIFY_THROWS_EXCEPTION(Error, fromSeedNames(incomplete, c));
}

void TestCheckpoint::rejectsEditedCheckpoints_data() {
    QTest::addColumn<DictEdit>("edit");
    QTest::addColumn<QString>("problem");

    QTest::newRow("wrong format tag") << DictEdit([](c10::impl::GenericDict& d) {
        d.insert_or_assign(key("format"), std::string("nanogpt-checkpoint"));
    }) << "format|not a";
    QTest::newRow("format tag not text") << DictEdit([](c10::impl::GenericDict& d) {
        d.insert_or_assign(key("format"), int64_t(1));
    }) << "format|not a";
    QTest::newRow("version from the future") << DictEdit([](c10::impl::GenericDict& d) {
        d.insert_or_assign(key("version"), kCheckpointVersion + 1);
    }) << "version|newer";
    QTest::newRow("no version") << DictEdit([](c10::impl::GenericDict& d) { QCOMPARE(d.erase(key("version")), std::size_t(1)); })
                                << "version";
    QTest::newRow("weight with wrong shape") << DictEdit([](c10::impl::GenericDict& d) {
        const torch::Tensor w = sub(d, "model").at(key("token_emb.weight")).toTensor();
        sub(d, "model").insert_or_assign(key("token_emb.weight"), torch::zeros({w.size(0), w.size(1) + 1}));
    }) << "token_emb.*shape|shape.*token_emb";
    QTest::newRow("head weight with wrong shape") << DictEdit([](c10::impl::GenericDict& d) {
        const torch::Tensor w = sub(d, "model").at(key("blocks.1.mha.heads.2.key.weight")).toTensor();
        sub(d, "model").insert_or_assign(key("blocks.1.mha.heads.2.key.weight"), torch::zeros({w.size(0) + 1, w.size(1)}));
    }) << "shape";
    QTest::newRow("NaN weight") << DictEdit([](c10::impl::GenericDict& d) {
        torch::Tensor w = sub(d, "model").at(key("lm.weight")).toTensor().clone();
        w[0][0] = std::numeric_limits<float>::quiet_NaN();
        sub(d, "model").insert_or_assign(key("lm.weight"), w);
    }) << "lm\\.weight.*(finite|nan)|(finite|nan).*lm\\.weight";
    QTest::newRow("infinite head weight") << DictEdit([](c10::impl::GenericDict& d) {
        torch::Tensor w = sub(d, "model").at(key("blocks.0.mha.heads.0.value.weight")).toTensor().clone();
        w[1][2] = std::numeric_limits<float>::infinity();
        sub(d, "model").insert_or_assign(key("blocks.0.mha.heads.0.value.weight"), w);
    }) << "finite|inf";
    QTest::newRow("missing weight") << DictEdit([](c10::impl::GenericDict& d) {
        QCOMPARE(sub(d, "model").erase(key("lm.weight")), std::size_t(1));
    }) << "lm\\.weight";
    QTest::newRow("unexpected weight") << DictEdit([](c10::impl::GenericDict& d) {
        sub(d, "model").insert_or_assign(key("blocks.7.mha.proj.weight"), torch::zeros({4, 4}));
    }) << "blocks\\.7";
    QTest::newRow("vocabulary shorter than config") << DictEdit([](c10::impl::GenericDict& d) {
        const auto& vocab = d.at(key("vocab")).toListRef();
        c10::impl::GenericList shorter(c10::StringType::get());
        for (std::size_t i = 0; i + 1 < vocab.size(); ++i) shorter.push_back(vocab[i]);
        d.insert_or_assign(key("vocab"), shorter);
    }) << "vocab";
    QTest::newRow("config vocab_size larger") << DictEdit([](c10::impl::GenericDict& d) {
        const int64_t v = sub(d, "config").at(key("vocab_size")).toInt();
        sub(d, "config").insert_or_assign(key("vocab_size"), v + 1);
    }) << "vocab";
    QTest::newRow("unsorted vocabulary") << DictEdit([](c10::impl::GenericDict& d) {
        const auto& vocab = d.at(key("vocab")).toListRef();
        c10::impl::GenericList swapped(c10::StringType::get());
        for (const c10::IValue& v : vocab) swapped.push_back(v);
        const c10::IValue a = swapped.get(1), b = swapped.get(2);
        swapped.set(1, b);
        swapped.set(2, a);
        d.insert_or_assign(key("vocab"), swapped);
    }) << "vocab|sort|order";
    QTest::newRow("invalid config") << DictEdit([](c10::impl::GenericDict& d) {
        sub(d, "config").insert_or_assign(key("head_size"), int64_t(5));
    }) << "head|emb";
    QTest::newRow("version zero") << DictEdit([](c10::impl::GenericDict& d) {
        d.insert_or_assign(key("version"), int64_t(0));
    }) << "version";
    QTest::newRow("version as text") << DictEdit([](c10::impl::GenericDict& d) {
        d.insert_or_assign(key("version"), std::string("1"));
    }) << "version";
    // Vocabulary and settings agree with each other, not with the weights.
    QTest::newRow("vocabulary and config one larger than the weights") << DictEdit([](c10::impl::GenericDict& d) {
        const auto& vocab = d.at(key("vocab")).toListRef();
        c10::impl::GenericList longer(c10::StringType::get());
        for (const c10::IValue& v : vocab) longer.push_back(v);
        longer.push_back(c10::IValue(std::string("\xf0\x9f\x99\x82")));  // sorts after every other entry
        d.insert_or_assign(key("vocab"), longer);
        sub(d, "config").insert_or_assign(key("vocab_size"), int64_t(longer.size()));
    }) << "(token_emb|lm)\\.(weight|bias) has shape";
    QTest::newRow("config wider than the weights") << DictEdit([](c10::impl::GenericDict& d) {
        sub(d, "config").insert_or_assign(key("emb_size"), sub(d, "config").at(key("emb_size")).toInt() * 2);
    }) << "shape";
    QTest::newRow("config with more layers than the weights") << DictEdit([](c10::impl::GenericDict& d) {
        sub(d, "config").insert_or_assign(key("n_layer"), sub(d, "config").at(key("n_layer")).toInt() + 1);
    }) << "lacks.*blocks\\.2";
    QTest::newRow("config with fewer layers than the weights") << DictEdit([](c10::impl::GenericDict& d) {
        sub(d, "config").insert_or_assign(key("n_layer"), int64_t(1));
    }) << "unexpected.*blocks\\.1";
    QTest::newRow("NaN in the optimizer state") << DictEdit([](c10::impl::GenericDict& d) {
        c10::impl::GenericDict optimizer = sub(d, "optimizer");
        c10::impl::GenericDict avg = optimizer.at(key("exp_avg")).toGenericDict();
        torch::Tensor w = avg.at(key("lm.weight")).toTensor().clone();
        w[0][0] = std::numeric_limits<float>::quiet_NaN();
        avg.insert_or_assign(key("lm.weight"), w);
    }) << "optimizer.*(finite|nan)";
    QTest::newRow("model is not a dict") << DictEdit([](c10::impl::GenericDict& d) {
        d.insert_or_assign(key("model"), torch::zeros({3}));
    }) << "model";
}

void TestCheckpoint::rejectsEditedCheckpoints() {
    QFETCH(DictEdit, edit);
    QFETCH(QString, problem);
    c10::IValue root = torch::pickle_load(readBytes(goodPath_));
    c10::impl::GenericDict dict = root.toGenericDict();
    edit(dict);
    const std::vector<char> bytes = torch::pickle_save(dict);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath("edited.pt");
    QVERIFY(writeBytes(path, bytes.data(), bytes.size()));
    try {
        loadCheckpoint(path.toStdString());
        QFAIL("a bad checkpoint was loaded");
    } catch (const Error& e) {
        const QString m = QString::fromStdString(e.what());
        QVERIFY2(m.contains(QRegularExpression(problem, QRegularExpression::CaseInsensitiveOption)),
                 qPrintable("message does not say the problem: " + m));
    }

    // The unedited dict, saved the same way, loads: the edit is what was refused.
    const std::vector<char> clean = torch::pickle_save(torch::pickle_load(readBytes(goodPath_)));
    const QString cleanPath = dir.filePath("clean.pt");
    QVERIFY(writeBytes(cleanPath, clean.data(), clean.size()));
    QCOMPARE(loadCheckpoint(cleanPath.toStdString()).step, original_.step);
}

void TestCheckpoint::saveFailuresKeepExistingFile() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath("model.pt");

    // Overwriting works and replaces the content.
    saveCheckpoint(path.toStdString(), original_);
    Checkpoint other = original_;
    other.step = 99;
    saveCheckpoint(path.toStdString(), other);
    QCOMPARE(loadCheckpoint(path.toStdString()).step, int64_t(99));
    const std::vector<char> before = readBytes(path);

    // A failing save to the same path leaves the file as it was.
    Checkpoint empty;
    QVERIFY_THROWS_EXCEPTION(Error, saveCheckpoint(path.toStdString(), empty));
    QVERIFY(readBytes(path) == before);

    // A folder that does not exist.
    const QString nowhere = dir.filePath("no/such/folder/model.pt");
    try {
        saveCheckpoint(nowhere.toStdString(), original_);
        QFAIL("saved into a folder that does not exist");
    } catch (const Error& e) {
        QVERIFY2(QString(e.what()).contains("model.pt"), e.what());
    }
    QVERIFY(!QFileInfo::exists(dir.filePath("no")));

    // A target that is an existing folder: refused, folder and contents intact.
    const QString folder = dir.filePath("taken.pt");
    QVERIFY(QDir().mkpath(folder));
    QVERIFY(writeBytes(folder + "/keep.txt", "keep", 4));
    QVERIFY_THROWS_EXCEPTION(Error, saveCheckpoint(folder.toStdString(), original_));
    QVERIFY(QFileInfo(folder).isDir());
    QCOMPARE(readBytes(folder + "/keep.txt").size(), std::size_t(4));

    // No temporary files are left behind, and the good file still loads.
    const QStringList entries = QDir(dir.path()).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot);
    QCOMPARE(entries, (QStringList{"model.pt", "taken.pt"}));
    QVERIFY(readBytes(path) == before);
    QCOMPARE(loadCheckpoint(path.toStdString()).step, int64_t(99));
}

CHARGPT_TEST_GUILESS_MAIN(TestCheckpoint)
}  // namespace tst_checkpoint
#include "tst_checkpoint.moc"
