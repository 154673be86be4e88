// SPDX-License-Identifier: GPL-3.0-or-later
#include "AttentionGrid.h"

#include <QCheckBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QDialogButtonBox>
#include <QEvent>
#include <QFileDialog>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHelpEvent>
#include <QLabel>
#include <QMessageBox>
#include <QMouseEvent>
#include <QPainter>
#include <QPushButton>
#include <QScrollArea>
#include <QToolTip>
#include <QVBoxLayout>

#include <algorithm>
#include <limits>
#include <cmath>
#include <numeric>

#include "ViewExport.h"

namespace {

QString figuresText(const HeadSummary& summary, std::optional<SummaryFigure> emphasised) {
    QStringList parts;
    for (SummaryFigure figure : allSummaryFigures()) {
        const int decimals = figure == SummaryFigure::MeanDistance ? 1 : 2;
        QString part = QStringLiteral("%1 %2").arg(summaryFigureShortName(figure),
                                                   QString::number(summaryValue(summary, figure),
                                                                   'f', decimals));
        if (emphasised && *emphasised == figure)
            part = QStringLiteral("<b>%1</b>").arg(part);
        parts.append(part);
    }
    return parts.mid(0, 2).join(QStringLiteral(" · ")) + QStringLiteral("<br>") +
           parts.mid(2).join(QStringLiteral(" · "));
}

QString figuresSentence(const HeadSummary& summary) {
    QStringList parts;
    for (SummaryFigure figure : allSummaryFigures())
        parts.append(QStringLiteral("%1: %2").arg(
            summaryFigureName(figure), QString::number(summaryValue(summary, figure), 'f', 3)));
    return parts.join(QStringLiteral(", "));
}

// Below this width the export's title and legend do not fit on one line.
constexpr int kWideHeaderWidth = 720;
constexpr int kNarrowMinimumWidth = 600;
constexpr int kSecondHeaderLine = 22;

int gridColumns(int count) {
    return std::max(1, int(std::ceil(std::sqrt(double(count)))));
}

QString headTitle(int layer, int head) {
    return QCoreApplication::translate("AttentionGrid", "Layer %1 · head %2").arg(layer).arg(head);
}

bool exportWithFileDialog(QWidget* parent, const QString& suggestedName,
                          const std::function<bool(const QString&, QString*)>& write) {
    const QString path = QFileDialog::getSaveFileName(
        parent, QCoreApplication::translate("AttentionGrid", "Export attention"), suggestedName,
        QCoreApplication::translate("AttentionGrid", "PNG image (*.png);;SVG drawing (*.svg)"));
    if (path.isEmpty())
        return false;
    QString error;
    if (!write(path, &error)) {
        QMessageBox::warning(parent, QCoreApplication::translate("AttentionGrid", "Export failed"),
                             error);
        return false;
    }
    return true;
}

}  // namespace

// ---------------------------------------------------------------------------

AttentionHeadDialog::AttentionHeadDialog(QWidget* parent)
    : QDialog(parent), heatmap_(new AttentionHeatmap(this)), summaryLabel_(new QLabel(this)),
      exportButton_(new QPushButton(tr("Export…"), this)) {
    HeatmapStyle style;
    style.showColorScale = true;
    heatmap_->setHeatmapStyle(style);
    heatmap_->setPreferredCellSize(18);
    summaryLabel_->setWordWrap(true);
    summaryLabel_->setTextInteractionFlags(Qt::TextSelectableByMouse);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, this);
    buttons->addButton(exportButton_, QDialogButtonBox::ActionRole);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    connect(exportButton_, &QPushButton::clicked, this, &AttentionHeadDialog::exportHead);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(heatmap_, 1);
    layout->addWidget(summaryLabel_);
    layout->addWidget(buttons);
    resize(760, 720);
}

void AttentionHeadDialog::setHead(int layer, int head, const AttentionMatrix& matrix) {
    layer_ = layer;
    head_ = head;
    heatmap_->setMatrix(matrix);
    setWindowTitle(headTitle(layer, head));
    summaryLabel_->setText(figuresSentence(summarizeHead(matrix)));
}

