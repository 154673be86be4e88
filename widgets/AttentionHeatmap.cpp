// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/AttentionHeatmap.h"
#include "widgets/HeatmapColors.h"
#include "widgets/ViewExport.h"
#include "widgets/PlainToolTip.h"

#include <QCoreApplication>
#include <QHelpEvent>
#include <QLinearGradient>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>
#include <QToolTip>

#include <algorithm>
#include <map>
#include <utility>
#include <vector>
#include <cmath>

namespace {

constexpr double kHatchSpacing = 6.0;
constexpr double kMinimumLabelledCell = 8.0;
constexpr double kMinimumHatchedCell = 5.0;
constexpr double kColorScaleGap = 12.0;
constexpr double kColorScaleBarWidth = 14.0;

QString translate(const char* text) {
    return QCoreApplication::translate("AttentionHeatmap", text);
}

struct HeatmapLayout {
    QRectF cells;
    double cell = 0.0;
    bool keyLabels = false;
    bool queryLabels = false;
    bool axisTitles = false;
    bool colorScale = false;
    QFont labelFont;
    double labelMargin = 0.0;
    double titleMargin = 0.0;
};

double colorScaleWidth(const QFont& font) {
    const QFontMetricsF metrics(font);
    const double textWidth = std::max(metrics.horizontalAdvance(QStringLiteral("0.00")),
                                      metrics.horizontalAdvance(translate("masked")));
    return kColorScaleGap + kColorScaleBarWidth + 6.0 + textWidth + 4.0;
}

HeatmapLayout computeLayout(const QRectF& target, int rows, int columns, const HeatmapStyle& style,
                            const QFont& baseFont) {
    HeatmapLayout layout;
    if (rows <= 0 || columns <= 0 || target.width() <= 0 || target.height() <= 0)
        return layout;

    layout.colorScale = style.showColorScale;
    const double scaleWidth = layout.colorScale ? colorScaleWidth(baseFont) : 0.0;
    double roughCell = std::min((target.width() - scaleWidth) / columns, target.height() / rows);
    if (style.maximumCellSize > 0.0)
        roughCell = std::min(roughCell, style.maximumCellSize);

    layout.labelFont = baseFont;
    layout.labelFont.setPixelSize(int(std::clamp(roughCell * 0.8, 8.0, 15.0)));
    const double fontHeight = QFontMetricsF(layout.labelFont).height();

    auto fit = [&](bool keyLabels, bool queryLabels, bool titles) {
        layout.keyLabels = keyLabels;
        layout.queryLabels = queryLabels;
        layout.axisTitles = titles && (keyLabels || queryLabels);
        layout.labelMargin = fontHeight * 1.3;
        layout.titleMargin = layout.axisTitles ? fontHeight * 1.3 : 0.0;
        const double top = (keyLabels ? layout.labelMargin + layout.titleMargin : 0.0);
        const double left = (queryLabels ? layout.labelMargin + layout.titleMargin : 0.0);
        double cell = std::min((target.width() - left - scaleWidth) / columns,
                               (target.height() - top) / rows);
        if (style.maximumCellSize > 0.0)
            cell = std::min(cell, style.maximumCellSize);
        if (cell >= 3.0)
            cell = std::floor(cell);
        layout.cell = std::max(cell, 0.0);
        const double width = left + layout.cell * columns + scaleWidth;
        const double height = top + layout.cell * rows;
        const double x = std::round(target.left() + (target.width() - width) / 2.0 + left);
        const double y = std::round(target.top() + (target.height() - height) / 2.0 + top);
        layout.cells = QRectF(x, y, layout.cell * columns, layout.cell * rows);
    };
    fit(style.showKeyLabels, style.showQueryLabels, style.showAxisTitles);
    if ((layout.keyLabels || layout.queryLabels) && layout.cell < kMinimumLabelledCell)
        fit(false, false, false);
    if (layout.colorScale && layout.cells.height() < 60.0)
        layout.colorScale = false;
    return layout;
}

QRectF cellRectIn(const HeatmapLayout& layout, int row, int key) {
    return QRectF(layout.cells.left() + key * layout.cell, layout.cells.top() + row * layout.cell,
                  layout.cell, layout.cell);
}

// Diagonal lines (bottom-left to top-right) inside the rectangles, on a grid
// shared by all of them so neighbouring cells continue each other's lines.
// Plain line segments rather than a clip or a pattern brush, so SVG output keeps
// them; pieces of one line in touching rectangles are joined into one segment.
void drawHatch(QPainter& painter, const QVector<QRectF>& rects) {
    // Along the line x + y = c a segment is the interval of its y values.
    std::map<long, std::vector<std::pair<double, double>>> segments;
    for (const QRectF& rect : rects) {
        const long firstLine = long(std::ceil((rect.left() + rect.top()) / kHatchSpacing));
        for (long line = firstLine; line * kHatchSpacing <= rect.right() + rect.bottom(); ++line) {
            const double c = line * kHatchSpacing;
            const double x0 = std::max(rect.left(), c - rect.bottom());
            const double x1 = std::min(rect.right(), c - rect.top());
            if (x1 > x0)
                segments[line].emplace_back(c - x1, c - x0);
        }
    }
    for (auto& [line, pieces] : segments) {
        const double c = line * kHatchSpacing;
        std::sort(pieces.begin(), pieces.end());
        double top = pieces.front().first, bottom = pieces.front().second;
        auto draw = [&] { painter.drawLine(QPointF(c - top, top), QPointF(c - bottom, bottom)); };
        for (size_t i = 1; i < pieces.size(); ++i) {
            if (pieces[i].first <= bottom + 1.5) {
                bottom = std::max(bottom, pieces[i].second);
            } else {
                draw();
                top = pieces[i].first;
                bottom = pieces[i].second;
            }
        }
        draw();
    }
}

void paintColorScale(QPainter& painter, const HeatmapLayout& layout, const HeatmapStyle& style) {
    const QFontMetricsF metrics(layout.labelFont);
    const double swatch = kColorScaleBarWidth;
    const double x = layout.cells.right() + kColorScaleGap;
    const double top = layout.cells.top() + metrics.height() / 2.0;
    const double bottom = layout.cells.bottom() - swatch - metrics.height();
    const QRectF bar(x, top, kColorScaleBarWidth, bottom - top);

    QLinearGradient gradient(bar.bottomLeft(), bar.topLeft());
    for (const heatmap_colors::ColorStop& stop : heatmap_colors::kViridis)
        gradient.setColorAt(stop.position, QColor::fromRgb(stop.color));
    painter.fillRect(bar, gradient);
    painter.setPen(QPen(style.textColor, 0.8));
    painter.setBrush(Qt::NoBrush);
    painter.drawRect(bar);

    painter.setFont(layout.labelFont);
    for (int tick = 0; tick <= 4; ++tick) {
        const double fraction = tick / 4.0;
        const double y = bar.bottom() - fraction * bar.height();
        painter.drawLine(QPointF(bar.right(), y), QPointF(bar.right() + 3.0, y));
        painter.drawText(QRectF(bar.right() + 6.0, y - metrics.height() / 2.0, 200.0,
                                metrics.height()),
                         Qt::AlignLeft | Qt::AlignVCenter,
                         QString::number(fraction * style.maximumWeight, 'f', 2));
    }

    const QRectF maskedSwatch(x, layout.cells.bottom() - swatch, swatch, swatch);
    painter.fillRect(maskedSwatch, AttentionHeatmap::maskedColor());
    painter.setPen(QPen(AttentionHeatmap::maskedHatchColor(), 1.0));
    drawHatch(painter, {maskedSwatch});
    painter.setPen(QPen(style.textColor, 0.8));
    painter.drawRect(maskedSwatch);
    painter.drawText(QRectF(maskedSwatch.right() + 6.0, maskedSwatch.top() - 4.0, 200.0, swatch + 8.0),
                     Qt::AlignLeft | Qt::AlignVCenter, translate("masked"));
}

void paintLabels(QPainter& painter, const HeatmapLayout& layout, const AttentionMatrix& matrix,
                 const HeatmapStyle& style) {
    painter.setPen(style.textColor);
    painter.setFont(layout.labelFont);
    if (layout.keyLabels) {
        for (int key = 0; key < matrix.keyCount(); ++key) {
            const QRectF cell = cellRectIn(layout, 0, key);
            const QRectF label(cell.left() - 4.0, layout.cells.top() - layout.labelMargin,
                               cell.width() + 8.0, layout.labelMargin);
            painter.drawText(label, Qt::AlignHCenter | Qt::AlignVCenter,
                             displayCharacter(matrix.keyChars[key]));
        }
    }
    if (layout.queryLabels) {
        for (int row = 0; row < matrix.queryCount(); ++row) {
            const QRectF cell = cellRectIn(layout, row, 0);
            const QRectF label(layout.cells.left() - layout.labelMargin, cell.top() - 4.0,
                               layout.labelMargin - 2.0, cell.height() + 8.0);
            painter.drawText(label, Qt::AlignHCenter | Qt::AlignVCenter,
                             displayCharacter(matrix.queryChars[row]));
        }
    }
    if (!layout.axisTitles)
        return;
    QFont titleFont = layout.labelFont;
    titleFont.setItalic(true);
    painter.setFont(titleFont);
    QColor titleColor = style.textColor;
    titleColor.setAlpha(170);
    painter.setPen(titleColor);
    if (layout.keyLabels) {
        const QRectF title(layout.cells.left(),
                           layout.cells.top() - layout.labelMargin - layout.titleMargin,
                           layout.cells.width(), layout.titleMargin);
        painter.drawText(title, Qt::AlignLeft | Qt::AlignVCenter, translate("key \u2192"));
    }
    if (layout.queryLabels) {
        painter.save();
        const double x = layout.cells.left() - layout.labelMargin - layout.titleMargin;
        painter.translate(x, layout.cells.top());
        painter.rotate(90.0);
        // After the rotation x runs down the rows and y runs leftwards.
        painter.drawText(QRectF(0.0, -layout.titleMargin, layout.cells.height(), layout.titleMargin),
                         Qt::AlignLeft | Qt::AlignVCenter, translate("query \u2192"));
        painter.restore();
    }
}

}  // namespace

