// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QWidget>

#include "widgets/InsideData.h"

class QLabel;
class QProgressBar;
class QPushButton;
class QStandardItemModel;
class QTableView;
class ValueGrid;

// Head knock-out: what the validation loss becomes with one head, a layer's
// attention or a layer's feed-forward block zeroed, as a sortable table
// (largest increase first) and a layer x head heatmap of the increase. The
// "Knock out" button asks for the computation (knockoutRequested) and the view
// waits, busy, until setKnockout or showProblem answers.
class KnockoutView : public QWidget {
    Q_OBJECT

public:
    // The table's columns.
    enum Column { NameColumn = 0, LayerColumn, HeadColumn, LossColumn, IncreaseColumn, ColumnCount };
    // The role holding each cell's value for sorting (numbers as numbers).
    static constexpr int SortRole = Qt::UserRole + 1;

    explicit KnockoutView(QWidget* parent = nullptr);

    // Shows a result and ends the busy state.
    void setKnockout(const Knockout& knockout);
    const Knockout& knockout() const { return knockout_; }
    // Ends the busy state with `message` instead of a result.
    void showProblem(const QString& message);
    // Waiting for a result: the button is disabled and a busy bar runs.
    void setBusy(bool busy);
    // While busy: `done` of `total` passes measured (the bar fills).
    void setProgress(int done, int total);
    bool isBusy() const { return busy_; }

    // The heatmap's tooltip for head (layer, head).
    QString toolTipText(int layer, int head) const;
    // .png, .svg (baseline, heatmap and the table's first rows) or .csv (every row).
    bool exportTo(const QString& path, QString* error = nullptr) const;
    QString csv() const;

    QTableView* table() const { return table_; }
    QStandardItemModel* tableModel() const { return model_; }
    ValueGrid* heatmap() const { return heatmap_; }
    QPushButton* knockoutButton() const { return knockoutButton_; }
    QPushButton* exportButton() const { return exportButton_; }
    QLabel* baselineLabel() const { return baseline_; }
    QProgressBar* busyBar() const { return busyBar_; }

signals:
    // The user asked to knock out every head and every layer's attention and
    // feed-forward block in turn; answer with setKnockout.
    void knockoutRequested();

protected:
    void changeEvent(QEvent* event) override;

private:
    void retranslateUi();
    void fillTable();
    void updateHeatmap();
    void updateStatus();

    Knockout knockout_;
    QString problem_;
    bool busy_ = false;
    QLabel* explanation_ = nullptr;
    QLabel* baseline_ = nullptr;
    QPushButton* knockoutButton_ = nullptr;
    QPushButton* exportButton_ = nullptr;
    QProgressBar* busyBar_ = nullptr;
    QTableView* table_ = nullptr;
    QStandardItemModel* model_ = nullptr;
    ValueGrid* heatmap_ = nullptr;
};