void AttentionHeadDialog::exportHead() {
    exportWithFileDialog(this, QStringLiteral("attention-L%1-H%2.png").arg(layer_).arg(head_),
                         [this](const QString& path, QString* error) {
                             return heatmap_->exportTo(path, QSize(), error);
                         });
}

// ---------------------------------------------------------------------------

AttentionGrid::AttentionGrid(QWidget* parent)
    : QWidget(parent), sortCombo_(new QComboBox(this)), descendingCheck_(new QCheckBox(this)),
      sortLabel_(new QLabel(this)), exportButton_(new QPushButton(this)) {
    auto* controls = new QHBoxLayout;
    controls->addWidget(sortLabel_);
    controls->addWidget(sortCombo_);
    controls->addWidget(descendingCheck_);
    controls->addStretch(1);
    controls->addWidget(exportButton_);

    auto* tilesHost = new QWidget;
    tilesLayout_ = new QGridLayout(tilesHost);
    tilesLayout_->setSpacing(8);
    tilesLayout_->setContentsMargins(0, 0, 0, 0);
    auto* scroll = new QScrollArea(this);
    scroll->setWidget(tilesHost);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(controls);
    layout->addWidget(scroll, 1);

    descendingCheck_->setChecked(true);
    retranslateUi();
    connect(sortCombo_, &QComboBox::currentIndexChanged, this,
            &AttentionGrid::applySortFromControls);
    connect(descendingCheck_, &QCheckBox::toggled, this, &AttentionGrid::applySortFromControls);
    connect(exportButton_, &QPushButton::clicked, this, &AttentionGrid::exportWithDialog);
}

void AttentionGrid::retranslateUi() {
    sortLabel_->setText(tr("Sort heads by:"));
    descendingCheck_->setText(tr("Largest first"));
    exportButton_->setText(tr("Export layer…"));
    const QSignalBlocker blocker(sortCombo_);
    const int current = std::max(0, sortCombo_->currentIndex());
    sortCombo_->clear();
    sortCombo_->addItem(tr("Head number"));
    for (SummaryFigure figure : allSummaryFigures())
        sortCombo_->addItem(summaryFigureName(figure));
    sortCombo_->setCurrentIndex(current);
    updateTileTexts();
}

void AttentionGrid::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    QWidget::changeEvent(event);
}

void AttentionGrid::setLayer(int layerIndex, const LayerAttention& layer) {
    layerIndex_ = layerIndex;
    layer_ = layer;
    summaries_.clear();
    for (const AttentionMatrix& head : layer_.heads)
        summaries_.append(summarizeHead(head));
    if (tiles_.size() != layer_.heads.size())
        rebuildTiles();
    for (int head = 0; head < tiles_.size(); ++head)
        tiles_[head].heatmap->setMatrix(layer_.heads[head]);
    sortBy(sortFigure_, descending_);
    if (dialog_ && dialog_->isVisible() && dialog_->head() >= 0 &&
        dialog_->head() < layer_.heads.size())
        dialog_->setHead(layerIndex_, dialog_->head(), layer_.heads[dialog_->head()]);
}

void AttentionGrid::rebuildTiles() {
    for (Tile& tile : tiles_)
        delete tile.frame;
    tiles_.clear();
    HeatmapStyle style;
    style.showAxisTitles = false;
    for (int head = 0; head < layer_.heads.size(); ++head) {
        Tile tile;
        tile.frame = new QWidget;
        tile.title = new QLabel(tile.frame);
        tile.heatmap = new AttentionHeatmap(tile.frame);
        tile.heatmap->setHeatmapStyle(style);
        tile.heatmap->setPreferredCellSize(8);
        tile.heatmap->setMinimumSize(120, 120);
        tile.heatmap->setCursor(Qt::PointingHandCursor);
        tile.figures = new QLabel(tile.frame);
        tile.figures->setTextFormat(Qt::RichText);
        tile.figures->setAlignment(Qt::AlignHCenter);
        tile.title->setAlignment(Qt::AlignHCenter);
        auto* layout = new QVBoxLayout(tile.frame);
        layout->setContentsMargins(2, 2, 2, 2);
        layout->setSpacing(2);
        layout->addWidget(tile.title);
        layout->addWidget(tile.heatmap, 1);
        layout->addWidget(tile.figures);
        connect(tile.heatmap, &AttentionHeatmap::clicked, this, [this, head] {
            emit headClicked(layerIndex_, head);
            if (enlargeOnClick_)
                showHeadLarge(head);
        });
        tiles_.append(tile);
    }
}

