// SPDX-License-Identifier: GPL-3.0-or-later
// The switches of the network's parts in every file that keeps settings: config
// JSON, checkpoints, the run library's weights snapshots and settings, a
// state_dict's import and the export for python/train_ddp.py. Files of the
// whole model are written as before the switches existed and read as the whole
// model; a rung of the ladder keeps its switches; files that claim switches
// their weights or their layers cannot have are refused in words.
#include <torch/serialize.h>
#include <torch/torch.h>

#include "model/io/Checkpoint.h"
#include "model/io/ConfigJson.h"
#include "model/io/KeptWeightsCodec.h"
#include "model/io/PyTorchInterop.h"
#include "model/record/RunLibrary.h"
#include "model/runtime/Error.h"
#include "model/text/CharTokenizer.h"
#include "model/train/Ladder.h"
#include "model/train/RunConfig.h"
#include "model/train/RunFields.h"

#include "CheckpointFiles.h"
#include "TestProgram.h"

#include <QFile>
#include <QRegularExpression>
#include <QTemporaryDir>

#include <functional>
#include <set>
#include <string>

namespace tst_modelparts_files {

using chargpt::CharGPT;
using chargpt::Checkpoint;
using chargpt::RunConfig;
using namespace checkpoint_files;

namespace {

const char* const kSwitches[] = {"positions", "scaled_attention", "attention_projection",
                                 "feed_forward", "residual", "final_norm"};

// Rung `number` made small (width 16, context 8) over the vocabulary of a short text.
Checkpoint smallRung(int number) {
    Checkpoint c;
    c.tokenizer = chargpt::CharTokenizer::fromText(U"the ladder, 梯子.\n");
    c.config = chargpt::ladderSettings(number);
    const bool oneWideHead = c.config.head_size == c.config.emb_size;
    c.config.emb_size = 16;
    c.config.head_size = oneWideHead ? 16 : 4;
    c.config.sequence_len = 8;
    c.config.vocab_size = c.tokenizer.vocabSize();
    c.model = CharGPT(c.config);
    return c;
}

std::set<std::string> jsonKeys(const std::string& json) {
    std::set<std::string> keys;
    const QRegularExpression key(QStringLiteral("\"([a-z_0-9]+)\":"));
    auto it = key.globalMatch(QString::fromStdString(json));
    while (it.hasNext()) keys.insert(it.next().captured(1).toStdString());
    return keys;
}

QString errorOf(const std::function<void()>& f) {
    try {
        f();
    } catch (const chargpt::Error& e) {
        return QString::fromUtf8(e.what());
    }
    return QString();
}

torch::Tensor logitsOf(Checkpoint& c) {
    torch::NoGradGuard noGrad;
    c.model->eval();
    return c.model->forward(torch::arange(0, 8, torch::kInt64).remainder(c.config.vocab_size).view({1, 8}));
}

}  // namespace

class TestModelPartsFiles : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void jsonOfTheWholeModelIsUnchanged();
    void jsonKeepsTheSwitchesThatAreOff();
    void jsonRefusesSwitchesThatAreNotTrueOrFalse_data();
    void jsonRefusesSwitchesThatAreNotTrueOrFalse();
    void checkpointRoundTrip_data();
    void checkpointRoundTrip();
    void checkpointOfTheWholeModelIsUnchanged();
    void checkpointRefusesOddSwitches_data();
    void checkpointRefusesOddSwitches();
    void snapshotRoundTripAndRefusal();
    void runLibraryKeepsTheSwitches();
    void importedStateDictIsTheWholeModel();
    void exportForPythonRefusesARung();

private:
    QTemporaryDir dir_;
};

void TestModelPartsFiles::initTestCase() {
    QVERIFY(dir_.isValid());
    torch::manual_seed(7);
}

