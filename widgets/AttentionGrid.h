// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QDialog>
#include <QVector>
#include <QWidget>

#include <optional>

#include "widgets/AttentionData.h"
#include "widgets/AttentionHeatmap.h"

class QCheckBox;
class QComboBox;
class QGridLayout;
class QLabel;
class QPushButton;

// One head shown large, with its colour scale, summary figures and export.
class AttentionHeadDialog : public QDialog {
    Q_OBJECT

public:
    explicit AttentionHeadDialog(QWidget* parent = nullptr);
    void setHead(int layer, int head, const AttentionMatrix& matrix);
    // The head shown; none before setHead.
    std::optional<int> layer() const { return layer_; }
    std::optional<int> head() const { return head_; }
    AttentionHeatmap* heatmap() const { return heatmap_; }

private:
    void exportHead();
    AttentionHeatmap* heatmap_ = nullptr;
    QLabel* summaryLabel_ = nullptr;
    QPushButton* exportButton_ = nullptr;
    std::optional<int> layer_, head_;
};

// Every head of one layer as a small heatmap, each with its summary figures
// underneath; the grid can be sorted by a figure. Clicking a head emits
// headClicked and (unless turned off) opens it large.
class AttentionGrid : public QWidget {
    Q_OBJECT

public:
    explicit AttentionGrid(QWidget* parent = nullptr);

    // Replaces the heads shown; with the same number of heads the tiles are
    // updated in place, so a live refresh does not flicker.
    void setLayer(int layerIndex, const LayerAttention& layer);
    int layerIndex() const { return layerIndex_; }
    const LayerAttention& layer() const { return layer_; }
    const QVector<HeadSummary>& summaries() const { return summaries_; }

    // Sorts by a figure (largest first when descending) or, with no figure,
    // by head number.
    void sortBy(std::optional<SummaryFigure> figure, bool descending = true);
    // How far each head's attention moved since step `comparedStep` (A):
    // attentionChange per head, said under its title; empty: nothing compared.
    void setChanges(const QVector<double>& changes, std::optional<qint64> comparedStep);
    const QVector<double>& changes() const { return changes_; }
    // Head numbers in the order they are shown.
    QVector<int> displayedHeadOrder() const { return order_; }
    AttentionHeatmap* heatmapOfHead(int head) const;

    void setEnlargeOnClick(bool enlarge) { enlargeOnClick_ = enlarge; }
    // Opens (or updates) the large view of one head.
    void showHeadLarge(int head);

    // The whole layer as PNG or SVG (by suffix).
    bool exportTo(const QString& path, QString* error = nullptr) const;
    static void paintLayer(QPainter& painter, const QRectF& target, int layerIndex,
                           const LayerAttention& layer, const QFont& font);
    static QSize exportSize(const LayerAttention& layer);
    // The same for `heads` heads over `keys` characters, before they are computed.
    static QSize exportSize(int heads, int keys);

signals:
    void headClicked(int layer, int head);

protected:
    void changeEvent(QEvent* event) override;

private:
    struct Tile {
        QWidget* frame = nullptr;
        QLabel* title = nullptr;
        AttentionHeatmap* heatmap = nullptr;
        QLabel* figures = nullptr;
    };
    // Columns of a grid of `count` tiles, on screen and in the export.
    static int gridColumns(int count);
    void retranslateUi();
    void rebuildTiles();
    void updateTileTexts();
    void arrangeTiles();
    void applySortFromControls();
    void exportWithDialog();

    QComboBox* sortCombo_ = nullptr;
    QCheckBox* descendingCheck_ = nullptr;
    QLabel* sortLabel_ = nullptr;
    QPushButton* exportButton_ = nullptr;
    QGridLayout* tilesLayout_ = nullptr;
    QVector<Tile> tiles_;
    QVector<double> changes_;   // setChanges
    std::optional<qint64> comparedStep_;
    LayerAttention layer_;
    QVector<HeadSummary> summaries_;
    QVector<int> order_;
    qsizetype arrangedTiles_ = -1;  // the tiles the grid layout holds, placed in order_
    std::optional<SummaryFigure> sortFigure_;
    bool descending_ = true;
    int layerIndex_ = 0;
    bool enlargeOnClick_ = true;
    AttentionHeadDialog* dialog_ = nullptr;
};

// All layers x heads at a glance: each cell a thumbnail of the head's heatmap or
// its value of one summary figure, coloured on a scale shared by the table.
class AttentionOverview : public QWidget {
    Q_OBJECT

public:
    explicit AttentionOverview(QWidget* parent = nullptr);

    void setModelAttention(const ModelAttention& attention);
    const ModelAttention& modelAttention() const { return attention_; }
    std::optional<SummaryFigure> displayedFigure() const { return figure_; }
    // Summaries computed once per setModelAttention: [layer][head].
    const QVector<QVector<HeadSummary>>& summaries() const { return summaries_; }
    QString toolTipText(int layer, int head) const;
    // The layer and head under a point of the table, or false.
    bool headAt(const QPoint& point, int* layer, int* head) const;

    QSize sizeHint() const override;

signals:
    void headActivated(int layer, int head);

protected:
    bool event(QEvent* event) override;
    void paintEvent(QPaintEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    struct Geometry {
        QRectF table;
        double cell = 0.0;
        double gap = 0.0;
        double labelWidth = 0.0;
        double labelHeight = 0.0;
    };
    Geometry tableGeometry() const;
    QRectF tableArea() const;
    void retranslateUi();

    QComboBox* displayCombo_ = nullptr;
    QLabel* displayLabel_ = nullptr;
    ModelAttention attention_;
    QVector<QVector<HeadSummary>> summaries_;
    std::optional<SummaryFigure> figure_;
};
