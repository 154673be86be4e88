// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QWidget>

#include "widgets/PatchingData.h"

class QLabel;
class QLineEdit;
class QPushButton;
class ValueGrid;

// The activation patching lab: a clean and a corrupted prompt of the same
// length and a target character; Run asks for the sweeps (runRequested), Stop
// ends them (stopRequested), and the result shows as two heat maps of the
// fraction of the clean logit difference each patch restores: the residual
// stream at each layer x position, each head (all positions together) and
// each feed-forward's output at each layer x position, with a sentence saying
// what restores most. The lab only asks; whoever owns
// the model answers.
class PatchingLab : public QWidget {
    Q_OBJECT

public:
    explicit PatchingLab(QWidget* parent = nullptr);

    // The text the Preset button draws its prompts from (the corpus's
    // validation sample); none: the button is disabled.
    void setPresetSource(const QString& text);
    // The longest prompt the model reads, for the presets (and the check).
    void setContext(int characters);
    void setPrompts(const PatchingPrompts& prompts);
    PatchingPrompts prompts() const;
    // The next preset of the source, in the fields.
    void applyPreset();
    // A prompt that asked why `target` came after it (the why window's): the
    // clean prompt and one with a character changed.
    void prepareFrom(const QString& prompt, const QString& target);

    void setRunning(bool running);
    bool isRunning() const { return running_; }
    void setProgress(int done, int total);
    void setResult(const PatchingResult& result);
    const PatchingResult& result() const { return result_; }
    void showProblem(const QString& message);
    // What the result says: the residual cell that restores most, and of the
    // parts (heads, feed-forwards) the one that restores most.
    QString finding() const;
    QString message() const;

    ValueGrid* residualGrid() const { return residualGrid_; }
    ValueGrid* headGrid() const { return headGrid_; }
    ValueGrid* feedForwardGrid() const { return feedForwardGrid_; }
    QPushButton* runButton() const { return runButton_; }
    QPushButton* stopButton() const { return stopButton_; }
    QPushButton* presetButton() const { return presetButton_; }

signals:
    void runRequested(const PatchingPrompts& prompts);
    void stopRequested();

protected:
    void changeEvent(QEvent* event) override;

private:
    void retranslateUi();
    void requestRun();
    void showGrids();

    QLabel* intro_ = nullptr;
    QLabel* cleanLabel_ = nullptr;
    QLabel* corruptedLabel_ = nullptr;
    QLabel* targetLabel_ = nullptr;
    QLineEdit* clean_ = nullptr;
    QLineEdit* corrupted_ = nullptr;
    QLineEdit* target_ = nullptr;
    QPushButton* presetButton_ = nullptr;
    QPushButton* runButton_ = nullptr;
    QPushButton* stopButton_ = nullptr;
    QLabel* message_ = nullptr;
    QLabel* residualTitle_ = nullptr;
    ValueGrid* residualGrid_ = nullptr;
    QLabel* headTitle_ = nullptr;
    ValueGrid* headGrid_ = nullptr;
    QLabel* feedForwardTitle_ = nullptr;
    ValueGrid* feedForwardGrid_ = nullptr;
    QString presetSource_;
    quint32 presetSeed_ = 0;
    int context_ = 32;
    bool running_ = false;
    int done_ = 0, total_ = 0;
    QString problem_;
    PatchingResult result_;
};
