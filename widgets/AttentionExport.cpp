// SPDX-License-Identifier: GPL-3.0-or-later
// Exporting attention: the file dialog, and the picture of a whole layer.
#include "widgets/AttentionExport.h"

#include <QCoreApplication>
#include <QFileDialog>
#include <QMessageBox>
#include <QPainter>

#include <algorithm>

#include "widgets/AttentionGrid.h"
#include "widgets/ViewExport.h"

namespace {

// Below this width the export's title and legend do not fit on one line.
constexpr int kWideHeaderWidth = 720;
constexpr int kNarrowMinimumWidth = 600;
constexpr int kSecondHeaderLine = 22;

}  // namespace

bool exportWithFileDialog(QWidget* parent, const QString& suggestedName,
                          const std::function<bool(const QString&, QString*)>& write) {
    const QString path = QFileDialog::getSaveFileName(
        parent, QCoreApplication::translate("AttentionGrid", "Export attention"), suggestedName,
        QCoreApplication::translate("AttentionGrid", "PNG image (*.png);;SVG drawing (*.svg)"));
    if (path.isEmpty())
        return false;
    QString error;
    if (!write(path, &error)) {
        QMessageBox box(QMessageBox::Warning, QCoreApplication::translate("AttentionGrid", "Export failed"), error,
                        QMessageBox::Ok, parent);
        box.setTextFormat(Qt::PlainText);  // the message names the file: never markup
        box.exec();
        return false;
    }
    return true;
}

QSize AttentionGrid::exportSize(const LayerAttention& layer) {
    return exportSize(int(layer.heads.size()), layer.heads.isEmpty() ? 16 : layer.heads.first().keyCount());
}

QSize AttentionGrid::exportSize(int heads, int keyCount) {
    const int count = std::clamp(heads, 1, 1 << 16);
    const int columns = gridColumns(count);
    const int rows = (count + columns - 1) / columns;
    const int keys = std::max(1, keyCount);
    const int tile = std::clamp(keys * 12 + 40, 160, 800);
    // Few heads: wide enough for the title and the legend, which then take two
    // lines (paintLayer), with the tiles centred.
    const int width = columns * tile + 16;
    if (width < kWideHeaderWidth)
        return QSize(kNarrowMinimumWidth, rows * (tile + 56) + 48 + kSecondHeaderLine);
    return QSize(width, rows * (tile + 56) + 48);
}

void AttentionGrid::paintLayer(QPainter& painter, const QRectF& target, int layerIndex,
                               const LayerAttention& layer, const QFont& font) {
    const int count = int(layer.heads.size());
    if (count == 0)
        return;
    const int columns = gridColumns(count);
    const int rows = (count + columns - 1) / columns;
    QFont titleFont = font;
    titleFont.setPixelSize(16);
    titleFont.setBold(true);
    QFont textFont = font;
    textFont.setPixelSize(12);
    const bool twoLineHeader = target.width() < kWideHeaderWidth;
    const double headerHeight = twoLineHeader ? 32.0 + kSecondHeaderLine : 32.0;
    const double textHeight = QFontMetricsF(textFont).height();
    const double tileHeight = (target.height() - headerHeight - 16.0) / rows;
    // Tiles no wider than tall (plus the title and figures), centred.
    const double tileWidth = std::min((target.width() - 16.0) / columns, tileHeight - 16.0);
    const double tilesLeft = target.left() + (target.width() - columns * tileWidth) / 2.0;

    painter.save();
    painter.setPen(Qt::black);
    painter.setFont(titleFont);
    painter.drawText(QRectF(target.left() + 8, target.top() + 4, target.width() - 16, 32.0),
                     Qt::AlignLeft | Qt::AlignVCenter,
                     QCoreApplication::translate("AttentionGrid", "Attention of layer %1")
                         .arg(layerIndex + 1));
    painter.setFont(textFont);
    const QRectF legendRect =
        twoLineHeader ? QRectF(target.left() + 8, target.top() + 4 + 32.0, target.width() - 16, kSecondHeaderLine)
                      : QRectF(target.left() + 8, target.top() + 4, target.width() - 16, headerHeight);
    painter.drawText(legendRect, (twoLineHeader ? Qt::AlignLeft : Qt::AlignRight) | Qt::AlignVCenter,
                     QCoreApplication::translate(
                         "AttentionGrid",
                         "rows: queries, columns: keys · weight 0 dark purple to 1 yellow · "
                         "hatched grey: masked"));
    HeatmapStyle style;
    style.showAxisTitles = false;
    for (int head = 0; head < count; ++head) {
        const QRectF tile(tilesLeft + (head % columns) * tileWidth,
                          target.top() + headerHeight + 8 + (head / columns) * tileHeight,
                          tileWidth, tileHeight);
        const HeadSummary summary = summarizeHead(layer.heads[head]);
        painter.setFont(textFont);
        painter.setPen(Qt::black);
        painter.drawText(QRectF(tile.left(), tile.top(), tile.width(), textHeight + 4),
                         Qt::AlignHCenter | Qt::AlignVCenter,
                         QCoreApplication::translate("AttentionGrid", "Head %1").arg(head + 1));
        const QRectF cells = tile.adjusted(4, textHeight + 6, -4, -(2 * textHeight + 8));
        AttentionHeatmap::paintMatrix(painter, cells, layer.heads[head], style, font);
        QStringList parts;
        for (SummaryFigure figure : allSummaryFigures())
            parts.append(QStringLiteral("%1 %2").arg(
                summaryFigureShortName(figure),
                QString::number(summaryValue(summary, figure), 'f',
                                figure == SummaryFigure::MeanDistance ? 1 : 2)));
        painter.setFont(textFont);
        painter.setPen(Qt::black);
        painter.drawText(QRectF(tile.left(), tile.bottom() - 2 * textHeight - 6, tile.width(),
                                2 * textHeight + 4),
                         Qt::AlignHCenter | Qt::AlignVCenter,
                         parts.mid(0, 2).join(QStringLiteral(" · ")) + QLatin1Char('\n') +
                             parts.mid(2).join(QStringLiteral(" · ")));
    }
    painter.restore();
}

bool AttentionGrid::exportTo(const QString& path, QString* error) const {
    const LayerAttention layer = layer_;
    const int layerIndex = layerIndex_;
    const QFont font = this->font();
    return ViewExport::writePicture(
        path, exportSize(layer),
        [&](QPainter& painter, const QRectF& target) {
            paintLayer(painter, target, layerIndex, layer, font);
        },
        error);
}

void AttentionGrid::exportWithDialog() {
    exportWithFileDialog(this, QStringLiteral("attention-L%1.png").arg(layerIndex_ + 1),
                         [this](const QString& path, QString* error) {
                             return exportTo(path, error);
                         });
}
