// SPDX-License-Identifier: GPL-3.0-or-later
// Checkpoints: exact round trip, torch.save-compatible layout with the seed's
// per-head names, refusal of bad files, and safe saving.
#include <torch/serialize.h>
#include <torch/torch.h>

#include "model/nn/CharGPT.h"
#include "model/text/CharTokenizer.h"
#include "model/io/Checkpoint.h"
#include "model/io/Pickle.h"
#include "model/session/TrainingSession.h"
#include "model/text/Corpus.h"
#include "model/train/Dataset.h"
#include "model/runtime/Error.h"
#include "model/train/RunConfig.h"
#include "model/train/Trainer.h"
#include "CheckpointFixtures.h"

#include "TestProgram.h"

#include <sys/resource.h>

#include <cmath>
#include <fstream>
#include <functional>
#include <limits>
#include <memory>

namespace tst_checkpoint {

using namespace chargpt;
using namespace checkpoint_fixtures;

namespace {
// StopReason as text for QCOMPARE (an ADL toString() returning std::string
// keeps QTest from printing the enum itself).
QString reasonText(StopReason reason) { return QString::fromStdString(chargpt::toString(reason)); }
}  // namespace

using DictEdit = std::function<void(c10::impl::GenericDict&)>;
}  // namespace tst_checkpoint
Q_DECLARE_METATYPE(tst_checkpoint::DictEdit)
namespace tst_checkpoint {

namespace {

std::vector<char> readBytes(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) return {};
    const QByteArray b = f.readAll();
    return std::vector<char>(b.begin(), b.end());
}

bool writeBytes(const QString& path, const char* data, std::size_t size) {
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly)) return false;
    return f.write(data, qint64(size)) == qint64(size);
}

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

c10::IValue key(const char* k) { return c10::IValue(std::string(k)); }

c10::impl::GenericDict sub(c10::impl::GenericDict& d, const char* k) { return d.at(key(k)).toGenericDict(); }

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
    void rejectsBadFiles_data();
    void rejectsBadFiles();
    void rejectsEditedCheckpoints_data();
    void rejectsEditedCheckpoints();
    void saveFailuresKeepExistingFile();
    void rejectsTruncatedFiles_data();
    void rejectsTruncatedFiles();
    void rejectsForeignArchives_data();
    void rejectsForeignArchives();
    void refusesPicklesNamingCode_data();
    void refusesPicklesNamingCode();
    void acceptsTheGlobalsOfTorchSave();
    void refusesPicklesThatRecurseOrShare_data();
    void refusesPicklesThatRecurseOrShare();
    void unpickleStaysWithinItsBudget();
    void refusesSmallFilesThatWouldTakeHugeMemory_data();
    void refusesSmallFilesThatWouldTakeHugeMemory();

private:
    QTemporaryDir dir_;
    QString goodPath_;
    CharTokenizer tokenizer_;
    RunConfig config_;
    std::shared_ptr<const Dataset> data_;
    std::unique_ptr<Trainer> trainer_;
    Checkpoint original_;
};

