// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QImage>
#include <QRectF>
#include <QWidget>

#include <functional>
#include <optional>
#include <utility>

#include "widgets/AttentionData.h"

class QPainter;

// What is drawn around the cells of a heatmap.
struct HeatmapStyle {
    bool showKeyLabels = true;    // key characters above the columns
    bool showQueryLabels = true;  // query characters left of the rows
    bool showAxisTitles = true;   // "key →" and "query ↓"
    bool showColorScale = false;  // colour bar and masked swatch on the right
    double maximumWeight = 1.0;   // weight drawn in the brightest colour
    double maximumCellSize = 0.0; // pixels; 0: as large as the widget allows
    QColor textColor = Qt::black;
};

// One head's attention as a grid of coloured cells: query rows downwards, key
// columns to the right, each cell one weight, no smoothing between cells. Masked
// cells (a key after its query) are hatched grey, a colour the weight scale never
// uses. Axis labels appear once cells are large enough to hold a character.
class AttentionHeatmap : public QWidget {
    Q_OBJECT

public:
    explicit AttentionHeatmap(QWidget* parent = nullptr);

    void setMatrix(const AttentionMatrix& matrix);
    const AttentionMatrix& matrix() const { return matrix_; }

    void setHeatmapStyle(const HeatmapStyle& style);
    const HeatmapStyle& heatmapStyle() const { return style_; }

    // Preferred cell edge in pixels for sizeHint().
    void setPreferredCellSize(int pixels);

    // "query 'x' (pos i) → key 'y' (pos j): weight 0.1234", or a note that the cell
    // is masked; empty outside the matrix.
    QString toolTipText(int row, int key) const;
    // Cell under a point in widget coordinates; false outside the cells.
    bool cellAt(const QPoint& point, int* row, int* key) const;
    // Where a cell is drawn, in widget coordinates.
    QRect cellRect(int row, int key) const;

    // The heatmap drawn at `size` (default: the widget's size) on white.
    QImage renderImage(const QSize& size = QSize()) const;
    // PNG or SVG, chosen by the file's suffix.
    bool exportTo(const QString& path, const QSize& size = QSize(), QString* error = nullptr) const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

    // Viridis-like sequential scale; weight 0 maps to dark purple, maximum to yellow.
    static QColor colorForWeight(double weight, double maximumWeight = 1.0);
    static QColor maskedColor();
    static QColor maskedHatchColor();

    // Draws a matrix into `target`: the cells as one image scaled up without
    // smoothing (one rectangle per cell would make SVG files of megabytes), the
    // hatching, labels and colour scale as lines and text.
    static void paintMatrix(QPainter& painter, const QRectF& target, const AttentionMatrix& matrix,
                            const HeatmapStyle& style, const QFont& font);

signals:
    void clicked();
    void cellClicked(int row, int key);
    void cellHovered(int row, int key);  // -1, -1 when the pointer leaves the cells

protected:
    bool event(QEvent* event) override;
    void paintEvent(QPaintEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void leaveEvent(QEvent* event) override;

private:
    AttentionMatrix matrix_;
    HeatmapStyle style_;
    int preferredCellSize_ = 14;
    std::optional<std::pair<int, int>> hovered_;  // (row, key) of the cell under the mouse
};

