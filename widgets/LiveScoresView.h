// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QVector>
#include <QWidget>

#include "widgets/StudioValues.h"

class QLabel;
class QPushButton;
class QSpinBox;
class QTableView;

// The softmax lab's "From the live model" tab: the real scaled scores
// q k^T / sqrt(H) of one head for the probe text, before and after the mask,
// with their standard deviations, handed over as plain values by whoever runs
// the model.
class LiveScoresView : public QWidget {
    Q_OBJECT

public:
    explicit LiveScoresView(QWidget* parent = nullptr);

    void setModelShape(int layers, int heads);
    int layer() const;
    int head() const;
    void setHead(int layer, int head);
    void setScores(const HeadScores& scores, qint64 step);
    void showProblem(const QString& message);
    const HeadScores& scores() const { return scores_; }
    QTableView* scaledTable() const { return scaledTable_; }
    QTableView* maskedTable() const { return maskedTable_; }

signals:
    void scoresRequested(int layer, int head);

protected:
    void changeEvent(QEvent* event) override;

private:
    void retranslateUi();
    void updateFigures();

    QLabel* intro_ = nullptr;
    QLabel* layerLabel_ = nullptr;
    QSpinBox* layerSpin_ = nullptr;
    QLabel* headLabel_ = nullptr;
    QSpinBox* headSpin_ = nullptr;
    QPushButton* refreshButton_ = nullptr;
    QLabel* figuresLabel_ = nullptr;
    QLabel* scaledTitle_ = nullptr;
    QLabel* maskedTitle_ = nullptr;
    class ScoreModel;
    ScoreModel* scaledScores_ = nullptr;
    ScoreModel* maskedScores_ = nullptr;
    QTableView* scaledTable_ = nullptr;
    QTableView* maskedTable_ = nullptr;
    HeadScores scores_;
    qint64 step_ = 0;  // of the scores shown, read only with them
    QString problem_;
};