AttentionHeatmap::AttentionHeatmap(QWidget* parent) : QWidget(parent) {
    setMouseTracking(true);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
}

void AttentionHeatmap::setMatrix(const AttentionMatrix& matrix) {
    matrix_ = matrix;
    hovered_.reset();
    updateGeometry();
    update();
}

void AttentionHeatmap::setHeatmapStyle(const HeatmapStyle& style) {
    style_ = style;
    updateGeometry();
    update();
}

void AttentionHeatmap::setPreferredCellSize(int pixels) {
    preferredCellSize_ = std::max(1, pixels);
    updateGeometry();
}

void AttentionHeatmap::paintMatrix(QPainter& painter, const QRectF& target,
                                   const AttentionMatrix& matrix, const HeatmapStyle& style,
                                   const QFont& font) {
    if (!matrix.isValid())
        return;
    const HeatmapLayout layout =
        computeLayout(target, matrix.queryCount(), matrix.keyCount(), style, font);
    if (layout.cell <= 0.0)
        return;

    painter.save();
    painter.setRenderHint(QPainter::Antialiasing, false);
    painter.setRenderHint(QPainter::SmoothPixmapTransform, false);

    const int rows = matrix.queryCount();
    const int keys = matrix.keyCount();
    QImage cells(keys, rows, QImage::Format_RGB32);
    const QRgb masked = maskedColor().rgb();
    for (int row = 0; row < rows; ++row) {
        auto* line = reinterpret_cast<QRgb*>(cells.scanLine(row));
        for (int key = 0; key < keys; ++key)
            line[key] = matrix.isMasked(row, key)
                            ? masked
                            : heatmap_colors::viridisRgb(matrix.weight(row, key), style.maximumWeight);
    }
    // Scaled here rather than by the paint device, so that no device (an SVG
    // viewer included) can smooth one cell into the next.
    const QSize cellsSize = layout.cells.size().toSize();
    painter.drawImage(layout.cells.topLeft(),
                      cells.scaled(cellsSize, Qt::IgnoreAspectRatio, Qt::FastTransformation));

    if (layout.cell >= kMinimumHatchedCell) {
        QVector<QRectF> maskedRuns;
        for (int row = 0; row < rows; ++row) {
            int key = 0;
            while (key < keys) {
                if (!matrix.isMasked(row, key)) {
                    ++key;
                    continue;
                }
                const int first = key;
                while (key < keys && matrix.isMasked(row, key))
                    ++key;
                maskedRuns.append(cellRectIn(layout, row, first)
                                      .united(cellRectIn(layout, row, key - 1))
                                      .adjusted(0.0, 0.0, -1.0, -1.0));
            }
        }
        painter.setPen(QPen(AttentionHeatmap::maskedHatchColor(), 1.0));
        drawHatch(painter, maskedRuns);
    }

    paintLabels(painter, layout, matrix, style);
    if (layout.colorScale)
        paintColorScale(painter, layout, style);
    painter.restore();
}

