// SPDX-License-Identifier: GPL-3.0-or-later
#include "SettingsPanel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QEvent>
#include <QFormLayout>
#include <QLabel>
#include <QLocale>
#include <QSpinBox>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <limits>

namespace {
const char* const kInvalidStyle = "background-color: #ffd6d6;";
}

SettingsPanel::SettingsPanel(QWidget* parent) : QGroupBox(parent) {
    auto* layout = new QVBoxLayout(this);
    form_ = new QFormLayout;
    form_->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    layout->addLayout(form_);

    preset_ = new QComboBox(this);
    preset_->setObjectName(QStringLiteral("preset"));
    labels_[QStringLiteral("preset")] = new QLabel(this);
    form_->addRow(labels_[QStringLiteral("preset")], preset_);

    emb_ = addSpin(QStringLiteral("emb_size"), 0, 4096);
    head_ = addSpin(QStringLiteral("head_size"), 0, 4096);
    headsLabel_ = new QLabel(this);
    headsLabel_->setObjectName(QStringLiteral("headsLabel"));
    form_->addRow(QString(), headsLabel_);
    layers_ = addSpin(QStringLiteral("n_layer"), 0, 128);
    sequence_ = addSpin(QStringLiteral("sequence_len"), 0, 4096);
    dropout_ = addDouble(QStringLiteral("dropout"), 0.0, 1.0, 2, 0.05);
    weightDecay_ = addDouble(QStringLiteral("weight_decay"), 0.0, 10.0, 2, 0.05);
    batch_ = addSpin(QStringLiteral("batch_size"), 0, 4096);
    learningRate_ = addDouble(QStringLiteral("learning_rate"), 0.0, 1.0, 5, 0.0001);
    warmup_ = addSpin(QStringLiteral("warmup_steps"), 0, 1000000);
    steps_ = addSpin(QStringLiteral("max_steps"), 0, std::numeric_limits<int>::max());
    // Beside the steps: how often the run reads each training character, and a
    // warning when that is so often it will memorise the text.
    passesLabel_ = new QLabel(this);
    passesLabel_->setObjectName(QStringLiteral("plannedPasses"));
    passesLabel_->setWordWrap(true);
    form_->addRow(QString(), passesLabel_);
    passesWarning_ = new QLabel(this);
    passesWarning_->setObjectName(QStringLiteral("passesWarning"));
    passesWarning_->setWordWrap(true);
    passesWarning_->setStyleSheet(QStringLiteral("color: #9a5b00; background-color: #fff3d6; padding: 3px;"));
    form_->addRow(passesWarning_);
    timeLimit_ = addDouble(QStringLiteral("time_limit"), 0.0, 1e7, 0, 10.0);
    seed_ = addSpin(QStringLiteral("seed"), 0, std::numeric_limits<int>::max());
    threads_ = addSpin(QStringLiteral("threads"), 0, 1024);
    bf16_ = new QCheckBox(this);
    bf16_->setObjectName(QStringLiteral("bf16"));
    labels_[QStringLiteral("bf16")] = new QLabel(this);
    fields_[QStringLiteral("bf16")] = bf16_;
    form_->addRow(labels_[QStringLiteral("bf16")], bf16_);
    connect(bf16_, &QCheckBox::toggled, this, [this] {
        if (!updating_)
            emit settingsEdited();
    });

    figuresLabel_ = new QLabel(this);
    figuresLabel_->setObjectName(QStringLiteral("figuresLabel"));
    figuresLabel_->setWordWrap(true);
    layout->addWidget(figuresLabel_);
    problemLabel_ = new QLabel(this);
    problemLabel_->setTextFormat(Qt::PlainText);  // messages name files and hold text read from them: never markup
    problemLabel_->setObjectName(QStringLiteral("settingsProblem"));
    problemLabel_->setWordWrap(true);
    problemLabel_->setStyleSheet(QStringLiteral("color: #b00020;"));
    problemLabel_->hide();
    layout->addWidget(problemLabel_);

    connect(preset_, &QComboBox::activated, this, [this](int index) {
        emit presetChosen(preset_->itemData(index).toString());
    });
    retranslateUi();
}

