// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/CheckpointPanel.h"
#include "widgets/PresentationScale.h"
#include "widgets/PlainToolTip.h"

#include <QEvent>
#include <QFileInfo>
#include <QFormLayout>
#include <QLabel>
#include <QLocale>
#include <QVBoxLayout>

#include <cmath>

CheckpointPanel::CheckpointPanel(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);

    titleLabel_ = new QLabel(this);
    QFont titleFont = titleLabel_->font();
    titleFont.setBold(true);
    titleLabel_->setFont(scaledFont(titleFont, 1.15));
    layout->addWidget(titleLabel_);

    emptyLabel_ = new QLabel(this);
    emptyLabel_->setWordWrap(true);
    emptyLabel_->setForegroundRole(QPalette::PlaceholderText);
    layout->addWidget(emptyLabel_);

    form_ = new QWidget(this);
    auto* formLayout = new QFormLayout(form_);
    formLayout->setContentsMargins(0, 0, 0, 0);
    formLayout->setLabelAlignment(Qt::AlignLeft);
    formLayout->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    formLayout->setRowWrapPolicy(QFormLayout::DontWrapRows);
    for (int row = 0; row < RowCount; ++row) {
        nameLabels_[row] = new QLabel(form_);
        valueLabels_[row] = new QLabel(form_);
        valueLabels_[row]->setTextFormat(Qt::PlainText);  // messages name files and hold text read from them: never markup
        valueLabels_[row]->setTextInteractionFlags(Qt::TextSelectableByMouse);
        formLayout->addRow(nameLabels_[row], valueLabels_[row]);
    }
    valueLabels_[File]->setWordWrap(true);
    layout->addWidget(form_);
    layout->addStretch(1);

    retranslateUi();
}

void CheckpointPanel::showModel(const ModelSummary& model) {
    summary_ = model;
    refreshValues();
}

void CheckpointPanel::clear() {
    summary_.reset();
    refreshValues();
}

void CheckpointPanel::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    QWidget::changeEvent(event);
}

void CheckpointPanel::retranslateUi() {
    titleLabel_->setText(tr("Model"));
    emptyLabel_->setText(tr("No model yet: press Start to train one, or open a checkpoint with File > Open checkpoint…"));
    for (int row = 0; row < RowCount; ++row)
        nameLabels_[row]->setText(rowName(static_cast<Row>(row)));
    refreshValues();
}

QString CheckpointPanel::rowName(Row row) const {
    switch (row) {
    case File: return tr("File:");
    case Parameters: return tr("Parameters:");
    case Layers: return tr("Layers:");
    case Heads: return tr("Heads:");
    case Width: return tr("Width:");
    case Context: return tr("Context:");
    case Vocabulary: return tr("Vocabulary:");
    case Step: return tr("Step:");
    case TokensSeen: return tr("Tokens seen:");
    case LastValLoss: return tr("Last val loss:");
    case RowCount: break;
    }
    return {};
}

void CheckpointPanel::refreshValues() {
    emptyLabel_->setVisible(!summary_);
    form_->setVisible(summary_.has_value());
    if (!summary_)
        return;

    const ModelSummary& model = *summary_;
    const chargpt::RunConfig& settings = model.settings;
    const QLocale locale;
    valueLabels_[File]->setText(model.checkpointPath.isEmpty() ? tr("not saved yet")
                                                               : QFileInfo(model.checkpointPath).fileName());
    valueLabels_[File]->setToolTip(plainToolTip(model.checkpointPath));
    valueLabels_[Parameters]->setText(locale.toString(model.parameters));
    valueLabels_[Layers]->setText(locale.toString(qint64(settings.n_layer)));
    valueLabels_[Heads]->setText(tr("%1 × %2 dimensions")
                                     .arg(locale.toString(qint64(settings.n_head())),
                                          locale.toString(qint64(settings.head_size))));
    valueLabels_[Width]->setText(tr("%1 dimensions").arg(locale.toString(qint64(settings.emb_size))));
    valueLabels_[Context]->setText(tr("%1 characters").arg(locale.toString(qint64(settings.sequence_len))));
    valueLabels_[Vocabulary]->setText(tr("%1 characters").arg(locale.toString(model.vocabularySize)));
    valueLabels_[Step]->setText(locale.toString(model.step));
    valueLabels_[TokensSeen]->setText(locale.toString(model.tokensSeen));
    const auto& evaluations = model.history.evaluations;
    if (!evaluations.empty() && std::isfinite(evaluations.back().valLoss)) {
        valueLabels_[LastValLoss]->setText(tr("%1 (step %2)")
                                               .arg(locale.toString(evaluations.back().valLoss, 'f', 4),
                                                    locale.toString(qint64(evaluations.back().step))));
    } else {
        valueLabels_[LastValLoss]->setText(tr("not evaluated"));
    }
}
