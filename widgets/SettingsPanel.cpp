// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/SettingsPanel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QCoreApplication>
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
#include <string_view>

#include "widgets/WideSpinBox.h"
#include "model/train/RunFields.h"

namespace {

const char* const kInvalidStyle = "background-color: #ffd6d6;";

QString fieldText(const char* text) { return QCoreApplication::translate("RunFields", text); }

}  // namespace

SettingsPanel::SettingsPanel(QWidget* parent) : QGroupBox(parent) {
    auto* layout = new QVBoxLayout(this);
    form_ = new QFormLayout;
    form_->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    layout->addLayout(form_);

    preset_ = new QComboBox(this);
    preset_->setObjectName(QStringLiteral("preset"));
    labels_[QStringLiteral("preset")] = new QLabel(this);
    form_->addRow(labels_[QStringLiteral("preset")], preset_);

    for (const chargpt::RunField& field : chargpt::runFields()) {
        if (!field.shown())
            continue;
        addRow(field);
        if (field.key == std::string_view("head_size")) {
            headsLabel_ = new QLabel(this);
            headsLabel_->setObjectName(QStringLiteral("headsLabel"));
            form_->addRow(QString(), headsLabel_);
        } else if (field.key == std::string_view("max_steps")) {
            // Beside the steps: how often the run reads each training character, and a
            // warning when that is so often it will memorise the text.
            passesLabel_ = new QLabel(this);
            passesLabel_->setObjectName(QStringLiteral("plannedPasses"));
            passesLabel_->setWordWrap(true);
            form_->addRow(QString(), passesLabel_);
            passesWarning_ = new QLabel(this);
            passesWarning_->setObjectName(QStringLiteral("passesWarning"));
            passesWarning_->setWordWrap(true);
            passesWarning_->setStyleSheet(
                QStringLiteral("color: #9a5b00; background-color: #fff3d6; padding: 3px;"));
            form_->addRow(passesWarning_);
        }
    }
    bf16_ = qobject_cast<QCheckBox*>(fields_.value(QStringLiteral("bf16")));

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
    setSettings(config_);
    retranslateUi();
}

QWidget* SettingsPanel::addRow(const chargpt::RunField& field) {
    const QString name = QString::fromLatin1(field.key);
    QWidget* editor = nullptr;
    switch (field.kind) {
        case chargpt::FieldKind::Integer:
            if (field.maximum > double(std::numeric_limits<int>::max())) {
                auto* spin = new WideSpinBox(this);
                // 2^63 is a double; the largest int64_t is not.
                const bool whole = field.maximum < 9.2e18;
                spin->setRange(qint64(field.minimum),
                               whole ? qint64(field.maximum) : std::numeric_limits<qint64>::max());
                connect(spin, &WideSpinBox::valueChanged, this, &SettingsPanel::edited);
                editor = spin;
            } else {
                auto* spin = new QSpinBox(this);
                spin->setRange(int(field.minimum), int(field.maximum));
                spin->setKeyboardTracking(true);
                connect(spin, &QSpinBox::valueChanged, this, &SettingsPanel::edited);
                editor = spin;
            }
            break;
        case chargpt::FieldKind::Real: {
            auto* spin = new QDoubleSpinBox(this);
            spin->setRange(field.minimum, field.maximum);
            spin->setDecimals(field.decimals);
            spin->setSingleStep(field.step);
            connect(spin, &QDoubleSpinBox::valueChanged, this, &SettingsPanel::edited);
            editor = spin;
            break;
        }
        case chargpt::FieldKind::Flag: {
            auto* box = new QCheckBox(this);
            connect(box, &QCheckBox::toggled, this, &SettingsPanel::edited);
            editor = box;
            break;
        }
    }
    editor->setObjectName(name);
    auto* label = new QLabel(this);
    labels_[name] = label;
    fields_[name] = editor;
    form_->addRow(label, editor);
    return editor;
}

void SettingsPanel::edited() {
    if (!updating_)
        emit settingsEdited();
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
    qobject_cast<QSpinBox*>(fields_.value(QStringLiteral("threads")))->setMaximum(std::max(cores, 1));
    updating_ = false;
}