void TestModelPartsFiles::jsonOfTheWholeModelIsUnchanged() {
    // The keys files had before the switches, and only those: a file of the
    // whole model reads the same in an earlier version.
    const std::set<std::string> before = {"format", "version", "config", "vocab_size", "emb_size", "head_size",
                                          "n_layer", "sequence_len", "dropout", "weight_decay", "batch_size",
                                          "learning_rate", "min_learning_rate", "beta1", "beta2", "grad_clip",
                                          "warmup_steps", "max_steps", "time_limit_s", "eval_interval",
                                          "eval_iters", "val_fraction", "seed", "bf16"};
    for (const std::string& name : RunConfig::presetNames())
        QCOMPARE(jsonKeys(chargpt::configToJson(*RunConfig::preset(name))), before);
    QCOMPARE(jsonKeys(chargpt::configToJson(chargpt::ladderSettings(chargpt::kLadderRungs))), before);
    // And a file written before them (no switch at all) reads as the whole model.
    const std::string old = chargpt::configToJson(*RunConfig::preset("tiny"));
    QVERIFY(chargpt::configFromJson(old).isFull());
    for (const chargpt::RunField& f : chargpt::runFields())
        if (f.setting == chargpt::Setting::Parts) QVERIFY2(f.keptOnlyWhenChanged && !f.shown(), f.key);
}

void TestModelPartsFiles::jsonKeepsTheSwitchesThatAreOff() {
    for (int n = 1; n <= chargpt::kLadderRungs; ++n) {
        const RunConfig rung = chargpt::ladderSettings(n);
        const std::string json = chargpt::configToJson(rung);
        const std::set<std::string> keys = jsonKeys(json);
        for (const char* key : kSwitches) {
            const chargpt::RunField* f = chargpt::runField(key);
            QVERIFY(f);
            // Written when off (as false), left out when on.
            QCOMPARE(keys.count(key) == 1, !f->flagIn(rung));
            if (!f->flagIn(rung)) QVERIFY(json.find(std::string("\"") + key + "\": false") != std::string::npos);
        }
        const RunConfig back = chargpt::configFromJson(json);
        QVERIFY2(back.sameArchitecture(rung), rung.preset_name.c_str());
        QCOMPARE(back.missingParts(), rung.missingParts());
    }
    // A switch written as true (by hand) is the same as none.
    std::string json = chargpt::configToJson(*RunConfig::preset("fast"));
    json.replace(json.find("\"emb_size\""), 0, "\"residual\": true, ");
    QVERIFY(chargpt::configFromJson(json).residual);
}

void TestModelPartsFiles::jsonRefusesSwitchesThatAreNotTrueOrFalse_data() {
    QTest::addColumn<QString>("value");
    QTest::newRow("number") << "0";
    QTest::newRow("text") << "\"false\"";
    QTest::newRow("null") << "null";
    QTest::newRow("list") << "[false]";
}

void TestModelPartsFiles::jsonRefusesSwitchesThatAreNotTrueOrFalse() {
    QFETCH(QString, value);
    std::string json = chargpt::configToJson(*RunConfig::preset("fast"));
    json.replace(json.find("\"emb_size\""), 0, "\"feed_forward\": " + value.toStdString() + ", ");
    const QString message = errorOf([&] { chargpt::configFromJson(json); });
    QVERIFY2(message.contains(QStringLiteral("feed_forward is not true or false")), qPrintable(message));
}

void TestModelPartsFiles::checkpointRoundTrip_data() {
    QTest::addColumn<int>("rung");
    for (const chargpt::LadderRung& rung : chargpt::kLadder) QTest::newRow(rung.name) << rung.number;
}

void TestModelPartsFiles::checkpointRoundTrip() {
    QFETCH(int, rung);
    Checkpoint saved = smallRung(rung);
    const QString path = dir_.filePath(QStringLiteral("rung%1.pt").arg(rung));
    chargpt::saveCheckpoint(path.toStdString(), saved);
    Checkpoint back = chargpt::loadCheckpoint(path.toStdString());
    QVERIFY(back.config.sameArchitecture(saved.config));
    for (const char* key : kSwitches)
        QCOMPARE(chargpt::runField(key)->flagIn(back.config), chargpt::runField(key)->flagIn(saved.config));
    QVERIFY(torch::equal(logitsOf(back), logitsOf(saved)));
}

