// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QVector>
#include <QWidget>

#include <vector>

#include "model/train/HealthFigures.h"
#include "widgets/RunsData.h"

class QLabel;
class RunsCompare;
class RunsHealthCompare;
class RunsList;

// The Runs tab: every run of the run library in a list (RunsList) above the
// runs ticked there, overlaid (RunsCompare), and their training health
// (RunsHealthCompare). The curves and health of the ticked runs are asked for
// with curvesWanted and arrive through setCurves and setHealth.
class RunsPage : public QWidget {
    Q_OBJECT

public:
    explicit RunsPage(QWidget* parent = nullptr);

    RunsList* list() const { return list_; }
    RunsCompare* compare() const { return compare_; }
    RunsHealthCompare* healthCompare() const { return health_; }
    void setRuns(const QVector<RunRow>& runs);
    // Curves of compared runs; those of runs no longer ticked are dropped.
    void setCurves(const QVector<RunCurve>& curves);
    // The training health of compared runs (asked for with curvesWanted too).
    void setHealth(const QVector<qint64>& ids, const std::vector<chargpt::RunHealth>& health);
    // The library's place, or why there is none, under the title.
    void setLibraryNote(const LibraryNote& note);
    void retranslate();

signals:
    void curvesWanted(const QVector<qint64>& ids);

protected:
    void changeEvent(QEvent* event) override;

private:
    void showCompared();
    QVector<RunRow> comparedRows() const;  // the ticked runs, in the list's order

    RunsList* list_ = nullptr;
    RunsCompare* compare_ = nullptr;
    RunsHealthCompare* health_ = nullptr;
    QLabel* intro_ = nullptr;
    QLabel* note_ = nullptr;
    QVector<RunCurve> curves_;
    LibraryNote libraryNote_;
    bool noteSet_ = false;
};
