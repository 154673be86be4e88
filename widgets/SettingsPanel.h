// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QGroupBox>
#include <QMap>
#include <QStringList>

#include "StudioValues.h"

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QFormLayout;
class QLabel;
class QSpinBox;
class QWidget;

// Preset selector and editable model and training settings. The panel does not
// judge them: the window checks them (with the model library) and passes back
// the verdict as text, the names of the wrong fields, and the figures shown
// under the form (heads, parameters, estimated memory).
class SettingsPanel : public QGroupBox {
    Q_OBJECT

public:
    explicit SettingsPanel(QWidget* parent = nullptr);

    void setPresetNames(const QStringList& names);
    StudioSettings settings() const;
    void setSettings(const StudioSettings& settings);  // emits nothing

    struct Assessment {
        QString problem;        // empty when fine
        QStringList badFields;  // e.g. "emb_size", "head_size"
        int heads = 0;
        qint64 parameters = 0;
        qint64 memoryBytes = 0;
    };
    void setAssessment(const Assessment& assessment);
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

    // The spin box of a field ("emb_size", "head_size", "n_layer", ...), for tests.
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
    QSpinBox* addSpin(const QString& name, int minimum, int maximum);
    QDoubleSpinBox* addDouble(const QString& name, double minimum, double maximum, int decimals, double step);

    QFormLayout* form_ = nullptr;
    QComboBox* preset_ = nullptr;
    QSpinBox *emb_ = nullptr, *head_ = nullptr, *layers_ = nullptr, *sequence_ = nullptr, *batch_ = nullptr,
             *warmup_ = nullptr, *steps_ = nullptr, *seed_ = nullptr, *threads_ = nullptr;
    QCheckBox* bf16_ = nullptr;
    QDoubleSpinBox *dropout_ = nullptr, *weightDecay_ = nullptr, *learningRate_ = nullptr, *timeLimit_ = nullptr;
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
    Assessment assessment_;
    bool updating_ = false;
};