QString AttentionHeatmap::toolTipText(int row, int key) const {
    if (!matrix_.isValid() || row < 0 || key < 0 || row >= matrix_.queryCount() ||
        key >= matrix_.keyCount())
        return QString();
    const QString query = displayCharacter(matrix_.queryChars[row]);
    const QString keyCharacter = displayCharacter(matrix_.keyChars[key]);
    const int queryPosition = matrix_.queryPosition(row);
    if (matrix_.isMasked(row, key))
        return tr("query '%1' (pos %2) \u2192 key '%3' (pos %4): masked (a later position)")
            .arg(query)
            .arg(queryPosition)
            .arg(keyCharacter)
            .arg(key);
    return tr("query '%1' (pos %2) \u2192 key '%3' (pos %4): weight %5")
        .arg(query)
        .arg(queryPosition)
        .arg(keyCharacter)
        .arg(key)
        .arg(double(matrix_.weight(row, key)), 0, 'f', 4);
}

bool AttentionHeatmap::cellAt(const QPoint& point, int* row, int* key) const {
    if (!matrix_.isValid())
        return false;
    const HeatmapLayout layout =
        computeLayout(QRectF(rect()), matrix_.queryCount(), matrix_.keyCount(), style_, font());
    if (layout.cell <= 0.0 || !layout.cells.contains(QPointF(point) + QPointF(0.5, 0.5)))
        return false;
    const int r = int((point.y() + 0.5 - layout.cells.top()) / layout.cell);
    const int k = int((point.x() + 0.5 - layout.cells.left()) / layout.cell);
    if (r < 0 || k < 0 || r >= matrix_.queryCount() || k >= matrix_.keyCount())
        return false;
    if (row)
        *row = r;
    if (key)
        *key = k;
    return true;
}

