// SPDX-License-Identifier: GPL-3.0-or-later
// The heads of one layer as tiles: their figures, sorting and the large view on click.
#include "widgets/AttentionGrid.h"

#include <QCheckBox>
#include <QComboBox>
#include <QEvent>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QScrollArea>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>

#include "widgets/AttentionHeadText.h"

using AttentionHeadText::figuresSentence;
using AttentionHeadText::figuresText;

int AttentionGrid::gridColumns(int count) {
    return std::max(1, int(std::ceil(std::sqrt(double(count)))));
}

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
    if (const std::optional<int> head = dialog_ ? dialog_->head() : std::nullopt;
        head && dialog_->isVisible() && *head < layer_.heads.size())
        dialog_->setHead(layerIndex_, *head, layer_.heads[*head]);
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
        const double change = changes_.value(head, std::numeric_limits<double>::quiet_NaN());
        tiles_[head].title->setText(std::isfinite(change) && comparedStep_
                                        ? tr("Head %1 · moved %2 since step %3")
                                              .arg(head + 1)
                                              .arg(percentText(change))
                                              .arg(*comparedStep_)
                                        : tr("Head %1").arg(head + 1));
        tiles_[head].figures->setText(figuresText(summaries_[head], sortFigure_));
        tiles_[head].figures->setToolTip(figuresSentence(summaries_[head]));
    }
}

void AttentionGrid::setChanges(const QVector<double>& changes, std::optional<qint64> comparedStep) {
    changes_ = changes;
    comparedStep_ = comparedStep;
    updateTileTexts();
}

void AttentionGrid::sortBy(std::optional<SummaryFigure> figure, bool descending) {
    sortFigure_ = figure;
    descending_ = descending;
    const QVector<int> before = order_;
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
    // A new step of the same layer usually keeps the order: the tiles stay
    // where they are (placing them again relaid the whole grid out).
    if (order_ != before || arrangedTiles_ != tiles_.size())
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
    arrangedTiles_ = tiles_.size();
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
