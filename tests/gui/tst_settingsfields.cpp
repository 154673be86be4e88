// SPDX-License-Identifier: GPL-3.0-or-later
// The settings' table of fields (model/train/RunFields.h) walked field by
// field: each one round-trips through the settings panel, the app's QSettings,
// config JSON, a checkpoint and the run library; the panel's rows, ranges and
// defaults are the table's; and settings, config JSON and checkpoints as
// earlier versions wrote them (made here from literal keys) still load.
#include <torch/torch.h>

#include <QCheckBox>
#include <QDoubleSpinBox>
#include <QFile>
#include <QLabel>
#include <QSettings>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTest>

#include <cstdint>
#include <fstream>
#include <limits>
#include <iterator>
#include <string>

#include "app/ModelBridge.h"
#include "widgets/SettingsPanel.h"
#include "TestProgram.h"
#include "widgets/WideSpinBox.h"
#include "model/io/Checkpoint.h"
#include "model/io/ConfigJson.h"
#include "model/record/RunLibrary.h"
#include "model/train/RunFields.h"

namespace tst_settingsfields {

using chargpt::FieldKind;
using chargpt::RunConfig;
using chargpt::RunField;

namespace {

// A value of its own in every field, none the default, all of them together
// settings a model can be built from (emb 48 = 4 heads of 12; every part of
// the network switched off, as no rung of the ladder has it).
RunConfig unusualSettings() {
    RunConfig c;
    c.preset_name = "tiny";
    c.vocab_size = 37;
    c.emb_size = 48;
    c.head_size = 12;
    c.n_layer = 3;
    c.sequence_len = 24;
    c.positions = c.scaled_attention = c.attention_projection = c.feed_forward = c.residual = c.final_norm = false;
    c.activation = chargpt::ModelConfig::Relu;
    c.qkv_bias = c.tied_head = true;
    c.biases = c.head_bias = false;
    c.dropout = 0.15;
    c.weight_decay = 0.35;
    c.batch_size = 7;
    c.learning_rate = 0.00425;
    c.min_learning_rate = 0.0002;
    c.beta1 = 0.85;
    c.beta2 = 0.975;
    c.grad_clip = 0.5;
    c.warmup_steps = 13;
    c.max_steps = 777;
    c.time_limit_s = 90.0;
    c.eval_interval = 33;
    c.eval_iters = 5;
    c.val_fraction = 0.15;
    c.seed = (uint64_t(1) << 40) + 5;  // beyond an int
    c.threads = 3;
    c.bf16 = true;
    return c;
}

QString valueText(const RunField& f, const RunConfig& c) {
    switch (f.kind) {
        case FieldKind::Integer: return QString::number(f.integerIn(c));
        case FieldKind::Real: return QString::number(f.realIn(c), 'g', 17);
        case FieldKind::Flag: return f.flagIn(c) ? QStringLiteral("true") : QStringLiteral("false");
    }
    return QString();
}

// Fails naming the field and both values.
#define COMPARE_FIELD(f, got, expected)                                                                      \
    QVERIFY2((f).same(got, expected), qPrintable(QStringLiteral("%1: %2, expected %3")                        \
                                                     .arg(QLatin1String((f).key), valueText(f, got),            \
                                                          valueText(f, expected))))

// A model with these settings over a small vocabulary, as a checkpoint.
chargpt::Checkpoint checkpointOf(RunConfig config) {
    chargpt::Checkpoint checkpoint;
    checkpoint.tokenizer = chargpt::CharTokenizer::fromText(U"abcdefgh ");
    config.vocab_size = checkpoint.tokenizer.vocabSize();
    checkpoint.config = config;
    torch::manual_seed(3);
    checkpoint.model = chargpt::CharGPT(config);
    return checkpoint;
}

std::string readBytes(const QString& path) {
    std::ifstream in(path.toStdString(), std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

}  // namespace

class TestSettingsFields : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void tableIsComplete();
    void panelRowsAreTheTable();
    void panelStartsFromTheDefaults();
    void everyFieldThroughThePanel();
    void aModelsLargestShapeIsShownAsItIs();
    void everyFieldThroughQSettings();
    void everyFieldThroughJson();
    void everyFieldThroughACheckpoint();
    void everyFieldThroughTheRunLibrary();
    void oldQSettingsEntriesLoad();
    void oldConfigJsonLoads();
    void oldCheckpointLoads();

private:
    QTemporaryDir dir_;
};

void TestSettingsFields::initTestCase() { QVERIFY(dir_.isValid()); }

void TestSettingsFields::tableIsComplete() {
    // Every key once, with a label, a default within its range, and a row
    // that exists; every member of RunConfig but preset_name (33) is a field.
    QStringList keys;
    for (const RunField& f : chargpt::runFields()) {
        QVERIFY2(!keys.contains(QLatin1String(f.key)), f.key);
        keys << QLatin1String(f.key);
        QVERIFY2(*f.label, f.key);
        QVERIFY2(f.minimum <= f.defaultValue() && f.defaultValue() <= f.maximum, f.key);
        QVERIFY2(!*f.row || chargpt::runField(f.row), f.key);
    }
    QCOMPARE(keys.size(), 33);
    // Each field differs from its default in unusualSettings(), so that the
    // round trips below cannot pass by finding the default.
    const RunConfig unusual = unusualSettings();
    for (const RunField& f : chargpt::runFields())
        QVERIFY2(!f.same(unusual, RunConfig()), f.key);
}

void TestSettingsFields::panelRowsAreTheTable() {
    SettingsPanel panel;
    for (const RunField& f : chargpt::runFields()) {
        QWidget* editor = panel.field(QLatin1String(f.key));
        QCOMPARE(editor != nullptr, f.shown());
        if (!editor)
            continue;
        if (auto* spin = qobject_cast<QSpinBox*>(editor)) {
            QCOMPARE(double(spin->minimum()), f.minimum);
            QCOMPARE(double(spin->maximum()), f.maximum);
        } else if (auto* wide = qobject_cast<WideSpinBox*>(editor)) {
            QCOMPARE(double(wide->minimum()), f.minimum);
            QCOMPARE(double(wide->maximum()), f.maximum);
        } else if (auto* real = qobject_cast<QDoubleSpinBox*>(editor)) {
            QCOMPARE(real->minimum(), f.minimum);
            QCOMPARE(real->maximum(), f.maximum);
            QCOMPARE(real->decimals(), f.decimals);
            QCOMPARE(real->singleStep(), f.step);
            if (*f.unit)
                QVERIFY2(real->suffix().contains(QLatin1String(f.unit)), f.key);
        } else {
            QVERIFY2(qobject_cast<QCheckBox*>(editor), f.key);
            QCOMPARE(f.kind, FieldKind::Flag);
        }
    }
    // Each row's label is the table's.
    QStringList labels;
    for (const QLabel* label : panel.findChildren<QLabel*>())
        labels << label->text();
    for (const RunField& f : chargpt::runFields())
        if (f.shown())
            QVERIFY2(labels.contains(QLatin1String(f.label) + QLatin1Char(':')), f.label);
}

void TestSettingsFields::panelStartsFromTheDefaults() {
    SettingsPanel panel;
    const RunConfig shown = panel.settings();
    for (const RunField& f : chargpt::runFields())
        COMPARE_FIELD(f, shown, RunConfig());
    // The documented defaults (README, "Presets": nanoGPT's CPU recipe that
    // `fast` starts from) are the table's.
    QCOMPARE(chargpt::runField("n_layer")->defaultValue(), 4.0);
    QCOMPARE(chargpt::runField("batch_size")->defaultValue(), 12.0);
    QCOMPARE(chargpt::runField("learning_rate")->defaultValue(), 1e-3);
    // The window starts from the `fast` preset, a named preset, not from other defaults.
    QCOMPARE(presetSettings(QStringLiteral("no-such-preset")).preset_name, std::string("fast"));
}

void TestSettingsFields::everyFieldThroughThePanel() {
    SettingsPanel panel;
    panel.setPresetNames(presetNames());
    const RunConfig unusual = unusualSettings();
    panel.setSettings(unusual);
    const RunConfig back = panel.settings();
    QCOMPARE(back.preset_name, unusual.preset_name);
    for (const RunField& f : chargpt::runFields())
        COMPARE_FIELD(f, back, unusual);  // the rows' fields and the ones no row shows

    // Set in its row, read back: each field alone changes.
    for (const RunField& f : chargpt::runFields()) {
        QWidget* editor = panel.field(QLatin1String(f.key));
        if (!editor)
            continue;
        panel.setSettings(unusual);
        RunConfig expected = unusual;
        if (auto* spin = qobject_cast<QSpinBox*>(editor)) {
            spin->setValue(int(f.minimum) + 2);
            f.setInteger(expected, int64_t(f.minimum) + 2);
        } else if (auto* wide = qobject_cast<WideSpinBox*>(editor)) {
            wide->setValue(std::numeric_limits<qint64>::max() - 1);
            f.setInteger(expected, std::numeric_limits<int64_t>::max() - 1);
        } else if (auto* real = qobject_cast<QDoubleSpinBox*>(editor)) {
            real->setValue(f.minimum + 2 * f.step);
            f.editReal(expected, real->value());
        } else if (auto* box = qobject_cast<QCheckBox*>(editor)) {
            box->setChecked(!f.flagIn(unusual));
            f.setFlag(expected, !f.flagIn(unusual));
        }
        QVERIFY2(!f.same(expected, unusual), f.key);
        const RunConfig edited = panel.settings();
        for (const RunField& other : chargpt::runFields())
            COMPARE_FIELD(other, edited, expected);
    }
}

// A checkpoint's shape within what every loader accepts (a context of 16,384,
// 1,024 layers) is shown as it is: the spin boxes once stopped at 4,096 and
// 128 without a word, and the panel then held settings of another model.
void TestSettingsFields::aModelsLargestShapeIsShownAsItIs() {
    SettingsPanel panel;
    panel.setPresetNames(presetNames());
    RunConfig large = unusualSettings();
    large.sequence_len = chargpt::ModelConfig::kMaxContext;
    large.n_layer = chargpt::ModelConfig::kMaxLayers;
    large.emb_size = chargpt::ModelConfig::kMaxWidth;
    large.head_size = chargpt::ModelConfig::kMaxWidth / 4;
    panel.setSettings(large);
    const RunConfig back = panel.settings();
    QCOMPARE(back.sequence_len, large.sequence_len);
    QCOMPARE(back.n_layer, large.n_layer);
    QCOMPARE(back.emb_size, large.emb_size);
    QCOMPARE(back.head_size, large.head_size);
    large.sequence_len = 16384;
    panel.setSettings(large);
    QCOMPARE(qobject_cast<QSpinBox*>(panel.field(QStringLiteral("sequence_len")))->value(), 16384);
}

void TestSettingsFields::everyFieldThroughQSettings() {
    const QString path = dir_.filePath(QStringLiteral("roundtrip.ini"));
    const RunConfig unusual = unusualSettings();
    {
        QSettings store(path, QSettings::IniFormat);
        storeSettings(store, unusual);
    }
    const QSettings store(path, QSettings::IniFormat);
    const RunConfig back = loadSettings(store);
    QCOMPARE(back.preset_name, unusual.preset_name);
    for (const RunField& f : chargpt::runFields()) {
        QCOMPARE(store.contains(QStringLiteral("settings/") + QLatin1String(f.key)), f.remembered);
        if (f.remembered)
            COMPARE_FIELD(f, back, unusual);
    }
}

void TestSettingsFields::everyFieldThroughJson() {
    const RunConfig unusual = unusualSettings();
    const RunConfig back = chargpt::configFromJson(chargpt::configToJson(unusual));
    for (const RunField& f : chargpt::runFields())
        if (f.inFiles)
            COMPARE_FIELD(f, back, unusual);
    // The program's own thread count is in no file of a run.
    QVERIFY(chargpt::configToJson(unusual).find("\"threads\"") == std::string::npos);
}

void TestSettingsFields::everyFieldThroughACheckpoint() {
    const chargpt::Checkpoint saved = checkpointOf(unusualSettings());
    const QString path = dir_.filePath(QStringLiteral("roundtrip.pt"));
    chargpt::saveCheckpoint(path.toStdString(), saved);
    const chargpt::Checkpoint back = chargpt::loadCheckpoint(path.toStdString());
    for (const RunField& f : chargpt::runFields())
        if (f.inFiles)
            COMPARE_FIELD(f, back.config, saved.config);
}

void TestSettingsFields::everyFieldThroughTheRunLibrary() {
    const RunConfig unusual = unusualSettings();
    auto library = chargpt::RunLibrary::open(dir_.filePath(QStringLiteral("runs.sqlite")).toStdString());
    QVERIFY(library);
    chargpt::RunStart start;
    start.origin = chargpt::RunOrigin::App;
    start.preset = unusual.preset_name;
    start.settingsJson = chargpt::configToJson(unusual);  // as runStartOf stores them
    const int64_t id = library->beginRun(start);
    const auto run = library->run(id);
    QVERIFY(run.has_value());
    const RunConfig back = chargpt::configFromJson(run->start.settingsJson);
    for (const RunField& f : chargpt::runFields())
        if (f.inFiles)
            COMPARE_FIELD(f, back, unusual);
    // The Runs tab's fields: every file key, in the table's order.
    QStringList listed, expected;
    for (const auto& [key, value] : chargpt::settingsFields(run->start.settingsJson))
        listed << QString::fromStdString(key);
    for (const RunField& f : chargpt::runFields())
        if (f.inFiles)
            expected << QLatin1String(f.key);
    QCOMPARE(listed, expected);
}

void TestSettingsFields::oldQSettingsEntriesLoad() {
    // As the app stored its settings before the table: the panel's fields
    // only, the time limit as `time_limit`.
    const QString path = dir_.filePath(QStringLiteral("old.ini"));
    auto write = [&path](const QByteArray& text) {
        QFile file(path);
        QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
        file.write(text);
    };
    const QByteArray old = "[settings]\n"
                           "preset=tiny\nemb_size=48\nhead_size=12\nn_layer=3\nsequence_len=24\ndropout=0.15\n"
                           "weight_decay=0.35\nbatch_size=7\nlearning_rate=0.00425\nwarmup_steps=13\n"
                           "max_steps=777\ntime_limit=90\nseed=123456\nthreads=3\nbf16=true\n";
    write(old);
    {
        const QSettings store(path, QSettings::IniFormat);
        const RunConfig loaded = loadSettings(store);
        QCOMPARE(loaded.preset_name, std::string("tiny"));
        QCOMPARE(loaded.emb_size, int64_t(48));
        QCOMPARE(loaded.head_size, int64_t(12));
        QCOMPARE(loaded.n_layer, int64_t(3));
        QCOMPARE(loaded.sequence_len, int64_t(24));
        QCOMPARE(loaded.dropout, 0.15);
        QCOMPARE(loaded.weight_decay, 0.35);
        QCOMPARE(loaded.batch_size, int64_t(7));
        QCOMPARE(loaded.learning_rate, 0.00425);
        QCOMPARE(loaded.warmup_steps, int64_t(13));
        QCOMPARE(loaded.max_steps, int64_t(777));
        QCOMPARE(loaded.time_limit_s, 90.0);
        QCOMPARE(loaded.seed, uint64_t(123456));
        QCOMPARE(loaded.threads, int64_t(3));
        QVERIFY(loaded.bf16);
        // What they did not keep is the preset's, the learning rate's floor below it.
        const RunConfig tiny = *RunConfig::preset("tiny");
        QCOMPARE(loaded.eval_iters, tiny.eval_iters);
        QCOMPARE(loaded.min_learning_rate, tiny.min_learning_rate);
        QVERIFY(loaded.min_learning_rate <= loaded.learning_rate / 10);
        QVERIFY(!loaded.validate());
    }
    // The newer key wins where both are there; storing leaves only it.
    write(old + "time_limit_s=45\n");
    {
        QSettings store(path, QSettings::IniFormat);
        const RunConfig loaded = loadSettings(store);
        QCOMPARE(loaded.time_limit_s, 45.0);
        storeSettings(store, loaded);
        QVERIFY(!store.contains(QStringLiteral("settings/time_limit")));
        QCOMPARE(store.value(QStringLiteral("settings/time_limit_s")).toDouble(), 45.0);
    }
    // Only a preset stored (or nothing): the preset as it is.
    write("[settings]\npreset=book\n");
    {
        const QSettings store(path, QSettings::IniFormat);
        const RunConfig loaded = loadSettings(store);
        const RunConfig book = *RunConfig::preset("book");
        for (const RunField& f : chargpt::runFields())
            COMPARE_FIELD(f, loaded, book);
    }
}

void TestSettingsFields::oldConfigJsonLoads() {
    // As `chargpt export-config` and the app wrote it before the table (the
    // weight decay after the learning rates), before bf16 was a setting and
    // before the network's parts had switches (the whole model).
    const std::string old = R"({
  "format": "chargpt-config",
  "version": 1,
  "config": {
    "vocab_size": 0,
    "emb_size": 48,
    "head_size": 12,
    "n_layer": 3,
    "sequence_len": 24,
    "dropout": 0.15,
    "batch_size": 7,
    "learning_rate": 0.00425,
    "min_learning_rate": 0.0002,
    "weight_decay": 0.35,
    "beta1": 0.85,
    "beta2": 0.975,
    "grad_clip": 0.5,
    "warmup_steps": 13,
    "max_steps": 777,
    "time_limit_s": 90.0,
    "eval_interval": 33,
    "eval_iters": 5,
    "val_fraction": 0.15,
    "seed": 1099511627781,
    "bf16": true
  }
}
)";
    RunConfig expected = unusualSettings();
    expected.vocab_size = 0;
    expected.setFull();
    expected.setBookArithmetic();  // earlier versions had no other
    const RunConfig loaded = chargpt::configFromJson(old);
    for (const RunField& f : chargpt::runFields())
        if (f.inFiles)
            COMPARE_FIELD(f, loaded, expected);

