// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QWidget>

#include "widgets/InsideLayersData.h"

class QComboBox;
class QLabel;
class QPushButton;
class ValueGrid;

// A layer's feed-forward on the probe: a characters x neurons heatmap of the
// hidden activations after the GELU (the neurons that fire hardest first),
// the characters of the validation text that fire a neuron most (the one
// under the pointer, else the first), and the check that it treats every
// position alike. It only shows a FeedForwardProbeData.
class FeedForwardView : public QWidget {
    Q_OBJECT

public:
    explicit FeedForwardView(QWidget* parent = nullptr);

    void setProbe(const FeedForwardProbeData& probe);
    const FeedForwardProbeData& probe() const { return probe_; }
    // Why there is nothing to show (replaces the status line).
    void showProblem(const QString& message);
    // The layer shown, from 0; -1 when none.
    int layer() const;
    void setLayer(int layer);
    // The neuron whose examples are listed: column `column` of the heatmap.
    void showNeuron(int column);

    QString toolTipText(int position, int column) const;
    // "Neuron 12 fires most on …", the examples' line.
    QString examplesText() const;
    QString checkText() const;

    // The layer shown, with its examples and check, as a PNG, SVG or PDF
    // picture, or every layer's activations as CSV (by the suffix of `path`);
    // false with `error` set when nothing is shown or the file cannot be
    // written.
    bool exportTo(const QString& path, QString* error = nullptr) const;
    // layer,neuron,position,character,activation: every layer's neurons shown,
    // numbered from 1.
    QString csv() const;

    ValueGrid* grid() const { return grid_; }
    QComboBox* layerBox() const { return layerBox_; }
    QPushButton* exportButton() const { return exportButton_; }
    QLabel* statusLabel() const { return status_; }
    QLabel* examplesLabel() const { return examples_; }
    QLabel* checkLabel() const { return check_; }

protected:
    void changeEvent(QEvent* event) override;

private:
    void retranslateUi();
    void fillLayers();
    void updateView();

    QLabel* explanation_ = nullptr;
    QLabel* status_ = nullptr;
    QComboBox* layerBox_ = nullptr;
    QPushButton* exportButton_ = nullptr;
    ValueGrid* grid_ = nullptr;
    QLabel* examples_ = nullptr;
    QLabel* check_ = nullptr;
    FeedForwardProbeData probe_;
    QString problem_;
    int column_ = 0;
};