QSpinBox* SettingsPanel::addSpin(const QString& name, int minimum, int maximum) {
    auto* spin = new QSpinBox(this);
    spin->setObjectName(name);
    spin->setRange(minimum, maximum);
    spin->setKeyboardTracking(true);
    auto* label = new QLabel(this);
    labels_[name] = label;
    fields_[name] = spin;
    form_->addRow(label, spin);
    connect(spin, &QSpinBox::valueChanged, this, [this] {
        if (!updating_)
            emit settingsEdited();
    });
    return spin;
}

QDoubleSpinBox* SettingsPanel::addDouble(const QString& name, double minimum, double maximum, int decimals,
                                         double step) {
    auto* spin = new QDoubleSpinBox(this);
    spin->setObjectName(name);
    spin->setRange(minimum, maximum);
    spin->setDecimals(decimals);
    spin->setSingleStep(step);
    auto* label = new QLabel(this);
    labels_[name] = label;
    fields_[name] = spin;
    form_->addRow(label, spin);
    connect(spin, &QDoubleSpinBox::valueChanged, this, [this] {
        if (!updating_)
            emit settingsEdited();
    });
    return spin;
}

void SettingsPanel::setPresetNames(const QStringList& names) {
    const QString current = preset_->currentData().toString();
    preset_->clear();
    for (const QString& name : names)
        preset_->addItem(name, name);
    preset_->setCurrentIndex(std::max(0, preset_->findData(current)));
}

void SettingsPanel::setThreadLimit(int cores) {
    updating_ = true;
    threads_->setMaximum(std::max(cores, 1));
    updating_ = false;
}

StudioSettings SettingsPanel::settings() const {
    StudioSettings s;
    s.preset = preset_->currentData().toString();
    s.embSize = emb_->value();
    s.headSize = head_->value();
    s.layers = layers_->value();
    s.sequenceLen = sequence_->value();
    s.dropout = dropout_->value();
    s.weightDecay = weightDecay_->value();
    s.batchSize = batch_->value();
    s.learningRate = learningRate_->value();
    s.warmupSteps = warmup_->value();
    s.maxSteps = steps_->value();
    s.timeLimitSeconds = timeLimit_->value();
    s.seed = seed_->value();
    s.threads = threads_->value();
    s.bf16 = bf16_->isChecked();
    return s;
}

void SettingsPanel::setSettings(const StudioSettings& s) {
    updating_ = true;
    const int index = preset_->findData(s.preset);
    if (index >= 0)
        preset_->setCurrentIndex(index);
    emb_->setValue(s.embSize);
    head_->setValue(s.headSize);
    layers_->setValue(s.layers);
    sequence_->setValue(s.sequenceLen);
    dropout_->setValue(s.dropout);
    weightDecay_->setValue(s.weightDecay);
    batch_->setValue(s.batchSize);
    learningRate_->setValue(s.learningRate);
    warmup_->setValue(s.warmupSteps);
    steps_->setValue(int(std::min<qint64>(s.maxSteps, std::numeric_limits<int>::max())));
    timeLimit_->setValue(s.timeLimitSeconds);
    seed_->setValue(int(std::min<qint64>(s.seed, std::numeric_limits<int>::max())));
    threads_->setValue(s.threads);
    bf16_->setChecked(s.bf16);
    updating_ = false;
}

void SettingsPanel::setAssessment(const Assessment& assessment) {
    assessment_ = assessment;
    refreshAssessment();
}

void SettingsPanel::setEditable(bool editable) {
    for (QWidget* w : fields_)
        w->setEnabled(editable);
    preset_->setEnabled(editable);
}

void SettingsPanel::setTrainingTokens(qint64 tokens) {
    trainingTokens_ = std::max<qint64>(tokens, 0);
    refreshPasses();
}

void SettingsPanel::setPlannedPasses(double passes, double manyPasses) {
    plannedPasses_ = passes;
    manyPasses_ = manyPasses;
    refreshPasses();
}

QString SettingsPanel::passesText() const { return passesLabel_->isHidden() ? QString() : passesLabel_->text(); }

QString SettingsPanel::passesWarningText() const {
    return passesWarning_->isHidden() ? QString() : passesWarning_->text();
}

