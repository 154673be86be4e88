// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>
#include <QWidget>

#include <optional>

#include "widgets/StudioValues.h"

class QFormLayout;
class QLabel;

// A titled form of the current model's architecture and training progress
// (trained here or opened from a checkpoint).
class CheckpointPanel : public QWidget {
    Q_OBJECT

public:
    explicit CheckpointPanel(QWidget* parent = nullptr);

    void showModel(const ModelSummary& model);
    void clear();

protected:
    void changeEvent(QEvent* event) override;

private:
    enum Row { File, Parameters, Layers, Heads, Width, Context, Vocabulary, Step, TokensSeen, LastValLoss, RowCount };

    void retranslateUi();
    void refreshValues();
    QString rowName(Row row) const;

    QLabel* titleLabel_ = nullptr;
    QLabel* emptyLabel_ = nullptr;
    QWidget* form_ = nullptr;
    QLabel* nameLabels_[RowCount] = {};
    QLabel* valueLabels_[RowCount] = {};
    std::optional<ModelSummary> summary_;
};
