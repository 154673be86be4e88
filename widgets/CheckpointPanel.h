// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>
#include <QWidget>

#include <limits>
#include <optional>

class QFormLayout;
class QLabel;

// What the side panel shows about an opened checkpoint, as plain values.
struct CheckpointSummary {
    QString filePath;
    qint64 parameterCount = 0;
    int layerCount = 0;
    int headCount = 0;
    int headSize = 0;
    int embeddingWidth = 0;
    int contextLength = 0;
    int vocabularySize = 0;
    qint64 step = 0;
    qint64 tokensSeen = 0;
    // NaN when the checkpoint holds no evaluation.
    double lastValLoss = std::numeric_limits<double>::quiet_NaN();
    qint64 lastValStep = 0;
};

// A titled form of the current model's architecture and training progress
// (trained here or opened from a checkpoint).
class CheckpointPanel : public QWidget {
    Q_OBJECT

public:
    explicit CheckpointPanel(QWidget* parent = nullptr);

    void showSummary(const CheckpointSummary& summary);
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
    std::optional<CheckpointSummary> summary_;
};
