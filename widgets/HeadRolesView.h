// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QWidget>

#include <optional>

#include "widgets/InsideData.h"

class QCPItemStraightLine;
class QComboBox;
class QCustomPlot;
class QLabel;
class QPushButton;
class ValueGrid;

// Head roles over training: a previous-token or induction score (the combo
// chooses) plotted against the step, one line per head, with the score of a
// uniformly attending head dashed; beside it the layer x head heatmap of the
// score at the current step, which setCurrentStep moves, or, with a compared
// step (the timeline's A), of its change since then.
class HeadRolesView : public QWidget {
    Q_OBJECT

public:
    explicit HeadRolesView(QWidget* parent = nullptr);

    void setHeadRoles(const HeadRoles& roles);
    const HeadRoles& headRoles() const { return roles_; }
    void showProblem(const QString& message);

    // The heatmap shows the last frame at or before `step` (the newest frame
    // when no step was set).
    void setCurrentStep(qint64 step);
    // The frame the heatmap shows; -1 when there is none.
    int currentFrame() const;
    // Step A: the heatmap shows each head's change of score from A to the
    // current step (blue: fell, red: rose), when the lines hold A's scores.
    void setComparedStep(std::optional<qint64> step);
    // The frame of step A the heatmap compares with; -1 when it does not.
    int comparedFrame() const;
    HeadRole role() const;
    void setRole(HeadRole role);

    // The heatmap's tooltip for head (layer, head).
    QString toolTipText(int layer, int head) const;
    // .png, .svg (the plot beside the heatmap) or .csv (one row per step and head).
    bool exportTo(const QString& path, QString* error = nullptr) const;
    QString csv() const;

    QCustomPlot* plot() const { return plot_; }
    ValueGrid* heatmap() const { return heatmap_; }
    QComboBox* roleBox() const { return roleBox_; }
    QLabel* statusLabel() const { return status_; }
    QPushButton* exportButton() const { return exportButton_; }
    QCPItemStraightLine* chanceLine() const { return chanceLine_; }

protected:
    void changeEvent(QEvent* event) override;

private:
    void retranslateUi();
    void rebuildPlot();
    void updateHeatmap();
    void updateStatus();

    HeadRoles roles_;
    std::optional<qint64> currentStep_;  // setCurrentStep's; none: the newest frame
    std::optional<qint64> comparedStep_;
    QString problem_;
    QLabel* explanation_ = nullptr;
    QLabel* roleLabel_ = nullptr;
    QComboBox* roleBox_ = nullptr;
    QLabel* status_ = nullptr;
    QPushButton* exportButton_ = nullptr;
    QCustomPlot* plot_ = nullptr;
    QCPItemStraightLine* chanceLine_ = nullptr;
    QCPItemStraightLine* stepLine_ = nullptr;
    ValueGrid* heatmap_ = nullptr;
};
