// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QDialog>
#include <QString>

#include "model/session/LearningRateFinder.h"

class Plot;
class QCPGraph;
class QCPItemStraightLine;
class QLabel;
class QPushButton;

// The learning-rate finder's window, opened from the Training tab: Find
// sweeps a new model of the current settings from a tiny learning rate to a
// large one (the run being trained is never touched), the smoothed loss is
// drawn against the rate on a log axis as it comes, the suggestions (the
// steepest fall, and a tenth of the lowest point) are marked, and "Use this
// rate" puts the suggestion in the settings. Exported like the other plots.
class LearningRateView : public QDialog {
    Q_OBJECT

public:
    explicit LearningRateView(QWidget* parent = nullptr);

    // A sweep runs (Find becomes Stop) or not.
    void setRunning(bool running);
    void clear();
    void addStep(qint64 step, double rate, double loss);
    void showFinding(const chargpt::LearningRateFinding& finding);
    void showFailure(const QString& why);

    double suggestedRate() const { return suggested_; }
    bool exportTo(const QString& path, QString* error = nullptr) const;
    QString csvText() const;
    // For tests.
    Plot* plot() const { return plot_; }
    QCPGraph* smoothedGraph() const { return smoothed_; }
    QCPItemStraightLine* suggestionLine() const { return suggestionLine_; }
    QPushButton* findButton() const { return findButton_; }
    QPushButton* useButton() const { return useButton_; }
    QString summaryText() const;

signals:
    void findRequested();
    void stopRequested();
    void rateChosen(double rate);

protected:
    void changeEvent(QEvent* event) override;

private:
    void retranslate();
    void chooseExportFile();
    void fit();

    Plot* plot_ = nullptr;
    QCPGraph* raw_ = nullptr;
    QCPGraph* smoothed_ = nullptr;
    QCPItemStraightLine* steepestLine_ = nullptr;
    QCPItemStraightLine* suggestionLine_ = nullptr;
    QLabel* intro_ = nullptr;
    QLabel* summary_ = nullptr;
    QPushButton* findButton_ = nullptr;
    QPushButton* useButton_ = nullptr;
    QPushButton* exportButton_ = nullptr;
    bool running_ = false;
    chargpt::LearningRateFinding finding_;
    double suggested_ = 0.0;
    double smoothing_ = 0.98;
    double average_ = 0.0;
    int seen_ = 0;
    QString failure_;
};