void TestModelPartsFiles::checkpointOfTheWholeModelIsUnchanged() {
    Checkpoint whole = smallRung(chargpt::kLadderRungs);
    const QString path = dir_.filePath(QStringLiteral("whole.pt"));
    chargpt::saveCheckpoint(path.toStdString(), whole);
    c10::impl::GenericDict d = torch::pickle_load(readBytes(path)).toGenericDict();
    std::set<std::string> keys;
    for (const auto& entry : sub(d, "config")) keys.insert(entry.key().toStringRef());
    for (const char* key : kSwitches) QVERIFY2(!keys.count(key), key);
    QCOMPARE(keys.size(), std::size_t(21));  // the settings files kept before the switches
    // A rung's checkpoint holds its switches and none of the weights it lacks.
    Checkpoint bigram = smallRung(1);
    const QString bigramPath = dir_.filePath(QStringLiteral("bigram.pt"));
    chargpt::saveCheckpoint(bigramPath.toStdString(), bigram);
    c10::impl::GenericDict b = torch::pickle_load(readBytes(bigramPath)).toGenericDict();
    QCOMPARE(sub(b, "config").at(key("positions")).toBool(), false);
    QCOMPARE(sub(b, "config").at(key("final_norm")).toBool(), false);
    QVERIFY(!sub(b, "config").contains(key("feed_forward")));
    std::set<std::string> weights;
    for (const auto& entry : sub(b, "model")) weights.insert(entry.key().toStringRef());
    QCOMPARE(weights, (std::set<std::string>{"lm.bias", "lm.weight", "token_emb.weight"}));
}

void TestModelPartsFiles::checkpointRefusesOddSwitches_data() {
    QTest::addColumn<int>("rung");
    QTest::addColumn<QString>("edit");
    QTest::addColumn<QString>("mentions");
    // The whole model's weights, with settings that say a part is not there.
    QTest::newRow("whole model claims no positions") << 7 << "positions=false" << "unexpected entry pos_emb";
    QTest::newRow("whole model claims no feed-forward") << 7 << "feed_forward=false" << "unexpected entry blocks.0.ff";
    // A bigram's weights, with settings that say it is the whole model.
    QTest::newRow("bigram claims the whole model") << 1 << "remove" << "settings are invalid: n_layer must be positive";
    QTest::newRow("bigram claims positions") << 1 << "positions=true" << "lacks pos_emb";
    // Switches of layers a model without layers does not have.
    QTest::newRow("no layers, no feed-forward") << 1 << "feed_forward=false" << "without layers";
    QTest::newRow("no layers, unscaled") << 1 << "scaled_attention=false" << "without layers";
    // Not true or false.
    QTest::newRow("switch is a number") << 7 << "residual=1" << "config.residual is not true or false";
    QTest::newRow("switch is text") << 2 << "residual=text" << "config.residual is not true or false";
}

void TestModelPartsFiles::checkpointRefusesOddSwitches() {
    QFETCH(int, rung);
    QFETCH(QString, edit);
    QFETCH(QString, mentions);
    const QString good = dir_.filePath(QStringLiteral("good%1.pt").arg(rung));
    chargpt::saveCheckpoint(good.toStdString(), smallRung(rung));
    c10::impl::GenericDict d = torch::pickle_load(readBytes(good)).toGenericDict();
    c10::impl::GenericDict config = sub(d, "config");
    if (edit == QLatin1String("remove")) {
        for (const char* k : kSwitches) (void)config.erase(key(k));
    } else {
        const QStringList parts = edit.split(QLatin1Char('='));
        const std::string name = parts[0].toStdString();
        if (parts[1] == QLatin1String("true") || parts[1] == QLatin1String("false"))
            config.insert_or_assign(key(name.c_str()), parts[1] == QLatin1String("true"));
        else if (parts[1] == QLatin1String("1"))
            config.insert_or_assign(key(name.c_str()), int64_t(1));
        else
            config.insert_or_assign(key(name.c_str()), parts[1].toStdString());
    }
    const std::vector<char> bytes = torch::pickle_save(d);
    const QString path = dir_.filePath(QStringLiteral("odd.pt"));
    QFile::remove(path);
    QVERIFY(writeBytes(path, bytes.data(), bytes.size()));
    const QString message = errorOf([&] { chargpt::loadCheckpoint(path.toStdString()); });
    QVERIFY2(message.contains(mentions), qPrintable(message));
}

