// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QWidget>

#include "widgets/InsideData.h"

class QLabel;
class QPushButton;
class ValueGrid;

// The logit lens: a layer x position grid, each cell the character the model
// would predict at that position if it stopped after that layer, on the
// colour of its probability; hover a cell for the true next character's rank.
// It only shows a LogitLens; whoever owns the model computes it.
class LogitLensView : public QWidget {
    Q_OBJECT

public:
    explicit LogitLensView(QWidget* parent = nullptr);

    void setLens(const LogitLens& lens);
    const LogitLens& lens() const { return lens_; }
    // Why there is no lens to show (replaces the grid's status line).
    void showProblem(const QString& message);

    // The tooltip of cell (layer, position): the top guess and its
    // probability, the true next character, its rank and probability.
    QString toolTipText(int layer, int position) const;
    // .png, .svg (the grid with its scale) or .csv (one row per cell).
    bool exportTo(const QString& path, QString* error = nullptr) const;
    QString csv() const;

    ValueGrid* grid() const { return grid_; }
    QLabel* statusLabel() const { return status_; }
    QPushButton* exportButton() const { return exportButton_; }

protected:
    void changeEvent(QEvent* event) override;

private:
    void retranslateUi();
    void updateGrid();

    LogitLens lens_;
    QString problem_;
    QLabel* explanation_ = nullptr;
    QLabel* status_ = nullptr;
    QPushButton* exportButton_ = nullptr;
    ValueGrid* grid_ = nullptr;
};
