// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QGroupBox>
#include <QMap>
#include <QStringList>

#include "widgets/StudioValues.h"

class QCheckBox;
class QComboBox;
class QFormLayout;
class QLabel;
class QWidget;

namespace chargpt {
struct RunField;
}

// Preset selector and editable model and training settings: a row for each
// field of chargpt::runFields() that has one, with the table's label, unit,
// range and key (the field's name). The panel does not judge them: the window
// checks them (with the model library) and passes back the verdict as text,
// the names of the wrong fields, and the figures shown under the form (heads,
// parameters, estimated memory).
class SettingsPanel : public QGroupBox {
    Q_OBJECT

public:
    explicit SettingsPanel(QWidget* parent = nullptr);

    // The tooltip of `field`'s row, in the language shown: its help (the
    // table's, translated in the context "RunFields", as `chargpt`'s option
    // that sets it words it in English), its range and the value a user starts
    // from (chargpt::startingValue). Empty for a field without help.
    static QString fieldToolTip(const chargpt::RunField& field);

    void setPresetNames(const QStringList& names);
    // The settings shown: the rows' fields as typed (an edited learning rate
    // keeps the floor of its decay below it), the fields no row shows as last
    // set, and the preset chosen.
    chargpt::RunConfig settings() const;
    void setSettings(const chargpt::RunConfig& settings);  // emits nothing

    // Shows the problem, marks its fields and writes the figures under the
    // form (the passes come through setPlannedPasses).
    void setAssessment(const SettingsAssessment& assessment);
    void setEditable(bool editable);
    // The largest thread count offered: the machine's cores (more only wait
    // for each other). A larger value shown drops to it; emits nothing.
    void setThreadLimit(int cores);

    // Characters of the loaded corpus that training reads (0: no corpus, the
    // passes line and its warning disappear).
    void setTrainingTokens(qint64 tokens);
    // How many times the planned run passes over the training text, as the
    // window computes it from the settings (the panel emits settingsEdited and
    // never computes it); NaN hides the line. Above `manyPasses` a warning says
    // the run will memorise the text.
    void setPlannedPasses(double passes, double manyPasses);

    // The editor of a field, by its key ("emb_size", "head_size", "n_layer", ...):
    // a QSpinBox, a WideSpinBox (the seed), a QDoubleSpinBox or a QCheckBox.
    QWidget* field(const QString& name) const { return fields_.value(name); }
    QString problemText() const;
    // The passes line and the warning under it (empty while hidden).
    QString passesText() const;
    QString passesWarningText() const;

signals:
    void presetChosen(const QString& name);
    void settingsEdited();

protected:
    void changeEvent(QEvent* event) override;

private:
    void retranslateUi();
    void refreshAssessment();
    void refreshPasses();
    QWidget* addRow(const chargpt::RunField& field);
    void edited();

    QFormLayout* form_ = nullptr;
    QComboBox* preset_ = nullptr;
    QCheckBox* bf16_ = nullptr;
    QLabel* headsLabel_ = nullptr;
    QLabel* figuresLabel_ = nullptr;
    QLabel* problemLabel_ = nullptr;
    QLabel* passesLabel_ = nullptr;
    QLabel* passesWarning_ = nullptr;
    qint64 trainingTokens_ = 0;
    double plannedPasses_ = std::numeric_limits<double>::quiet_NaN();
    double manyPasses_ = std::numeric_limits<double>::quiet_NaN();
    QMap<QString, QWidget*> fields_;
    QMap<QString, QLabel*> labels_;
    chargpt::RunConfig config_;  // what was last set: the fields no row shows
    SettingsAssessment assessment_;
    bool updating_ = false;
};