void TestCheckpoint::initTestCase() {
    QVERIFY(dir_.isValid());
    initThreads(0);
    std::string text;
    for (int i = 0; i < 30; ++i) text += "床前明月光，疑是地上霜。the moon, the frost.\n";
    const Corpus corpus = Corpus::fromUtf8(text, "poem");
    tokenizer_ = corpus.buildTokenizer();
    config_ = *RunConfig::preset("tiny");
    config_.vocab_size = tokenizer_.vocabSize();
    config_.max_steps = 12;
    config_.eval_interval = 5;
    config_.eval_iters = 2;
    data_ = std::make_shared<const Dataset>(corpus.encode(tokenizer_), config_.sequence_len);
    torch::manual_seed(1);
    trainer_ = std::make_unique<Trainer>(CharGPT(config_), data_, config_);
    QCOMPARE(reasonText(trainer_->run().reason), reasonText(StopReason::Finished));
    original_ = checkpointFromTrainer(*trainer_, tokenizer_);
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

void TestCheckpoint::rejectsBadFiles_data() {
    QTest::addColumn<QString>("kind");
    QTest::addColumn<QString>("problem");  // regular expression the message must match

    const QString unreadable = "damaged|truncat|corrupt|not a|cannot|invalid";
    QTest::newRow("nonexistent file") << "missing" << "no such|not exist|not found|cannot open|missing";
    QTest::newRow("empty file") << "empty" << "empty";
    QTest::newRow("truncated to 10 bytes") << "cut10" << unreadable;
    QTest::newRow("truncated to 100 bytes") << "cut100" << unreadable;
    QTest::newRow("truncated to half") << "cuthalf" << unreadable;
    QTest::newRow("truncated by one byte") << "cut1" << unreadable;
    QTest::newRow("random bytes") << "random" << unreadable;
    QTest::newRow("random bytes starting with PK") << "randomPK" << unreadable;
    QTest::newRow("text file") << "text" << unreadable;
    QTest::newRow("pickled tensor") << "tensor" << "not a|format|dictionar";
    QTest::newRow("pickled dict without format") << "noformat" << "not a|format";
    QTest::newRow("folder") << "folder" << "folder|directory|not a|regular";
}

void TestCheckpoint::rejectsBadFiles() {
    QFETCH(QString, kind);
    QFETCH(QString, problem);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath("bad_checkpoint.pt");
    const std::vector<char> good = readBytes(goodPath_);
    QVERIFY(good.size() > 200);

    if (kind == "empty") {
        QVERIFY(writeBytes(path, "", 0));
    } else if (kind.startsWith("cut")) {
        std::size_t n = kind == "cut10" ? 10 : kind == "cut100" ? 100 : kind == "cuthalf" ? good.size() / 2
                                                                                          : good.size() - 1;
        QVERIFY(writeBytes(path, good.data(), n));
    } else if (kind.startsWith("random")) {
        std::mt19937 rng(3);
        std::vector<char> noise(4096);
        for (char& ch : noise) ch = char(rng() & 0xFF);
        if (kind == "randomPK") noise[0] = 'P', noise[1] = 'K', noise[2] = 3, noise[3] = 4;
        QVERIFY(writeBytes(path, noise.data(), noise.size()));
    } else if (kind == "text") {
        const QByteArray text = "format: chargpt-checkpoint\nversion: 1\n";
        QVERIFY(writeBytes(path, text.constData(), std::size_t(text.size())));
    } else if (kind == "tensor") {
        const std::vector<char> bytes = torch::pickle_save(torch::ones({3, 3}));
        QVERIFY(writeBytes(path, bytes.data(), bytes.size()));
    } else if (kind == "noformat") {
        c10::impl::GenericDict d(c10::StringType::get(), c10::AnyType::get());
        d.insert(key("hello"), torch::ones({2}));
        d.insert(key("version"), int64_t(1));
        const std::vector<char> bytes = torch::pickle_save(d);
        QVERIFY(writeBytes(path, bytes.data(), bytes.size()));
    } else if (kind == "folder") {
        QVERIFY(QDir().mkpath(path));
    }

    try {
        loadCheckpoint(path.toStdString());
        QFAIL("a bad checkpoint was loaded");
    } catch (const Error& e) {
        const QString m = QString::fromStdString(e.what());
        QVERIFY2(m.contains(QRegularExpression(problem, QRegularExpression::CaseInsensitiveOption)),
                 qPrintable("message does not say the problem: " + m));
        QVERIFY2(m.contains("bad_checkpoint.pt"), qPrintable("message does not name the file: " + m));
    }
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

void TestCheckpoint::rejectsTruncatedFiles_data() {
    QTest::addColumn<qint64>("length");
    const qint64 size = QFileInfo(goodPath_).size();
    QVERIFY(size > 1000);
    // About 150 cuts spread over the whole file, plus the first bytes and the
    // end of the zip (its central directory and end record).
    const qint64 stride = size / 150 + 1;
    for (qint64 n = 1; n < size; n += (n < 8 ? 1 : stride))
        QTest::addRow("first %lld of %lld bytes", n, size) << n;
    for (qint64 back : {1, 2, 21, 22, 23, 100})
        QTest::addRow("all but the last %lld bytes", back) << size - back;
}

void TestCheckpoint::rejectsTruncatedFiles() {
    QFETCH(qint64, length);
    const std::vector<char> good = readBytes(goodPath_);
    const QString path = dir_.filePath("truncated.pt");
    QVERIFY(writeBytes(path, good.data(), std::size_t(length)));
    try {
        loadCheckpoint(path.toStdString());
        QFAIL("a truncated checkpoint was loaded");
    } catch (const Error& e) {
        const QString m = QString::fromStdString(e.what());
        QVERIFY2(m.contains(QRegularExpression("damaged|truncated|not a CharGPT checkpoint", QRegularExpression::CaseInsensitiveOption)),
                 qPrintable(m));
        QVERIFY2(m.contains("truncated.pt"), qPrintable(m));
        QVERIFY2(!m.contains('\n'), qPrintable(m));
    }
}

void TestCheckpoint::rejectsForeignArchives_data() {
    QTest::addColumn<QByteArray>("bytes");
    QTest::addColumn<QString>("problem");
    const QString notOurs = "zip archive but not a CharGPT checkpoint";
    QTest::newRow("zip of a text file") << makeZip({{"notes/readme.txt", "hello\n"}}) << notOurs;
    QTest::newRow("zip shaped like an office document")
        << makeZip({{"[Content_Types].xml", "<Types/>"}, {"word/document.xml", "<w:document/>"}}) << notOurs;
    QTest::newRow("torch.save layout without data.pkl") << makeZip({{"archive/version", "3\n"}, {"archive/data/0", "abcd"}})
                                                     << notOurs;
    QTest::newRow("empty zip") << makeZip({}) << "damaged|not a CharGPT";
    const std::vector<char> list = torch::pickle_save(c10::List<int64_t>({1, 2, 3}));
    QTest::newRow("pickle of a list") << QByteArray(list.data(), qsizetype(list.size())) << "holds no dictionary";
    QTest::newRow("pickle of a dict of strangers")
        << torchArchive(QByteArray("\x80\x02}q\x00(", 6) + text4("weights") + QByteArray("K\x07u.", 4)) << "format tag";
    QTest::newRow("pickle cut short") << torchArchive(QByteArray("\x80\x02}q\x00", 5) + text4("format")) << "ends before";
    QTest::newRow("pickle with an unknown instruction") << torchArchive(QByteArray("\x80\x02\xff.", 4)) << "instruction";
}

void TestCheckpoint::rejectsForeignArchives() {
    QFETCH(QByteArray, bytes);
    QFETCH(QString, problem);
    const QString path = dir_.filePath("foreign.pt");
    QVERIFY(writeBytes(path, bytes.constData(), std::size_t(bytes.size())));
    try {
        loadCheckpoint(path.toStdString());
        QFAIL("a file that is not a checkpoint was loaded");
    } catch (const Error& e) {
        const QString m = QString::fromStdString(e.what());
        QVERIFY2(m.contains(QRegularExpression(problem, QRegularExpression::CaseInsensitiveOption)), qPrintable(m));
        QVERIFY2(m.contains("foreign.pt"), qPrintable(m));
        QVERIFY2(!m.contains('\n'), qPrintable(m));
    }
}

void TestCheckpoint::refusesPicklesNamingCode_data() {
    QTest::addColumn<QString>("kind");
    QTest::addColumn<QString>("named");  // what the message must name
    QTest::newRow("GLOBAL os.system, REDUCE") << "os.system" << "os.system";
    QTest::newRow("GLOBAL posix.system, REDUCE") << "posix.system" << "posix.system";
    QTest::newRow("GLOBAL builtins.eval, REDUCE") << "builtins.eval" << "builtins.eval";
    QTest::newRow("GLOBAL __builtin__.exec, REDUCE") << "__builtin__.exec" << "__builtin__.exec";
    QTest::newRow("GLOBAL torch.load, a torch function") << "torch.load" << "torch.load";
    QTest::newRow("INST subprocess.Popen") << "subprocess.Popen" << "subprocess.Popen";
    QTest::newRow("STACK_GLOBAL posix.system, protocol 4") << "stack global" << "posix.system";
    QTest::newRow("STACK_GLOBAL from memoised names") << "memoised stack global" << "computes";
    QTest::newRow("copyreg extension code") << "copyreg" << "copyreg";
    QTest::newRow("os.system inside a checkpoint dict") << "inside a checkpoint" << "os.system";
}

void TestCheckpoint::refusesPicklesNamingCode() {
    QFETCH(QString, kind);
    QFETCH(QString, named);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString marker = dir.filePath("was_run");
    const QByteArray pickle = codePickle(kind, marker.toUtf8());
    QVERIFY(!pickle.isEmpty());
    const QString path = dir.filePath("code.pt");
    const QByteArray archive = torchArchive(pickle);
    QVERIFY(writeBytes(path, archive.constData(), std::size_t(archive.size())));
    try {
        loadCheckpoint(path.toStdString());
        QFAIL("a pickle naming Python code was loaded");
    } catch (const Error& e) {
        const QString m = QString::fromStdString(e.what());
        QVERIFY2(m.contains(named), qPrintable(m));
        QVERIFY2(m.contains("Nothing in it was run"), qPrintable(m));
        QVERIFY2(m.contains("code.pt"), qPrintable(m));
        QVERIFY2(!m.contains('\n'), qPrintable(m));
    }
    QVERIFY2(!QFileInfo::exists(marker), "the pickle's command was run");
    // LibTorch's unpickler on its own runs no Python either: it fails or returns
    // plain values, and the command has not run.
    try {
        torch::pickle_load(readBytes(path));
    } catch (const std::exception&) {
    }
    QVERIFY2(!QFileInfo::exists(marker), "the pickle's command was run by the unpickler");
}

void TestCheckpoint::acceptsTheGlobalsOfTorchSave() {
    // Our own file and a dict of tensors written by pickle_save both pass the check and load.
    QCOMPARE(loadCheckpoint(goodPath_.toStdString()).step, original_.step);
    c10::impl::GenericDict d(c10::StringType::get(), c10::AnyType::get());
    d.insert(key("a"), torch::ones({2, 3}, torch::kFloat64));
    d.insert(key("b"), torch::arange(5));
    d.insert(key("c"), torch::zeros({1}, torch::kBFloat16));
    const std::vector<char> bytes = torch::pickle_save(d);
    const QString path = dir_.filePath("plain.pt");
    QVERIFY(writeBytes(path, bytes.data(), bytes.size()));
    try {
        loadCheckpoint(path.toStdString());
        QFAIL("a dict without a format tag was loaded");
    } catch (const Error& e) {
        QVERIFY2(QString(e.what()).contains("format tag"), e.what());  // got past the pickle check
    }
}

// Class 1 and 2 of issue 13: pickles that nest without end, hold themselves or
// share their values exponentially are refused, quickly, with one line that
// names the file and says what is wrong.
void TestCheckpoint::refusesPicklesThatRecurseOrShare_data() {
    QTest::addColumn<QString>("kind");
    QTest::addColumn<bool>("insideCheckpoint");
    QTest::addColumn<QString>("problem");
    const QList<std::pair<const char*, const char*>> kinds{
        {"self list", "holds a list that contains itself"},
        {"self dict", "holds a dictionary that contains itself"},
        {"nested tuples", "nests values more than 100 levels deep"},
        {"nested lists", "nests values more than 100 levels deep"},
        {"nested marks", "nests values more than 100 levels deep"},
        {"shared", "shares its values too deeply to be a checkpoint"},
        {"many values", "makes more than 2097152 values"},
    };
    for (const auto& [kind, problem] : kinds) {
        QTest::addRow("%s as the root", kind) << kind << false << problem;
        QTest::addRow("%s inside a checkpoint", kind) << kind << true << problem;
    }
}

void TestCheckpoint::refusesPicklesThatRecurseOrShare() {
    QFETCH(QString, kind);
    QFETCH(bool, insideCheckpoint);
    QFETCH(QString, problem);
    const QString path = dir_.filePath("hostile.pt");
    const QByteArray archive = torchArchive(hostilePickle(kind, insideCheckpoint));
    QVERIFY(writeBytes(path, archive.constData(), std::size_t(archive.size())));
    QString message;
    const qint64 ms = millisecondsOf([&] {
        try {
            loadCheckpoint(path.toStdString());
        } catch (const Error& e) {
            message = QString::fromStdString(e.what());
        }
    });
    QVERIFY2(message.startsWith(path + " is refused: its pickle "), qPrintable(message));
    QVERIFY2(message.contains(problem), qPrintable(message));
    QVERIFY2(!message.contains('\n'), qPrintable(message));
    QVERIFY2(ms < 5000, qPrintable(QString("took %1 ms").arg(ms)));
}

namespace {
// Storages for pickle::unpickle without an archive: zeros of the asked type.
struct ZeroStorages : pickle::StorageSource {
    torch::Tensor storage(const std::string&, torch::ScalarType type) override {
        return torch::zeros({16}, torch::TensorOptions().dtype(type));
    }
};

QByteArray sharedLevels(int levels) {
    return QByteArray("\x80\x02)q\x00", 5) + QByteArray("0h\x00h\x00\x86q\x00", 8).repeated(levels) + ".";
}
}  // namespace

// The budget is exact: a walk over shared values is counted step by step, so
// sharing that doubles past the budget is refused after the budget, never
// walked further; and what fits is accepted.
void TestCheckpoint::unpickleStaysWithinItsBudget() {
    ZeroStorages storages;
    pickle::Budget budget;
    budget.maxValues = 1000;
    budget.maxDepth = 20;
    budget.maxVisits = 5000;
    auto run = [&](const QByteArray& p) { return pickle::unpickle(p.constData(), std::size_t(p.size()), storages, budget); };
    // 11 levels: 2^12 - 1 = 4095 steps; 12 levels: 8191 steps, over 5000.
    QCOMPARE(int(run(sharedLevels(11)).root().items.size()), 2);
    QVERIFY_THROWS_EXCEPTION(pickle::Refused, run(sharedLevels(12)));
    // Depth: 19 nested tuples fit in 20 levels, 20 do not.
    QVERIFY(run(QByteArray("\x80\x02)", 3) + QByteArray(19, '\x85') + ".").root().is(pickle::Value::Kind::Tuple));
    QVERIFY_THROWS_EXCEPTION(pickle::Refused, run(QByteArray("\x80\x02)", 3) + QByteArray(20, '\x85') + "."));
    QVERIFY_THROWS_EXCEPTION(pickle::Refused, run(QByteArray("\x80\x02", 2) + QByteArray(21, '(') + "."));
    // Values: 999 pushes fit, 1001 do not; memo indices past the budget are refused.
    QCOMPARE(int(run(QByteArray("\x80\x02(", 3) + QByteArray(998, 'N') + "l.").root().items.size()), 998);
    QVERIFY_THROWS_EXCEPTION(pickle::Refused, run(QByteArray("\x80\x02(", 3) + QByteArray(1001, 'N') + "l."));
    QVERIFY_THROWS_EXCEPTION(pickle::Refused, run(QByteArray("\x80\x02Nr\xe8\x03\x00\x00.", 9)));
    // A dict's text keys are found by their index, and a key given again replaces the value.
    QByteArray dict("\x80\x02}(", 4);
    for (int i = 0; i < 300; ++i) dict += text4("k" + QByteArray::number(i % 200)) + intOp(i);
    const pickle::Unpickled d = run(dict + "u.");
    QCOMPARE(int(d.root().entries.size()), 200);
    QCOMPARE(d.root().find("k5")->integer, int64_t(205));
    // A tensor may not show more elements than its storage (16 here) holds.
    const QByteArray view = QByteArray("\x80\x02", 2) + tensorPickle("0", 16, {4, 4}, {4, 1}) + ".";
    QCOMPARE(run(view).root().tensor.numel(), int64_t(16));
    const QByteArray overlap = QByteArray("\x80\x02", 2) + tensorPickle("0", 16, {4, 5}, {1, 1}) + ".";
    QVERIFY_THROWS_EXCEPTION(pickle::Refused, run(overlap));
}

// Class 4: small files whose reading would take gigabytes are refused before
// anything of that size is allocated or read: stride-0 views, archives that
// inflate, storage no tensor uses, settings of a model larger than the file,
// and files that are not checkpoints from their first bytes, however large.
void TestCheckpoint::refusesSmallFilesThatWouldTakeHugeMemory_data() {
    QTest::addColumn<QString>("kind");
    QTest::addColumn<QString>("problem");
    QTest::newRow("history holds a stride-0 tensor of 2^30 elements")
        << "stride-0 history" << "is refused: it holds a tensor of shape (1073741824) drawn from a storage of 1 element";
    QTest::newRow("a weight is a stride-0 view of the right shape")
        << "stride-0 weight" << "stride-0 or overlapping view";
    QTest::newRow("a deflated data.pkl of 8 MiB in a small file")
        << "deflated pickle" << "is refused: its entry archive/data.pkl would inflate from";
    QTest::newRow("entries that inflate past twice the file's size")
        << "many deflated" << "is refused: its entries would inflate to more than";
    QTest::newRow("an entry no tensor uses") << "unused entry" << "is refused: its entry archive/data/999 (1048576 bytes) is no tensor's data";
    QTest::newRow("settings of a model far larger than the file")
        << "big settings" << "is refused: its settings describe a model of";
    QTest::newRow("a 2 GiB sparse file of zeros") << "sparse" << "is not a CharGPT checkpoint";
    QTest::newRow("a 2 GiB sparse file starting with PK") << "sparse PK" << "is damaged or truncated and cannot be read";
}

void TestCheckpoint::refusesSmallFilesThatWouldTakeHugeMemory() {
    QFETCH(QString, kind);
    QFETCH(QString, problem);
    const QString path = dir_.filePath("huge.pt");
    QFile::remove(path);
    const std::vector<char> good = readBytes(goodPath_);
    auto edited = [&](const std::function<void(c10::impl::GenericDict&)>& edit) {
        c10::impl::GenericDict d = torch::pickle_load(good).toGenericDict();
        edit(d);
        const std::vector<char> v = torch::pickle_save(d);
        return QByteArray(v.data(), qsizetype(v.size()));
    };
    QByteArray bytes;
    if (kind == "stride-0 history") {
        bytes = edited([](c10::impl::GenericDict& d) {
            sub(d, "history").insert_or_assign(key("train_loss"), torch::zeros({1}).expand({int64_t(1) << 30}));
        });
    } else if (kind == "stride-0 weight") {
        bytes = edited([](c10::impl::GenericDict& d) {
            c10::impl::GenericDict model = sub(d, "model");
            const torch::Tensor w = model.at(key("lm.weight")).toTensor();
            model.insert_or_assign(key("lm.weight"), torch::zeros({1}).expand(w.sizes()));
        });
    } else if (kind == "deflated pickle") {
        bytes = makeZipOf(QList<ZipEntry>{{"archive/data.pkl", QByteArray("\x80\x02", 2) + QByteArray(8 << 20, 'N'), true},
                                        {"archive/version", "3\n", false}});
    } else if (kind == "many deflated") {
        QList<ZipEntry> entries{{"archive/data.pkl", QByteArray("\x80\x02}.", 4), false}};
        const QByteArray zeros(64 << 10, '\0');
        for (int i = 0; i < 300; ++i) entries.append({"archive/data/" + QByteArray::number(i), zeros, true});
        bytes = makeZipOf(entries);
    } else if (kind == "unused entry") {
        // The good checkpoint's entries (stored, as written) plus one more.
        bytes = stateDictArchive({{"w", 4, {2, 2}, {2, 1}}}, {{"archive/data/999", QByteArray(1 << 20, '\0'), false}});
    } else if (kind == "big settings") {
        bytes = edited([](c10::impl::GenericDict& d) {
            c10::impl::GenericDict config = sub(d, "config");
            config.insert_or_assign(key("emb_size"), int64_t(2048));
            config.insert_or_assign(key("head_size"), int64_t(64));
            config.insert_or_assign(key("n_layer"), int64_t(32));
        });
    }
    if (kind.startsWith("sparse")) {
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        if (kind == "sparse PK") f.write("PK\x03\x04", 4);
        QVERIFY(f.resize(qint64(1) << 31));  // sparse: no disk, and never read
    } else {
        QVERIFY(!bytes.isEmpty());
        QVERIFY2(bytes.size() < (2 << 20), "the file itself is small");
        QVERIFY(writeBytes(path, bytes.constData(), std::size_t(bytes.size())));
    }
    rusage before{}, after{};
    getrusage(RUSAGE_SELF, &before);
    QString message;
    const qint64 ms = millisecondsOf([&] {
        try {
            loadCheckpoint(path.toStdString());
        } catch (const Error& e) {
            message = QString::fromStdString(e.what());
        }
    });
    getrusage(RUSAGE_SELF, &after);
    QFile::remove(path);
    QVERIFY2(message.contains(problem), qPrintable(message));
    QVERIFY2(message.contains("huge.pt") || message.contains("checkpoint's"), qPrintable(message));
    QVERIFY2(!message.contains('\n'), qPrintable(message));
    QVERIFY2(ms < 5000, qPrintable(QString("took %1 ms").arg(ms)));
    const long grewMb = (after.ru_maxrss - before.ru_maxrss) / 1024;
    QVERIFY2(grewMb < 700, qPrintable(QString("the peak memory grew by %1 MB").arg(grewMb)));
}

CHARGPT_TEST_GUILESS_MAIN(TestCheckpoint)
}  // namespace tst_checkpoint
#include "tst_checkpoint.moc"
