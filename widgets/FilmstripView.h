// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QWidget>

#include <optional>

#include "widgets/FilmstripData.h"

class QEvent;
class QLabel;
class QTableWidget;

// The filmstrip of a run: a sample from each kept snapshot, one row per step
// (the step, the validation loss there, the sample in a monospace font, or
// why the step was skipped), in one scrollable table, oldest first: noise,
// then characters, then words, then lines. It shows only the value it is
// given (app/FilmstripBridge makes it from model/generate/Filmstrip).
class FilmstripView : public QWidget {
    Q_OBJECT

public:
    explicit FilmstripView(QWidget* parent = nullptr);

    void setSamples(const FilmstripSamples& samples);
    // One more row at the end, the rows before it left as they are (a strip
    // that comes in step by step).
    void appendRow(const FilmstripRow& row);
    const FilmstripSamples& samples() const { return samples_; }
    // Empties the strip and shows `message` (why there is none) instead.
    void showMessage(const QString& message);
    // Shows no line above an empty strip (its page says why there is none).
    void hideEmptySummary();
    // Marks the row of `step` (the window's timeline's step), or of the
    // latest step before it; none when the strip starts after it. Emits nothing.
    void setCurrentStep(qint64 step);
    // The step of the marked row; none when none is.
    std::optional<qint64> currentStep() const;

    QTableWidget* table() const { return table_; }
    QLabel* summaryLabel() const { return summary_; }

signals:
    // The user clicked the row of `step`.
    void stepActivated(qint64 step);

protected:
    void changeEvent(QEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;

private:
    void retranslateUi();
    void fillTable();
    void setRowItems(int row);
    void markRow(int row);  // selected and scrolled to; none for -1
    void fitNumberColumns(int row);  // the step and loss columns widened to the row's text
    QString summaryText() const;
    void showSummary();

    QLabel* summary_ = nullptr;
    QTableWidget* table_ = nullptr;
    FilmstripSamples samples_;
    QString message_;
    bool summaryHidden_ = false;  // hideEmptySummary()
    std::optional<qint64> currentStep_;  // setCurrentStep's, kept when the rows are filled again
};