void AttentionGrid::updateTileTexts() {
    for (int head = 0; head < tiles_.size() && head < summaries_.size(); ++head) {
        tiles_[head].title->setText(tr("Head %1").arg(head));
        tiles_[head].figures->setText(figuresText(summaries_[head], sortFigure_));
        tiles_[head].figures->setToolTip(figuresSentence(summaries_[head]));
    }
}

void AttentionGrid::sortBy(std::optional<SummaryFigure> figure, bool descending) {
    sortFigure_ = figure;
    descending_ = descending;
    order_.resize(layer_.heads.size());
    std::iota(order_.begin(), order_.end(), 0);
    if (figure) {
        std::stable_sort(order_.begin(), order_.end(), [&](int a, int b) {
            const double va = summaryValue(summaries_[a], *figure);
            const double vb = summaryValue(summaries_[b], *figure);
            return descending ? va > vb : va < vb;
        });
    }
    {
        const QSignalBlocker comboBlocker(sortCombo_);
        const QSignalBlocker checkBlocker(descendingCheck_);
        sortCombo_->setCurrentIndex(figure ? 1 + int(allSummaryFigures().indexOf(*figure)) : 0);
        descendingCheck_->setChecked(descending);
        descendingCheck_->setEnabled(figure.has_value());
    }
    updateTileTexts();
    arrangeTiles();
}

void AttentionGrid::applySortFromControls() {
    const int index = sortCombo_->currentIndex();
    std::optional<SummaryFigure> figure;
    if (index > 0)
        figure = allSummaryFigures().value(index - 1);
    sortBy(figure, descendingCheck_->isChecked());
}

void AttentionGrid::arrangeTiles() {
    for (const Tile& tile : tiles_)
        tilesLayout_->removeWidget(tile.frame);
    const int columns = gridColumns(int(tiles_.size()));
    for (int i = 0; i < order_.size(); ++i)
        tilesLayout_->addWidget(tiles_[order_[i]].frame, i / columns, i % columns);
    for (int row = 0; row < tilesLayout_->rowCount(); ++row)
        tilesLayout_->setRowStretch(row, 1);
    for (int column = 0; column < tilesLayout_->columnCount(); ++column)
        tilesLayout_->setColumnStretch(column, 1);
}

AttentionHeatmap* AttentionGrid::heatmapOfHead(int head) const {
    return head >= 0 && head < tiles_.size() ? tiles_[head].heatmap : nullptr;
}

void AttentionGrid::showHeadLarge(int head) {
    if (head < 0 || head >= layer_.heads.size())
        return;
    if (!dialog_)
        dialog_ = new AttentionHeadDialog(this);
    dialog_->setHead(layerIndex_, head, layer_.heads[head]);
    dialog_->show();
    dialog_->raise();
}

QSize AttentionGrid::exportSize(const LayerAttention& layer) {
    const int count = std::max(1, int(layer.heads.size()));
    const int columns = gridColumns(count);
    const int rows = (count + columns - 1) / columns;
    const int keys = layer.heads.isEmpty() ? 16 : std::max(1, layer.heads.first().keyCount());
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
                         .arg(layerIndex));
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
                         QCoreApplication::translate("AttentionGrid", "Head %1").arg(head));
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
    exportWithFileDialog(this, QStringLiteral("attention-L%1.png").arg(layerIndex_),
                         [this](const QString& path, QString* error) {
                             return exportTo(path, error);
                         });
}

