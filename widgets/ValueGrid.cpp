// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/ValueGrid.h"

#include <QFontMetricsF>
#include <QHelpEvent>
#include <QImage>
#include <QLinearGradient>
#include <QLocale>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>
#include <algorithm>
#include <cmath>

#include "widgets/AttentionHeatmap.h"  // the colour scale
#include "widgets/SurpriseData.h"      // surpriseTextColor
#include "widgets/PlainToolTip.h"

namespace {

const QColor kNoValueColor(214, 214, 214);

struct GridLayout {
    QRectF cells;
    double cellWidth = 0.0;
    double cellHeight = 0.0;
    double rowLabelWidth = 0.0;
    double columnLabelHeight = 0.0;
    QRectF scale;  // the colour bar; empty when there is no room
    QFont font;
};

double rowLabelWidth(const ValueGridData& data, const QFontMetricsF& metrics) {
    double width = 0.0;
    for (const QString& label : data.rowLabels) width = std::max(width, metrics.horizontalAdvance(label));
    return width > 0.0 ? width + 8.0 : 0.0;
}

QString scaleNumber(double value) {
    const double magnitude = std::abs(value);
    return QLocale().toString(value, 'f', magnitude >= 100 ? 0 : magnitude >= 10 ? 1 : 2);
}

// The colour bar's width: 300 pixels, or what its title needs between the
// numbers at its ends (a long title, or a larger type, read whole).
double scaleWidth(const ValueGridData& data, const QFontMetricsF& metrics) {
    if (data.scaleTitle.isEmpty()) return 300.0;
    const double title = metrics.horizontalAdvance(data.scaleTitle) +
                         metrics.horizontalAdvance(scaleNumber(data.minimum)) +
                         metrics.horizontalAdvance(scaleNumber(data.maximum)) + 24.0;
    return std::max(300.0, std::ceil(title));
}

GridLayout computeLayout(const QRectF& target, const ValueGridData& data, const QFont& font,
                         double maximumCell) {
    GridLayout layout;
    layout.font = font;
    if (!data.isValid() || target.width() <= 0 || target.height() <= 0) return layout;
    const QFontMetricsF metrics(font);
    layout.rowLabelWidth = rowLabelWidth(data, metrics);
    layout.columnLabelHeight = metrics.height() + 4.0;
    const double scaleHeight = metrics.height() * 2 + 18.0;
    const double width = target.width() - layout.rowLabelWidth;
    const double height = target.height() - layout.columnLabelHeight - scaleHeight;
    double cell = std::min(width / data.columns(), height / data.rows());
    cell = std::min(cell, maximumCell);
    if (cell >= 3.0) cell = std::floor(cell);
    cell = std::max(cell, 0.0);
    layout.cellWidth = layout.cellHeight = cell;
    const double gridWidth = cell * data.columns(), gridHeight = cell * data.rows();
    const double left = std::round(target.left() + layout.rowLabelWidth);
    const double top = std::round(target.top() + layout.columnLabelHeight);
    layout.cells = QRectF(left, top, gridWidth, gridHeight);
    const double barWidth = std::min(scaleWidth(data, metrics), target.right() - left - 8.0);
    if (barWidth > 40.0 && height >= 0.0)
        layout.scale = QRectF(left, layout.cells.bottom() + 10.0, barWidth, 10.0);
    return layout;
}

QRectF cellRectIn(const GridLayout& layout, int row, int column) {
    return QRectF(layout.cells.left() + column * layout.cellWidth,
                  layout.cells.top() + row * layout.cellHeight, layout.cellWidth, layout.cellHeight);
}

}  // namespace

ValueGrid::ValueGrid(QWidget* parent) : QWidget(parent) {
    setMouseTracking(true);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
}

void ValueGrid::setData(const ValueGridData& data) {
    data_ = data;
    hovered_.reset();
    updateGeometry();
    update();
}

void ValueGrid::setToolTipFunction(std::function<QString(int, int)> function) {
    toolTip_ = std::move(function);
}

QString ValueGrid::toolTipText(int row, int column) const {
    if (!toolTip_ || !data_.isValid() || row < 0 || column < 0 || row >= data_.rows() ||
        column >= data_.columns())
        return QString();
    return toolTip_(row, column);
}

void ValueGrid::setMaximumCellSize(double pixels) {
    maximumCell_ = std::max(1.0, pixels);
    updateGeometry();
    update();
}

QColor ValueGrid::colorFor(double value, double minimum, double maximum, bool diverging) {
    if (!std::isfinite(value)) return kNoValueColor;
    if (diverging) {
        const double t = maximum > minimum ? std::clamp((value - minimum) / (maximum - minimum), 0.0, 1.0) : 0.5;
        return surpriseDifferenceColor((2.0 * t - 1.0) * kSurpriseDifferenceScale);
    }
    return AttentionHeatmap::colorForWeight(value - minimum, maximum - minimum);
}