    std::string older = old;
    older.replace(older.find(",\n    \"bf16\": true"), std::string(",\n    \"bf16\": true").size(), "");
    QVERIFY(!chargpt::configFromJson(older).bf16);  // the default
    // Not settings: refused with a reason.
    QVERIFY_THROWS_EXCEPTION(chargpt::Error, chargpt::configFromJson(R"({"format": "other"})"));
    // A "format" of the wrong type is the same refusal, never a JSON library's exception.
    for (const char* format : {"{}", "[]", "1", "null", "true"}) {
        const std::string doc = std::string("{\"format\": ") + format + ", \"config\": {}}";
        QVERIFY_THROWS_EXCEPTION(chargpt::Error, chargpt::configFromJson(doc));
    }
    std::string noWidth = old;
    noWidth.replace(noWidth.find("\"emb_size\": 48,"), std::string("\"emb_size\": 48,").size(), "");
    QVERIFY_THROWS_EXCEPTION(chargpt::Error, chargpt::configFromJson(noWidth));
}

void TestSettingsFields::oldCheckpointLoads() {
    // A checkpoint whose config is the dict earlier versions wrote, key by key
    // in their order (the weights and the rest as a checkpoint has them), of
    // the whole model: earlier versions had no other.
    RunConfig whole = unusualSettings();
    whole.setFull();
    whole.setBookArithmetic();
    const chargpt::Checkpoint model = checkpointOf(whole);
    const QString modern = dir_.filePath(QStringLiteral("modern.pt"));
    chargpt::saveCheckpoint(modern.toStdString(), model);
    const std::string bytes = readBytes(modern);
    c10::IValue root = torch::pickle_load(std::vector<char>(bytes.begin(), bytes.end()));
    QVERIFY(root.isGenericDict());

    auto oldConfig = [](bool withBf16) {
        c10::impl::GenericDict d(c10::StringType::get(), c10::AnyType::get());
        d.insert("vocab_size", int64_t(10));
        d.insert("emb_size", int64_t(48));
        d.insert("head_size", int64_t(12));
        d.insert("n_layer", int64_t(3));
        d.insert("sequence_len", int64_t(24));
        d.insert("dropout", 0.15);
        d.insert("batch_size", int64_t(7));
        d.insert("learning_rate", 0.00425);
        d.insert("min_learning_rate", 0.0002);
        d.insert("weight_decay", 0.35);
        d.insert("beta1", 0.85);
        d.insert("beta2", 0.975);
        d.insert("grad_clip", 0.5);
        d.insert("warmup_steps", int64_t(13));
        d.insert("max_steps", int64_t(777));
        d.insert("time_limit_s", 90.0);
        d.insert("eval_interval", int64_t(33));
        d.insert("eval_iters", int64_t(5));
        d.insert("val_fraction", 0.15);
        d.insert("seed", int64_t(1099511627781));
        if (withBf16)
            d.insert("bf16", true);
        return d;
    };
    QCOMPARE(model.tokenizer.vocabSize(), int64_t(10));
    for (const bool withBf16 : {true, false}) {
        c10::impl::GenericDict dict = root.toGenericDict();
        dict.insert_or_assign("config", oldConfig(withBf16));
        const std::vector<char> old = torch::pickle_save(c10::IValue(dict));
        const QString path = dir_.filePath(QStringLiteral("old.pt"));
        {
            std::ofstream out(path.toStdString(), std::ios::binary | std::ios::trunc);
            out.write(old.data(), std::streamsize(old.size()));
        }
        const chargpt::Checkpoint loaded = chargpt::loadCheckpoint(path.toStdString());
        RunConfig expected = model.config;
        expected.bf16 = withBf16;
        for (const RunField& f : chargpt::runFields())
            if (f.inFiles)
                COMPARE_FIELD(f, loaded.config, expected);
    }
}

CHARGPT_TEST_MAIN(TestSettingsFields)
}  // namespace tst_settingsfields
#include "tst_settingsfields.moc"