// ---------------------------------------------------------------------------

AttentionOverview::AttentionOverview(QWidget* parent)
    : QWidget(parent), displayCombo_(new QComboBox(this)), displayLabel_(new QLabel(this)) {
    setMouseTracking(true);
    auto* controls = new QHBoxLayout;
    controls->addWidget(displayLabel_);
    controls->addWidget(displayCombo_);
    controls->addStretch(1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(controls);
    layout->addStretch(1);
    retranslateUi();
    connect(displayCombo_, &QComboBox::currentIndexChanged, this, [this](int index) {
        std::optional<SummaryFigure> figure;
        if (index > 0)
            figure = allSummaryFigures().value(index - 1);
        figure_ = figure;
        update();
    });
}

void AttentionOverview::retranslateUi() {
    displayLabel_->setText(tr("Show:"));
    const QSignalBlocker blocker(displayCombo_);
    const int current = std::max(0, displayCombo_->currentIndex());
    displayCombo_->clear();
    displayCombo_->addItem(tr("Heatmaps"));
    for (SummaryFigure figure : allSummaryFigures())
        displayCombo_->addItem(summaryFigureName(figure));
    displayCombo_->setCurrentIndex(current);
}

void AttentionOverview::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    QWidget::changeEvent(event);
}

void AttentionOverview::setModelAttention(const ModelAttention& attention) {
    attention_ = attention;
    summaries_.clear();
    for (const LayerAttention& layer : attention_.layers) {
        QVector<HeadSummary> layerSummaries;
        for (const AttentionMatrix& head : layer.heads)
            layerSummaries.append(summarizeHead(head));
        summaries_.append(layerSummaries);
    }
    updateGeometry();
    update();
}

QRectF AttentionOverview::tableArea() const {
    const int top = displayCombo_->geometry().bottom() + 6;
    return QRectF(0, top, width(), height() - top);
}

AttentionOverview::Geometry AttentionOverview::tableGeometry() const {
    Geometry g;
    const int layers = int(attention_.layers.size());
    const int heads = attention_.headCount();
    if (layers == 0 || heads == 0)
        return g;
    const QFontMetricsF metrics(font());
    g.labelWidth = metrics.horizontalAdvance(tr("L%1").arg(layers - 1)) + 8.0;
    g.labelHeight = metrics.height() + 4.0;
    const QRectF area = tableArea();
    g.gap = 3.0;
    const double cell = std::min((area.width() - g.labelWidth) / heads - g.gap,
                                 (area.height() - 2.0 * g.labelHeight) / layers - g.gap);
    g.cell = std::max(4.0, std::floor(cell));
    if (figure_)
        g.cell = std::min(g.cell, 64.0);
    g.table = QRectF(area.left() + g.labelWidth, area.top() + g.labelHeight,
                     heads * (g.cell + g.gap), layers * (g.cell + g.gap));
    return g;
}

bool AttentionOverview::headAt(const QPoint& point, int* layer, int* head) const {
    const Geometry g = tableGeometry();
    if (g.cell <= 0.0 || !g.table.contains(point))
        return false;
    const int h = int((point.x() - g.table.left()) / (g.cell + g.gap));
    const int l = int((point.y() - g.table.top()) / (g.cell + g.gap));
    if (l < 0 || h < 0 || l >= attention_.layers.size() || h >= attention_.layers[l].heads.size())
        return false;
    if (layer)
        *layer = l;
    if (head)
        *head = h;
    return true;
}

QString AttentionOverview::toolTipText(int layer, int head) const {
    if (layer < 0 || layer >= summaries_.size() || head < 0 || head >= summaries_[layer].size())
        return QString();
    return headTitle(layer, head) + QStringLiteral("\n") + figuresSentence(summaries_[layer][head]);
}

