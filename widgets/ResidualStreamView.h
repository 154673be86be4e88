// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QWidget>

#include "widgets/InsideData.h"

class QLabel;
class QPushButton;
class ValueGrid;

// The residual stream of the probe: how large the stream is after the
// embeddings and after each block, at each character, and how much each
// layer's attention and feed-forward write into it, with the attention's
// share of each layer's writing. "Knock out each part" asks for the knock-out
// table (knockoutRequested, the Knock-out tab's measurement): then each
// writer's row also says how much the validation loss rises without it.
class ResidualStreamView : public QWidget {
    Q_OBJECT

public:
    explicit ResidualStreamView(QWidget* parent = nullptr);

    void setStream(const ResidualStreamData& stream);
    const ResidualStreamData& stream() const { return stream_; }
    void showProblem(const QString& message);
    // The knock-out table of the same model (its attention and feed-forward rows are shown).
    void setKnockout(const Knockout& knockout);
    void setBusy(bool busy);
    // The knock-out could not be measured: `message` says why (in the status line).
    void showKnockoutProblem(const QString& message);

    // The writers' row labels: "L1 attention (share 40%, loss +0.31 without it)".
    QString writerLabel(int row) const;
    QString normToolTip(int row, int position) const;
    QString writeToolTip(int row, int position) const;

    // Both grids as a PNG, SVG or PDF picture, or every value as CSV (by the
    // suffix of `path`); false with `error` set when nothing is shown or the
    // file cannot be written.
    bool exportTo(const QString& path, QString* error = nullptr) const;
    // quantity,layer,position,character,value: the stream's size after the
    // embeddings (layer 0) and each block, what each part writes, each layer's
    // attention share and, when measured, the loss without each part.
    QString csv() const;

    ValueGrid* normGrid() const { return norms_; }
    ValueGrid* writeGrid() const { return writes_; }
    QPushButton* knockoutButton() const { return knockoutButton_; }
    QPushButton* exportButton() const { return exportButton_; }
    QLabel* statusLabel() const { return status_; }

signals:
    void knockoutRequested();

protected:
    void changeEvent(QEvent* event) override;

private:
    void retranslateUi();
    void updateView();

    QLabel* explanation_ = nullptr;
    QLabel* status_ = nullptr;
    QPushButton* knockoutButton_ = nullptr;
    QPushButton* exportButton_ = nullptr;
    QLabel* normTitle_ = nullptr;
    QLabel* writeTitle_ = nullptr;
    ValueGrid* norms_ = nullptr;
    ValueGrid* writes_ = nullptr;
    ResidualStreamData stream_;
    Knockout knockout_;
    QString problem_;
    QString knockoutProblem_;
    bool busy_ = false;
};