QColor ValueGrid::cellColor(int row, int column) const {
    if (!data_.isValid() || row < 0 || column < 0 || row >= data_.rows() || column >= data_.columns())
        return QColor();
    return colorFor(data_.value(row, column), data_.minimum, data_.maximum, data_.diverging);
}

QSize ValueGrid::preferredSize(const ValueGridData& data, const QFont& font, double cell) {
    const QFontMetricsF metrics(font);
    const double width = rowLabelWidth(data, metrics) + std::max(1, data.columns()) * cell;
    const double height =
        metrics.height() + 4.0 + std::max(1, data.rows()) * cell + metrics.height() * 2 + 18.0;
    // Room for the colour scale and its title under a small grid.
    return QSize(
        int(std::ceil(std::max(width, rowLabelWidth(data, metrics) + scaleWidth(data, metrics) + 10.0))),
        int(std::ceil(height)));
}

void ValueGrid::paintGrid(QPainter& painter, const QRectF& target, const ValueGridData& data,
                          const QFont& font, const QColor& textColor, double maximumCell, int highlightRow,
                          int highlightColumn) {
    const GridLayout layout = computeLayout(target, data, font, maximumCell);
    if (layout.cellWidth <= 0.0) return;
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing, false);
    const int rows = data.rows(), columns = data.columns();
    // The cells as one image scaled without smoothing: one rectangle per cell
    // would make SVG files of megabytes for a long probe.
    QImage cells(columns, rows, QImage::Format_RGB32);
    for (int r = 0; r < rows; ++r) {
        auto* line = reinterpret_cast<QRgb*>(cells.scanLine(r));
        for (int c = 0; c < columns; ++c)
            line[c] = colorFor(data.value(r, c), data.minimum, data.maximum, data.diverging).rgb();
    }
    painter.drawImage(layout.cells.topLeft(), cells.scaled(layout.cells.size().toSize(),
                                                           Qt::IgnoreAspectRatio, Qt::FastTransformation));

    // Texts on the cells, in one size that fits the widest; left out where
    // even the smallest would not fit.
    if (!data.cellTexts.isEmpty() && layout.cellHeight >= 10.0) {
        QFont cellFont = font;
        double pixels = std::clamp(layout.cellHeight * 0.55, 7.0, 16.0);
        cellFont.setPixelSize(int(pixels));
        double widest = 0.0;
        for (const QString& text : data.cellTexts)
            widest = std::max(widest, QFontMetricsF(cellFont).horizontalAdvance(text));
        const double room = layout.cellWidth - 4.0;
        if (widest > room && widest > 0.0)
            cellFont.setPixelSize(int(std::max(7.0, std::floor(pixels * room / widest))));
        painter.setFont(cellFont);
        const QFontMetricsF cellMetrics(cellFont);
        for (int r = 0; r < rows; ++r)
            for (int c = 0; c < columns; ++c) {
                const QString text = data.cellText(r, c);
                if (text.isEmpty() || cellMetrics.horizontalAdvance(text) > room) continue;
                painter.setPen(
                    surpriseTextColor(colorFor(data.value(r, c), data.minimum, data.maximum, data.diverging)));
                painter.drawText(cellRectIn(layout, r, c), Qt::AlignCenter, text);
            }
    }

    // Labels: every row's; columns' where they do not overlap the one before.
    painter.setFont(font);
    painter.setPen(textColor);
    const QFontMetricsF metrics(font);
    if (layout.cellHeight >= metrics.height() * 0.8) {
        for (int r = 0; r < rows; ++r) {
            const QRectF cell = cellRectIn(layout, r, 0);
            painter.drawText(QRectF(target.left(), cell.top(), layout.rowLabelWidth - 6.0, cell.height()),
                             Qt::AlignRight | Qt::AlignVCenter, data.rowLabels[r]);
        }
    } else {
        const int step = int(std::ceil(metrics.height() / std::max(1.0, layout.cellHeight)));
        for (int r = 0; r < rows; r += step) {
            const QRectF cell = cellRectIn(layout, r, 0);
            painter.drawText(QRectF(target.left(), cell.center().y() - metrics.height() / 2,
                                    layout.rowLabelWidth - 6.0, metrics.height()),
                             Qt::AlignRight | Qt::AlignVCenter, data.rowLabels[r]);
        }
    }
    double free = -1e9;
    for (int c = 0; c < columns; ++c) {
        const QRectF cell = cellRectIn(layout, 0, c);
        const QString& label = data.columnLabels[c];
        const double width = metrics.horizontalAdvance(label);
        const double left = cell.center().x() - width / 2.0;
        if (left < free) continue;
        painter.drawText(
            QRectF(left, layout.cells.top() - layout.columnLabelHeight, width, layout.columnLabelHeight),
            Qt::AlignCenter, label);
        free = left + width + 4.0;
    }

    if (highlightRow >= 0 && highlightColumn >= 0 && highlightRow < rows && highlightColumn < columns) {
        painter.setPen(QPen(Qt::white, 1.5));
        painter.setBrush(Qt::NoBrush);
        painter.drawRect(cellRectIn(layout, highlightRow, highlightColumn).adjusted(0.5, 0.5, -0.5, -0.5));
    }

    // The colour scale: a bar from minimum to maximum, its ends and its title.
    if (!layout.scale.isEmpty()) {
        const QRectF bar = layout.scale;
        QLinearGradient gradient(bar.topLeft(), bar.topRight());
        for (int i = 0; i <= 8; ++i)
            gradient.setColorAt(i / 8.0, colorFor(i / 8.0, 0.0, 1.0, data.diverging));
        painter.fillRect(bar, gradient);
        painter.setPen(QPen(textColor, 0.8));
        painter.setBrush(Qt::NoBrush);
        painter.drawRect(bar);
        const double y = bar.bottom() + 2.0;
        const QString low = scaleNumber(data.minimum), high = scaleNumber(data.maximum);
        painter.drawText(QRectF(bar.left(), y, bar.width(), metrics.height()), Qt::AlignLeft | Qt::AlignTop,
                         low);
        painter.drawText(QRectF(bar.left(), y, bar.width(), metrics.height()), Qt::AlignRight | Qt::AlignTop,
                         high);
        if (!data.scaleTitle.isEmpty()) {
            const double titleLeft = bar.left() + metrics.horizontalAdvance(low) + 8.0;
            const double titleWidth =
                bar.width() - (titleLeft - bar.left()) - metrics.horizontalAdvance(high) - 8.0;
            if (titleWidth > 20.0)
                painter.drawText(QRectF(titleLeft, y, titleWidth, metrics.height()),
                                 Qt::AlignHCenter | Qt::AlignTop,
                                 metrics.elidedText(data.scaleTitle, Qt::ElideRight, titleWidth));
        }
    }
    painter.restore();
}