QSize AttentionOverview::sizeHint() const {
    const int heads = std::max(1, attention_.headCount());
    const int layers = std::max(1, int(attention_.layers.size()));
    return QSize(heads * 52 + 40, layers * 52 + 70);
}

bool AttentionOverview::event(QEvent* event) {
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        int layer = -1, head = -1;
        if (headAt(help->pos(), &layer, &head))
            QToolTip::showText(help->globalPos(), toolTipText(layer, head), this);
        else
            QToolTip::hideText();
        return true;
    }
    return QWidget::event(event);
}

void AttentionOverview::mouseReleaseEvent(QMouseEvent* event) {
    int layer = -1, head = -1;
    if (event->button() == Qt::LeftButton && headAt(event->position().toPoint(), &layer, &head))
        emit headActivated(layer, head);
    QWidget::mouseReleaseEvent(event);
}

void AttentionOverview::paintEvent(QPaintEvent*) {
    const Geometry g = tableGeometry();
    if (g.cell <= 0.0)
        return;
    QPainter painter(this);
    const QColor textColor = palette().color(QPalette::WindowText);
    painter.setPen(textColor);
    for (int head = 0; head < attention_.headCount(); ++head)
        painter.drawText(QRectF(g.table.left() + head * (g.cell + g.gap), g.table.top() - g.labelHeight,
                                g.cell, g.labelHeight),
                         Qt::AlignCenter, tr("H%1").arg(head));
    for (int layer = 0; layer < attention_.layers.size(); ++layer)
        painter.drawText(QRectF(g.table.left() - g.labelWidth, g.table.top() + layer * (g.cell + g.gap),
                                g.labelWidth - 4, g.cell),
                         Qt::AlignRight | Qt::AlignVCenter, tr("L%1").arg(layer));

    double low = 0.0, high = 1.0;
    if (figure_) {
        low = std::numeric_limits<double>::max();
        high = std::numeric_limits<double>::lowest();
        for (const auto& layer : summaries_)
            for (const HeadSummary& summary : layer) {
                low = std::min(low, summaryValue(summary, *figure_));
                high = std::max(high, summaryValue(summary, *figure_));
            }
        if (*figure_ == SummaryFigure::PreviousTokenShare || *figure_ == SummaryFigure::LineStartShare) {
            low = 0.0;
            high = 1.0;
        }
        if (!(high > low))
            high = low + 1.0;
        painter.drawText(QRectF(g.table.left(), g.table.bottom() + 4, g.table.width(), g.labelHeight),
                         Qt::AlignLeft | Qt::AlignVCenter,
                         tr("Colour from %1 (dark) to %2 (yellow)")
                             .arg(low, 0, 'f', 2)
                             .arg(high, 0, 'f', 2));
    }
    HeatmapStyle thumbnailStyle;
    thumbnailStyle.showKeyLabels = thumbnailStyle.showQueryLabels = false;
    QFont valueFont = font();
    valueFont.setPixelSize(int(std::clamp(g.cell * 0.28, 7.0, 13.0)));
    for (int layer = 0; layer < attention_.layers.size(); ++layer) {
        for (int head = 0; head < attention_.layers[layer].heads.size(); ++head) {
            const QRectF cell(g.table.left() + head * (g.cell + g.gap),
                              g.table.top() + layer * (g.cell + g.gap), g.cell, g.cell);
            if (!figure_) {
                AttentionHeatmap::paintMatrix(painter, cell, attention_.layers[layer].heads[head],
                                              thumbnailStyle, font());
                continue;
            }
            const double value = summaryValue(summaries_[layer][head], *figure_);
            const double fraction = (value - low) / (high - low);
            painter.fillRect(cell, AttentionHeatmap::colorForWeight(fraction));
            painter.setFont(valueFont);
            painter.setPen(fraction > 0.6 ? Qt::black : Qt::white);
            painter.drawText(cell, Qt::AlignCenter,
                             QString::number(value, 'f', *figure_ == SummaryFigure::MeanDistance ? 1 : 2));
        }
    }
}
