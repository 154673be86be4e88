// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The architecture ladder in the window: one chart of each rung's best
// validation loss beside the uniform, unigram and bigram floors (the rung
// in training as a hollow marker at its current loss), a sentence saying
// what the numbers show (LadderText.h), and a table of the rungs. Fed plain
// values (LadderData.h); its button asks for the ladder to train.

#include <QVector>
#include <QWidget>

#include "widgets/LadderData.h"

class QCustomPlot;
class QCPGraph;
class QCPItemStraightLine;
class QCPItemText;
class QLabel;
class QPushButton;
class QTableWidget;

class LadderView : public QWidget {
    Q_OBJECT

public:
    explicit LadderView(QWidget* parent = nullptr);

    // A new ladder: the floors of its validation text, no rungs yet.
    void start(const LadderFloors& floors);
    // Rung `rung.number` as it is now (added, or replacing what it was).
    void setRung(const LadderRungData& rung);
    // Whether the button may ask for a ladder (not while anything trains).
    void setStartEnabled(bool on);
    void retranslate();

    const LadderFloors& floors() const { return floors_; }
    const QVector<LadderRungData>& rungs() const { return rungs_; }
    QCustomPlot* chart() const { return plot_; }
    QTableWidget* table() const { return table_; }
    QPushButton* startButton() const { return startButton_; }
    QString lesson() const;
    // The finished rungs' points (x: rung number, y: best loss) and the
    // rung in training's (its current loss), as drawn.
    QVector<QPointF> bestPoints() const;
    QVector<QPointF> livePoints() const;
    // The floors' heights as drawn, uniform, unigram, bigram (NaN: not drawn).
    QVector<double> floorLines() const;

signals:
    void startRequested();

protected:
    void changeEvent(QEvent* event) override;

private:
    void redraw();
    void fillTable();

    LadderFloors floors_;
    QVector<LadderRungData> rungs_;  // by number
    QCustomPlot* plot_ = nullptr;
    QCPGraph* best_ = nullptr;
    QCPGraph* live_ = nullptr;
    QCPItemStraightLine* floorLine_[3] = {};
    QCPItemText* floorLabel_[3] = {};
    QLabel* intro_ = nullptr;
    QLabel* lesson_ = nullptr;
    QPushButton* startButton_ = nullptr;
    QTableWidget* table_ = nullptr;
};