bool ValueGrid::cellAt(const QPoint& point, int* row, int* column) const {
    const GridLayout layout = computeLayout(QRectF(rect()), data_, font(), maximumCell_);
    if (layout.cellWidth <= 0.0 || !layout.cells.contains(QPointF(point) + QPointF(0.5, 0.5))) return false;
    const int r = int((point.y() + 0.5 - layout.cells.top()) / layout.cellHeight);
    const int c = int((point.x() + 0.5 - layout.cells.left()) / layout.cellWidth);
    if (r < 0 || c < 0 || r >= data_.rows() || c >= data_.columns()) return false;
    if (row) *row = r;
    if (column) *column = c;
    return true;
}

QRect ValueGrid::cellRect(int row, int column) const {
    const GridLayout layout = computeLayout(QRectF(rect()), data_, font(), maximumCell_);
    if (layout.cellWidth <= 0.0) return QRect();
    return cellRectIn(layout, row, column).toRect();
}

QRectF ValueGrid::scaleBar(const QSizeF& size, const ValueGridData& data, const QFont& font) {
    return computeLayout(QRectF(QPointF(0, 0), size), data, font, 1e9).scale;
}

QSize ValueGrid::sizeHint() const { return preferredSize(data_, font(), std::min(maximumCell_, 28.0)); }

QSize ValueGrid::minimumSizeHint() const {
    return preferredSize(data_, font(), 4.0).boundedTo(QSize(280, 160));
}

bool ValueGrid::event(QEvent* event) {
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        int row = -1, column = -1;
        const QString text = cellAt(help->pos(), &row, &column) ? toolTipText(row, column) : QString();
        if (!text.isEmpty())
            QToolTip::showText(help->globalPos(), plainToolTip(text), this, cellRect(row, column));
        else
            QToolTip::hideText();
        return true;
    }
    return QWidget::event(event);
}

void ValueGrid::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    paintGrid(painter, QRectF(rect()), data_, font(), palette().color(QPalette::WindowText), maximumCell_,
              hovered_ ? hovered_->first : -1, hovered_ ? hovered_->second : -1);
}

void ValueGrid::mouseMoveEvent(QMouseEvent* event) {
    int row = 0, column = 0;
    std::optional<std::pair<int, int>> cell;
    if (cellAt(event->position().toPoint(), &row, &column)) cell = std::make_pair(row, column);
    if (cell != hovered_) {
        hovered_ = cell;
        update();
        emit cellHovered(cell ? cell->first : -1, cell ? cell->second : -1);
    }
    QWidget::mouseMoveEvent(event);
}

void ValueGrid::leaveEvent(QEvent* event) {
    if (hovered_) {
        hovered_.reset();
        update();
        emit cellHovered(-1, -1);
    }
    QWidget::leaveEvent(event);
}