QRect AttentionHeatmap::cellRect(int row, int key) const {
    if (!matrix_.isValid())
        return QRect();
    const HeatmapLayout layout =
        computeLayout(QRectF(rect()), matrix_.queryCount(), matrix_.keyCount(), style_, font());
    return cellRectIn(layout, row, key).toRect();
}

QImage AttentionHeatmap::renderImage(const QSize& requestedSize) const {
    const QSize size = requestedSize.isValid() ? requestedSize : this->size();
    QImage image(size, QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::white);
    QPainter painter(&image);
    HeatmapStyle style = style_;
    style.textColor = Qt::black;
    paintMatrix(painter, QRectF(QPointF(0, 0), QSizeF(size)), matrix_, style, font());
    return image;
}

bool AttentionHeatmap::exportTo(const QString& path, const QSize& requestedSize,
                                QString* error) const {
    QSize size = requestedSize;
    if (!size.isValid()) {
        const int cells = std::max(matrix_.keyCount(), matrix_.queryCount());
        const int edge = std::clamp(cells * 18 + 60, 240, 1400);
        size = QSize(edge + (style_.showColorScale ? 90 : 0), edge);
    }
    HeatmapStyle style = style_;
    style.textColor = Qt::black;
    const AttentionMatrix matrix = matrix_;
    const QFont font = this->font();
    return ViewExport::writePicture(
        path, size,
        [&](QPainter& painter, const QRectF& target) {
            paintMatrix(painter, target.adjusted(8, 8, -8, -8), matrix, style, font);
        },
        error);
}

QSize AttentionHeatmap::sizeHint() const {
    const int columns = std::max(1, matrix_.keyCount());
    const int rows = std::max(1, matrix_.queryCount());
    const int labels = (style_.showKeyLabels || style_.showQueryLabels) ? 40 : 0;
    const int scale = style_.showColorScale ? 90 : 0;
    return QSize(columns * preferredCellSize_ + labels + scale, rows * preferredCellSize_ + labels);
}

QSize AttentionHeatmap::minimumSizeHint() const {
    return QSize(std::max(1, matrix_.keyCount()), std::max(1, matrix_.queryCount()));
}

bool AttentionHeatmap::event(QEvent* event) {
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        int row = -1, key = -1;
        if (cellAt(help->pos(), &row, &key))
            QToolTip::showText(help->globalPos(), plainToolTip(toolTipText(row, key)), this, cellRect(row, key));
        else
            QToolTip::hideText();
        return true;
    }
    return QWidget::event(event);
}

void AttentionHeatmap::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    HeatmapStyle style = style_;
    style.textColor = palette().color(QPalette::WindowText);
    paintMatrix(painter, QRectF(rect()), matrix_, style, font());
    if (hovered_) {
        painter.setPen(QPen(Qt::white, 1.5));
        painter.setBrush(Qt::NoBrush);
        painter.drawRect(QRectF(cellRect(hovered_->first, hovered_->second)).adjusted(0.5, 0.5, -0.5, -0.5));
    }
}

void AttentionHeatmap::mouseMoveEvent(QMouseEvent* event) {
    int row = 0, key = 0;
    std::optional<std::pair<int, int>> cell;
    if (cellAt(event->position().toPoint(), &row, &key)) cell = std::make_pair(row, key);
    if (cell != hovered_) {
        hovered_ = cell;
        update();
        emit cellHovered(cell ? cell->first : -1, cell ? cell->second : -1);
    }
    QWidget::mouseMoveEvent(event);
}

void AttentionHeatmap::mouseReleaseEvent(QMouseEvent* event) {
    if (event->button() == Qt::LeftButton && rect().contains(event->position().toPoint())) {
        int row = -1, key = -1;
        if (cellAt(event->position().toPoint(), &row, &key))
            emit cellClicked(row, key);
        emit clicked();
    }
    QWidget::mouseReleaseEvent(event);
}

void AttentionHeatmap::leaveEvent(QEvent* event) {
    if (hovered_) {
        hovered_.reset();
        update();
        emit cellHovered(-1, -1);
    }
    QWidget::leaveEvent(event);
}
