// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QVector>
#include <QWidget>
#include <functional>

#include "widgets/RunsData.h"

class QLabel;
class QLineEdit;
class QPushButton;
class QTableWidget;

// The runs of the run library as a table: a box to tick a run for Compare,
// its name (editable), corpus, preset and the settings that matter, best
// validation loss, tokens/s, start, length and how it ended; sortable by any
// column, filtered by a text. Open, Continue and Delete act on the selected
// run. It asks, the RunsController does.
class RunsList : public QWidget {
    Q_OBJECT

public:
    explicit RunsList(QWidget* parent = nullptr);

    // The library's runs, newest first; ticks and the selection stay on the
    // runs that are still there.
    void setRuns(const QVector<RunRow>& runs);
    const QVector<RunRow>& runs() const { return runs_; }
    // The ids of the runs ticked for Compare, in the list's order; ticking
    // them here is as clicking their boxes.
    QVector<qint64> compared() const;
    void setCompared(const QVector<qint64>& ids);
    // The run selected (0 when none).
    qint64 selectedRun() const;
    void selectRun(qint64 id);
    void setFilter(const QString& text);
    // How many rows the filter leaves.
    int visibleRows() const;

    // Asks whether to delete the selected run (and deletes on yes). Tests may
    // replace the question: `ask` gets the sentence and says yes or no.
    void deleteSelected();
    void setConfirmation(std::function<bool(const QString&)> ask) { confirm_ = std::move(ask); }

    QTableWidget* table() const { return table_; }
    void retranslate();

signals:
    void comparedChanged(const QVector<qint64>& ids);
    void renameRequested(qint64 id, const QString& name);
    void deleteRequested(qint64 id);
    // The selected run, whose lastCheckpoint is to be opened (and trained further).
    void openRequested(const RunRow& run);
    void continueRequested(const RunRow& run);

protected:
    void changeEvent(QEvent* event) override;

private:
    void rebuild();
    // The list again with the same runs in the same order: the rows that
    // changed are written in place; false when the runs differ.
    bool updateInPlace(const QVector<RunRow>& runs);
    void fillRow(int row, const RunRow& run);
    void restoreTicks(const QVector<qint64>& ids);
    void updateButtons();
    const RunRow* find(qint64 id) const;

    QVector<RunRow> runs_;
    QLineEdit* filter_ = nullptr;
    QTableWidget* table_ = nullptr;
    QLabel* count_ = nullptr;
    QPushButton* open_ = nullptr;
    QPushButton* continue_ = nullptr;
    QPushButton* delete_ = nullptr;
    bool rebuilding_ = false;
    QVector<RunRow> pending_;  // a list that arrived while a name was being edited
    bool hasPending_ = false;
    std::function<bool(const QString&)> confirm_;
};
