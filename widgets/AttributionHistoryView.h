// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QVector>
#include <QWidget>

#include <optional>
#include <utility>

#include "widgets/AttributionData.h"

class QCustomPlot;
class QLabel;
class QPushButton;
class QTableWidget;

// The why window's time machine: for the clicked character, its logit and
// the share of the parts that matter most at any kept step (a line each,
// against the step), so a head "switching on" shows as its line rising; with
// the timeline's step A marked, what changed between A and the step shown (B),
// part by part, in a table under the lines. Stop (stopRequested) ends a long
// request; the view only asks.
class AttributionHistoryView : public QWidget {
    Q_OBJECT

public:
    explicit AttributionHistoryView(QWidget* parent = nullptr);

    void setHistory(const AttributionHistory& history);
    const AttributionHistory& history() const { return history_; }
    // The indexes into history().parts drawn, largest peak |share| first (at most kLines).
    QVector<int> shownParts() const;
    QString summary() const;
    QCustomPlot* plot() const { return plot_; }

    // The timeline's marked step A and the step shown B (none: no table).
    void setMarks(std::optional<qint64> a, std::optional<qint64> b);
    // One part's share at A and at B: the kept steps measured nearest to the marks.
    struct Change {
        int part = 0;  // into history().parts
        double a = 0.0, b = 0.0;
        double difference() const { return b - a; }
    };
    // The parts that changed most between A and B, largest |B - A| first (at
    // most kChanges); none without both marks or a history.
    QVector<Change> changes() const;
    // The measured steps compared, or -1 each when there is no comparison.
    std::pair<qint64, qint64> comparedSteps() const;
    QTableWidget* changeTable() const { return changeTable_; }

    void setRunning(bool running);
    bool isRunning() const { return running_; }
    QPushButton* stopButton() const { return stopButton_; }

    static constexpr int kLines = 6;
    static constexpr int kChanges = 6;

signals:
    void stopRequested();

protected:
    void changeEvent(QEvent* event) override;

private:
    void retranslateUi();
    void draw();
    void fillChanges();
    int nearestMeasured(qint64 step) const;

    AttributionHistory history_;
    std::optional<qint64> markA_, markB_;
    bool running_ = false;
    QLabel* summary_ = nullptr;
    QPushButton* stopButton_ = nullptr;
    QCustomPlot* plot_ = nullptr;
    QLabel* changeTitle_ = nullptr;
    QTableWidget* changeTable_ = nullptr;
};
