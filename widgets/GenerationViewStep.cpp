// SPDX-License-Identifier: GPL-3.0-or-later
// Why the generation view's last character was picked: the candidates, the attention rows, the lens.
#include "widgets/GenerationView.h"

#include <QGridLayout>
#include <QLabel>
#include <QSpinBox>
#include <qcustomplot.h>

#include <algorithm>

#include "widgets/AttentionHeatmap.h"
#include "widgets/LogitLensView.h"

namespace {

constexpr double kStripCellSize = 18.0;

}  // namespace

void GenerationView::showCandidates(const QStringList& characters,
                                    const QVector<double>& probabilities, std::optional<int> picked) {
    const int count = int(std::min(characters.size(), probabilities.size()));
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    QVector<double> keys, values, pickedKeys, pickedValues;
    for (QCPItemText* label : candidateLabels_)
        candidatesPlot_->removeItem(label);
    candidateLabels_.clear();
    double highest = 0.0;
    for (int i = 0; i < count; ++i) {
        ticker->addTick(i, displayCharacter(characters[i]));
        highest = std::max(highest, probabilities[i]);
        if (i == picked) {
            pickedKeys.append(i);
            pickedValues.append(probabilities[i]);
        } else {
            keys.append(i);
            values.append(probabilities[i]);
        }
        auto* label = new QCPItemText(candidatesPlot_);
        label->position->setCoords(i, probabilities[i]);
        label->setPositionAlignment(Qt::AlignHCenter | Qt::AlignBottom);
        label->setText(QString::number(probabilities[i], 'f', probabilities[i] < 0.01 ? 3 : 2));
        label->setClipToAxisRect(false);
        candidateLabels_.append(label);
    }
    candidatesPlot_->xAxis->setTicker(ticker);
    candidateBars_->setData(keys, values, true);
    pickedBar_->setData(pickedKeys, pickedValues, true);
    candidatesPlot_->xAxis->setRange(-0.6, std::max(count, 1) - 0.4);
    candidatesPlot_->yAxis->setRange(0.0, std::max(0.05, std::min(1.0, highest) * 1.18));
    candidatesPlot_->replot(QCustomPlot::rpQueuedReplot);
}

void GenerationView::showLens(const LogitLens& lens) { lensView_->setLens(lens); }

void GenerationView::setLayerCount(int layers) {
    layerSpin_->setRange(0, std::max(0, layers - 1));
}

int GenerationView::attentionLayer() const {
    return layerSpin_->value();
}

void GenerationView::showAttentionRows(const QVector<AttentionMatrix>& rows) {
    while (strips_.size() > rows.size()) {
        delete strips_.takeLast();
        delete stripLabels_.takeLast();
    }
    while (strips_.size() < rows.size()) {
        const int head = int(strips_.size());
        auto* label = new QLabel(tr("H%1").arg(head + 1), stripsHost_);
        auto* strip = new AttentionHeatmap(stripsHost_);
        strip->setPreferredCellSize(16);
        strip->setMinimumHeight(14);
        strip->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
        stripsLayout_->addWidget(label, head, 0);
        stripsLayout_->addWidget(strip, head, 1);
        stripLabels_.append(label);
        strips_.append(strip);
    }
    for (int head = 0; head < rows.size(); ++head) {
        HeatmapStyle style;
        style.showQueryLabels = false;
        style.showAxisTitles = false;
        // Characters above the first strip only; the others line up beneath it.
        style.showKeyLabels = head == 0;
        style.maximumCellSize = kStripCellSize;
        strips_[head]->setHeatmapStyle(style);
        strips_[head]->setMatrix(rows[head]);
        strips_[head]->setFixedHeight(int(kStripCellSize) + (head == 0 ? 30 : 2));
    }
    if (rows.isEmpty() || rows.first().queryCount() == 0) {
        attentionQueryLabel_->clear();
        return;
    }
    const AttentionMatrix& first = rows.first();
    attentionQueryLabel_->setText(tr("query '%1' (pos %2)")
                                      .arg(displayCharacter(first.queryChars.last()))
                                      .arg(first.queryPosition(first.queryCount() - 1)));
}