chargpt::RunConfig SettingsPanel::settings() const {
    chargpt::RunConfig s = config_;
    s.preset_name = preset_->currentData().toString().toStdString();
    for (const chargpt::RunField& field : chargpt::runFields()) {
        QWidget* editor = field.shown() ? fields_.value(QString::fromLatin1(field.key)) : nullptr;
        if (!editor)
            continue;
        if (auto* spin = qobject_cast<QSpinBox*>(editor))
            field.setInteger(s, spin->value());
        else if (auto* wide = qobject_cast<WideSpinBox*>(editor))
            field.setInteger(s, wide->value());
        else if (auto* real = qobject_cast<QDoubleSpinBox*>(editor))
            field.editReal(s, real->value());
        else if (auto* box = qobject_cast<QCheckBox*>(editor))
            field.setFlag(s, box->isChecked());
    }
    return s;
}

void SettingsPanel::setSettings(const chargpt::RunConfig& s) {
    updating_ = true;
    config_ = s;
    const int index = preset_->findData(QString::fromStdString(s.preset_name));
    if (index >= 0)
        preset_->setCurrentIndex(index);
    for (const chargpt::RunField& field : chargpt::runFields()) {
        QWidget* editor = field.shown() ? fields_.value(QString::fromLatin1(field.key)) : nullptr;
        if (!editor)
            continue;
        if (auto* spin = qobject_cast<QSpinBox*>(editor))
            spin->setValue(int(std::clamp<qint64>(field.integerIn(s), std::numeric_limits<int>::min(),
                                                  std::numeric_limits<int>::max())));
        else if (auto* wide = qobject_cast<WideSpinBox*>(editor))
            wide->setValue(field.integerIn(s));
        else if (auto* real = qobject_cast<QDoubleSpinBox*>(editor))
            real->setValue(field.realIn(s));
        else if (auto* box = qobject_cast<QCheckBox*>(editor))
            box->setChecked(field.flagIn(s));
    }
    updating_ = false;
}

void SettingsPanel::setAssessment(const SettingsAssessment& assessment) {
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

QString SettingsPanel::fieldToolTip(const chargpt::RunField& field) {
    if (!*field.help) return QString();
    const QLocale locale;
    const auto number = [&](double value) {
        if (field.kind == chargpt::FieldKind::Real)
            return locale.toString(value, 'g', QLocale::FloatingPointShortest);
        return locale.toString(value < 9.2e18 ? qint64(value) : std::numeric_limits<qint64>::max());
    };
    const QString start = number(chargpt::startingValue(field));
    return tr("%1 (from %2 to %3; default %4)")
        .arg(fieldText(field.help), number(field.minimum), number(field.maximum),
             field.presetSets ? tr("the preset's, %1 in fast").arg(start) : start);
}

void SettingsPanel::retranslateUi() {
    setTitle(tr("Model and training"));
    labels_[QStringLiteral("preset")]->setText(tr("Preset:"));
    for (const chargpt::RunField& field : chargpt::runFields()) {
        const QString name = QString::fromLatin1(field.key);
        if (QLabel* label = labels_.value(name))
            label->setText(tr("%1:").arg(fieldText(field.label)));
        if (QWidget* editor = fields_.value(name); editor && *field.help)
            editor->setToolTip(fieldToolTip(field));
        if (auto* spin = qobject_cast<QAbstractSpinBox*>(fields_.value(name)); spin && *field.unit) {
            const QString suffix = QLatin1Char(' ') + fieldText(field.unit);
            if (auto* real = qobject_cast<QDoubleSpinBox*>(spin))
                real->setSuffix(suffix);
            else if (auto* whole = qobject_cast<QSpinBox*>(spin))
                whole->setSuffix(suffix);
        }
    }
    auto editor = [this](const char* key) { return fields_.value(QLatin1String(key)); };
    bf16_->setText(tr("bfloat16 matrix products"));
    bf16_->setToolTip(
        tr("Matrix products in bfloat16 while weights and optimizer stay float32: "
           "about twice the training speed on CPUs with AVX-512 BF16 or AMX"));
    qobject_cast<QAbstractSpinBox*>(editor("time_limit_s"))->setSpecialValueText(tr("none"));
    qobject_cast<QAbstractSpinBox*>(editor("threads"))->setSpecialValueText(tr("one per core"));
    editor("threads")->setToolTip(tr("Takes effect at the next start of the program"));
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
