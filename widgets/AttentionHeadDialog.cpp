// SPDX-License-Identifier: GPL-3.0-or-later
// One head of attention shown large, with its colour scale, summary figures and export.
#include "widgets/AttentionGrid.h"

#include <QDialogButtonBox>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

#include "widgets/AttentionExport.h"
#include "widgets/AttentionHeadText.h"

using AttentionHeadText::figuresSentence;
using AttentionHeadText::headTitle;

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
    if (!layer_ || !head_) return;  // no head shown yet
    exportWithFileDialog(
        this, QStringLiteral("attention-L%1-H%2.png").arg(*layer_ + 1).arg(*head_ + 1),
        [this](const QString& path, QString* error) { return heatmap_->exportTo(path, QSize(), error); });
}
