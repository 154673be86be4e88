// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// A grid of numbers drawn as coloured cells, with row and column labels, an
// optional short text in each cell and the colour scale under it: the
// heatmaps of the logit lens, the knock-out, the head roles and the position
// similarity. The colours are the attention heatmap's (viridis), from
// `minimum` (dark purple) to `maximum` (yellow).

#include <QColor>
#include <QFont>
#include <QRectF>
#include <QString>
#include <QStringList>
#include <QVector>
#include <QWidget>
#include <functional>
#include <optional>
#include <utility>

class QPainter;

struct ValueGridData {
    QStringList rowLabels;     // one per row, left of the row
    QStringList columnLabels;  // one per column, above it (left out where they would overlap)
    QVector<double> values;    // row-major rows x columns; NaN: no value, drawn grey
    QStringList cellTexts;     // empty, or one short text per cell drawn on it
    double minimum = 0.0;
    double maximum = 1.0;
    QString scaleTitle;  // under the colour scale, e.g. "probability of the top guess"
    // A change either side of 0 (minimum = -maximum): blue below, white at 0,
    // red above, the colours of the Surprise tab's comparisons; otherwise viridis.
    bool diverging = false;

    int rows() const { return int(rowLabels.size()); }
    int columns() const { return int(columnLabels.size()); }
    bool isValid() const {
        return rows() > 0 && columns() > 0 && values.size() == qsizetype(rows()) * columns() &&
               (cellTexts.isEmpty() || cellTexts.size() == values.size());
    }
    double value(int row, int column) const { return values[qsizetype(row) * columns() + column]; }
    QString cellText(int row, int column) const {
        return cellTexts.isEmpty() ? QString() : cellTexts[qsizetype(row) * columns() + column];
    }
};

class ValueGrid : public QWidget {
    Q_OBJECT

public:
    explicit ValueGrid(QWidget* parent = nullptr);

    void setData(const ValueGridData& data);
    const ValueGridData& data() const { return data_; }
    // The tooltip of a cell (row, column); none when unset.
    void setToolTipFunction(std::function<QString(int, int)> function);
    QString toolTipText(int row, int column) const;
    // Largest cell edge in pixels.
    void setMaximumCellSize(double pixels);

    bool cellAt(const QPoint& point, int* row, int* column) const;
    QRect cellRect(int row, int column) const;
    // The colour of cell (row, column) as painted.
    QColor cellColor(int row, int column) const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

    // The colour of `value` between `minimum` and `maximum`; grey for NaN.
    static QColor colorFor(double value, double minimum, double maximum, bool diverging = false);
    // Paints `data` into `target` (cells, labels, scale); `highlightRow` and
    // `highlightColumn` outline one cell.
    static void paintGrid(QPainter& painter, const QRectF& target, const ValueGridData& data,
                          const QFont& font, const QColor& textColor, double maximumCell = 40.0,
                          int highlightRow = -1, int highlightColumn = -1);
    // The size that shows every cell at `cell` pixels with its labels.
    static QSize preferredSize(const ValueGridData& data, const QFont& font, double cell);
    // The colour bar in a grid of `size` (empty where there is no room): as
    // wide as its title needs between its end numbers, where the grid has room.
    static QRectF scaleBar(const QSizeF& size, const ValueGridData& data, const QFont& font);

signals:
    void cellHovered(int row, int column);  // -1, -1 when the pointer leaves the cells

protected:
    bool event(QEvent* event) override;
    void paintEvent(QPaintEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void leaveEvent(QEvent* event) override;

private:
    ValueGridData data_;
    std::function<QString(int, int)> toolTip_;
    double maximumCell_ = 40.0;
    std::optional<std::pair<int, int>> hovered_;  // (row, column) of the cell under the mouse
};