void TestModelPartsFiles::snapshotRoundTripAndRefusal() {
    // The run library's weights of a rung read back as that rung.
    Checkpoint rung = smallRung(3);
    Checkpoint back =
        chargpt::decodeKeptWeights(chargpt::encodeKeptWeights(rung.config, rung.tokenizer, rung.model, 5));
    QVERIFY(back.config.sameArchitecture(rung.config));
    QVERIFY(!back.config.scaled_attention);
    // Settings no model can have, with a bigram's weights: refused in words.
    Checkpoint bigram = smallRung(1);
    RunConfig odd = bigram.config;
    odd.attention_projection = false;
    const std::string bytes = chargpt::encodeKeptWeights(odd, bigram.tokenizer, bigram.model, 5);
    const QString message = errorOf([&] { chargpt::decodeKeptWeights(bytes); });
    QVERIFY2(message.contains(QStringLiteral("without layers")), qPrintable(message));
    // The whole model's settings with a bigram's weights: the counts differ.
    RunConfig whole = bigram.config;
    whole.setFull();
    whole.n_layer = 1;
    const QString other = errorOf([&] {
        chargpt::decodeKeptWeights(chargpt::encodeKeptWeights(whole, bigram.tokenizer, bigram.model, 5));
    });
    QVERIFY2(other.contains(QStringLiteral("not those of the model its settings describe")), qPrintable(other));
}

void TestModelPartsFiles::runLibraryKeepsTheSwitches() {
    auto library = chargpt::RunLibrary::open(dir_.filePath(QStringLiteral("runs.sqlite")).toStdString());
    QVERIFY(library);
    auto record = [&](const RunConfig& settings) {
        chargpt::RunStart start;
        start.origin = chargpt::RunOrigin::Cli;
        start.preset = settings.preset_name;
        start.settingsJson = chargpt::configToJson(settings);
        return library->run(library->beginRun(start))->start.settingsJson;
    };
    const std::string rung = record(chargpt::ladderSettings(2));
    QVERIFY(chargpt::configFromJson(rung).sameArchitecture(chargpt::ladderSettings(2)));
    std::set<std::string> listed;
    for (const auto& [k, v] : chargpt::settingsFields(rung))
        if (k == "positions" || k == "residual" || k == "feed_forward" || k == "attention_projection" ||
            k == "final_norm" || k == "scaled_attention")
            listed.insert(k + "=" + v);
    QCOMPARE(listed, (std::set<std::string>{"attention_projection=false", "feed_forward=false", "final_norm=false",
                                            "residual=false"}));
    const std::string whole = record(*RunConfig::preset("fast"));
    for (const auto& [k, v] : chargpt::settingsFields(whole))
        for (const char* s : kSwitches) QVERIFY2(k != s, s);
}

void TestModelPartsFiles::importedStateDictIsTheWholeModel() {
    // A state_dict of the seed's CharGPT (every part), imported with the
    // training settings of a rung: the model is the whole one.
    Checkpoint whole = smallRung(chargpt::kLadderRungs);
    std::map<std::string, torch::Tensor> fused;
    for (const auto& item : whole.model->named_parameters()) fused[item.key()] = item.value().detach();
    c10::Dict<std::string, torch::Tensor> seed;
    for (const auto& [name, tensor] : chargpt::toSeedNames(fused, whole.config)) seed.insert(name, tensor);
    const std::vector<char> bytes = torch::pickle_save(seed);
    const QString path = dir_.filePath(QStringLiteral("state_dict.pt"));
    QVERIFY(writeBytes(path, bytes.data(), bytes.size()));
    Checkpoint imported =
        chargpt::importStateDict(path.toStdString(), whole.tokenizer, "the text", chargpt::ladderSettings(3));
    QVERIFY(imported.config.isFull());
    QVERIFY(imported.config.sameArchitecture(whole.config));
    QVERIFY(torch::equal(logitsOf(imported), logitsOf(whole)));
}

void TestModelPartsFiles::exportForPythonRefusesARung() {
    const QString path = dir_.filePath(QStringLiteral("config.json"));
    for (int n = 1; n < chargpt::kLadderRungs; ++n) {
        const QString message = errorOf([&] { chargpt::writeConfigJson(path.toStdString(), chargpt::ladderSettings(n)); });
        QVERIFY2(message.contains(QStringLiteral("python/train_ddp.py trains the whole CharGPT")), qPrintable(message));
        QVERIFY2(message.contains(QStringLiteral("a rung of the architecture ladder")), qPrintable(message));
        QVERIFY(!QFile::exists(path));
    }
    chargpt::writeConfigJson(path.toStdString(), chargpt::ladderSettings(chargpt::kLadderRungs));
    QVERIFY(QFile::exists(path));
}

CHARGPT_TEST_GUILESS_MAIN(TestModelPartsFiles)
}  // namespace tst_modelparts_files
#include "tst_modelparts_files.moc"
