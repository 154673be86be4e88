// SPDX-License-Identifier: GPL-3.0-or-later
// All layers x heads at a glance: thumbnails or one summary figure, with tooltips.
#include "widgets/AttentionGrid.h"

#include <QComboBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QHelpEvent>
#include <QLabel>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <limits>

#include "widgets/AttentionHeadText.h"

using AttentionHeadText::figuresSentence;
using AttentionHeadText::headTitle;

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
    g.labelWidth = metrics.horizontalAdvance(tr("L%1").arg(layers)) + 8.0;
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
                         Qt::AlignCenter, tr("H%1").arg(head + 1));
    for (int layer = 0; layer < attention_.layers.size(); ++layer)
        painter.drawText(QRectF(g.table.left() - g.labelWidth, g.table.top() + layer * (g.cell + g.gap),
                                g.labelWidth - 4, g.cell),
                         Qt::AlignRight | Qt::AlignVCenter, tr("L%1").arg(layer + 1));

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