void SettingsPanel::refreshPasses() {
    const bool shown = trainingTokens_ > 0 && std::isfinite(plannedPasses_) && plannedPasses_ >= 0.0;
    form_->setRowVisible(passesLabel_, shown);
    const bool many = shown && std::isfinite(manyPasses_) && plannedPasses_ > manyPasses_;
    form_->setRowVisible(passesWarning_, many);
    if (!shown)
        return;
    const QLocale locale;
    // One decimal below 10 passes, whole passes above: "≈ 3.4", "≈ 213".
    const auto passes = [&](double value) { return locale.toString(value, 'f', value < 10.0 ? 1 : 0); };
    passesLabel_->setText(tr("≈ %1 passes over the training text").arg(passes(plannedPasses_)));
    passesLabel_->setToolTip(tr("Steps × batch size × context length ÷ the %1 characters of the training text: "
                                "how many times the run reads each of them")
                                 .arg(locale.toString(trainingTokens_)));
    if (many)
        passesWarning_->setText(tr("This run would read each training character about %1 times: it will "
                                   "memorise the text instead of learning from it. Use fewer steps or a larger "
                                   "text.")
                                    .arg(passes(plannedPasses_)));
}

QString SettingsPanel::problemText() const { return problemLabel_->isHidden() ? QString() : problemLabel_->text(); }

void SettingsPanel::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    QGroupBox::changeEvent(event);
}

void SettingsPanel::retranslateUi() {
    setTitle(tr("Model and training"));
    labels_[QStringLiteral("preset")]->setText(tr("Preset:"));
    labels_[QStringLiteral("emb_size")]->setText(tr("Embedding width:"));
    labels_[QStringLiteral("head_size")]->setText(tr("Head size:"));
    labels_[QStringLiteral("n_layer")]->setText(tr("Layers:"));
    labels_[QStringLiteral("sequence_len")]->setText(tr("Context length:"));
    labels_[QStringLiteral("dropout")]->setText(tr("Dropout:"));
    labels_[QStringLiteral("weight_decay")]->setText(tr("Weight decay:"));
    labels_[QStringLiteral("batch_size")]->setText(tr("Batch size:"));
    labels_[QStringLiteral("learning_rate")]->setText(tr("Learning rate:"));
    labels_[QStringLiteral("warmup_steps")]->setText(tr("Warm-up steps:"));
    labels_[QStringLiteral("max_steps")]->setText(tr("Steps:"));
    labels_[QStringLiteral("time_limit")]->setText(tr("Time limit:"));
    labels_[QStringLiteral("seed")]->setText(tr("Seed:"));
    labels_[QStringLiteral("threads")]->setText(tr("Threads:"));
    labels_[QStringLiteral("bf16")]->setText(tr("Precision:"));
    bf16_->setText(tr("bfloat16 matrix products"));
    bf16_->setToolTip(tr("Matrix products in bfloat16 while weights and optimizer stay float32: "
                         "about twice the training speed on CPUs with AVX-512 BF16 or AMX"));
    steps_->setToolTip(tr("Total steps of the model's training; 0 for no limit (set a time limit then). "
                          "A model that already reached it trains this many more."));
    timeLimit_->setSuffix(tr(" s"));
    timeLimit_->setSpecialValueText(tr("none"));
    threads_->setSpecialValueText(tr("one per core"));
    threads_->setToolTip(tr("Takes effect at the next start of the program"));
    weightDecay_->setToolTip(tr("How hard AdamW pulls the weight matrices towards zero at each step; more of it "
                                "keeps a model trained on a small text from memorising it"));
    emb_->setToolTip(tr("Width of the token vectors (emb_size)"));
    head_->setToolTip(tr("Width of one attention head (head_size); the width must be a multiple of it"));
    refreshAssessment();
    refreshPasses();
}

void SettingsPanel::refreshAssessment() {
    const QLocale locale;
    headsLabel_->setText(assessment_.heads > 0 ? tr("= %n attention head(s)", nullptr, assessment_.heads)
                                               : tr("= no whole number of heads"));
    figuresLabel_->setText(tr("Parameters: %1 · estimated memory: %2")
                               .arg(locale.toString(assessment_.parameters),
                                    locale.formattedDataSize(assessment_.memoryBytes)));
    for (auto it = fields_.cbegin(); it != fields_.cend(); ++it) {
        const bool bad = assessment_.badFields.contains(it.key());
        it.value()->setStyleSheet(bad ? QString::fromLatin1(kInvalidStyle) : QString());
    }
    if (assessment_.problem.isEmpty()) {
        problemLabel_->hide();
    } else {
        problemLabel_->setText(tr("Cannot start: %1").arg(assessment_.problem));
        problemLabel_->show();
    }
}
