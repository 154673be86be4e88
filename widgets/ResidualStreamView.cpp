// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/ResidualStreamView.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QVBoxLayout>

#include <algorithm>

#include "widgets/AttentionData.h"
#include "widgets/GridPicture.h"
#include "widgets/ValueGrid.h"
#include "widgets/ViewExport.h"

ResidualStreamView::ResidualStreamView(QWidget* parent) : QWidget(parent) {
    explanation_ = new QLabel(this);
    explanation_->setWordWrap(true);
    status_ = new QLabel(this);
    status_->setTextFormat(Qt::PlainText);
    status_->setWordWrap(true);
    knockoutButton_ = new QPushButton(this);
    knockoutButton_->setObjectName(QStringLiteral("residualKnockout"));
    exportButton_ = new QPushButton(this);
    exportButton_->setObjectName(QStringLiteral("residualExport"));
    normTitle_ = new QLabel(this);
    writeTitle_ = new QLabel(this);
    norms_ = new ValueGrid(this);
    norms_->setMaximumCellSize(26.0);
    norms_->setToolTipFunction([this](int row, int position) { return normToolTip(row, position); });
    writes_ = new ValueGrid(this);
    writes_->setMaximumCellSize(26.0);
    writes_->setToolTipFunction([this](int row, int position) { return writeToolTip(row, position); });

    auto* top = new QHBoxLayout;
    top->addWidget(status_, 1);
    top->addWidget(knockoutButton_);
    top->addWidget(exportButton_);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(explanation_);
    layout->addLayout(top);
    layout->addWidget(normTitle_);
    layout->addWidget(norms_, 1);
    layout->addWidget(writeTitle_);
    layout->addWidget(writes_, 2);

    connect(knockoutButton_, &QPushButton::clicked, this, [this] {
        setBusy(true);
        emit knockoutRequested();
    });
    connect(exportButton_, &QPushButton::clicked, this, [this] {
        ViewExport::chooseAndExport(this, tr("Export the residual stream"), QStringLiteral("residual-stream.png"),
                                    [this](const QString& path, QString* error) { return exportTo(path, error); });
    });
    retranslateUi();
}

void ResidualStreamView::setStream(const ResidualStreamData& stream) {
    stream_ = stream;
    problem_.clear();
    updateView();
}

void ResidualStreamView::showProblem(const QString& message) {
    problem_ = message;
    stream_ = ResidualStreamData();
    updateView();
}

void ResidualStreamView::setKnockout(const Knockout& knockout) {
    knockout_ = knockout;
    knockoutProblem_.clear();
    busy_ = false;
    updateView();
}

void ResidualStreamView::showKnockoutProblem(const QString& message) {
    knockoutProblem_ = message;
    busy_ = false;
    updateView();
}

void ResidualStreamView::setBusy(bool busy) {
    busy_ = busy;
    knockoutButton_->setEnabled(!busy_ && stream_.isValid());
    exportButton_->setEnabled(stream_.isValid());
}

QString ResidualStreamView::csv() const {
    QString out = QStringLiteral("quantity,layer,position,character,value\n");
    if (!stream_.isValid()) return out;
    const int T = stream_.positionCount();
    auto row = [&](const char* quantity, int layer, int position, double value) {
        out += QStringList{QLatin1String(quantity), QString::number(layer),
                           position >= 0 ? QString::number(position) : QString(),
                           position >= 0 ? ViewExport::csvField(stream_.characters[position]) : QString(),
                           ViewExport::csvNumber(value)}
                   .join(QLatin1Char(',')) +
               QLatin1Char('\n');
    };
    for (int l = 0; l <= stream_.layers; ++l)
        for (int p = 0; p < T; ++p) row("stream_size", l, p, stream_.norms[qsizetype(l) * T + p]);
    for (int l = 0; l < stream_.layers; ++l) {
        for (int p = 0; p < T; ++p) row("attention_write", l + 1, p, stream_.attentionWrites[qsizetype(l) * T + p]);
        for (int p = 0; p < T; ++p)
            row("feed_forward_write", l + 1, p, stream_.feedForwardWrites[qsizetype(l) * T + p]);
        row("attention_share", l + 1, -1, stream_.attentionShare(l));
    }
    if (knockout_.layers == stream_.layers)
        for (const KnockoutRow& r : knockout_.rows) {
            if (r.kind == KnockoutKind::Attention) row("loss_increase_without_attention", r.layer + 1, -1, r.increase);
            if (r.kind == KnockoutKind::FeedForward)
                row("loss_increase_without_feed_forward", r.layer + 1, -1, r.increase);
        }
    return out;
}

bool ResidualStreamView::exportTo(const QString& path, QString* error) const {
    GridPicture picture;
    picture.title = tr("The residual stream");
    picture.caption = explanation_->text();
    if (stream_.isValid()) {
        picture.parts.push_back({normTitle_->text(), norms_->data(), 26.0});
        picture.parts.push_back({writeTitle_->text(), writes_->data(), 26.0});
        picture.notes << status_->text();
    }
    return picture.write(path, font(), [this] { return csv(); }, error);
}

QString ResidualStreamView::writerLabel(int row) const {
    const int layer = row / 2;
    const bool attention = row % 2 == 0;
    const double share = stream_.attentionShare(layer);
    QString label = attention ? tr("L%1 attention").arg(layer + 1) : tr("L%1 feed-forward").arg(layer + 1);
    QStringList notes;
    if (!std::isnan(share)) notes << percentText(attention ? share : 1.0 - share);
    const KnockoutKind kind = attention ? KnockoutKind::Attention : KnockoutKind::FeedForward;
    for (const KnockoutRow& r : knockout_.rows)
        if (r.kind == kind && r.layer == layer && knockout_.layers == stream_.layers && !std::isnan(r.increase))
            notes << tr("loss %1%2 without it")
                         .arg(r.increase >= 0 ? QStringLiteral("+") : QString(),
                              QLocale().toString(r.increase, 'f', 3));
    //: A layer's half, then in brackets its notes (its share of what the layer writes, the loss without it), joined by the separator below
    if (!notes.isEmpty()) label = tr("%1 (%2)").arg(label, notes.join(tr(", ", "between a layer's notes")));
    return label;
}

QString ResidualStreamView::normToolTip(int row, int position) const {
    if (!stream_.isValid() || row < 0 || row > stream_.layers || position < 0 || position >= stream_.positionCount())
        return QString();
    const QString where = row == 0 ? tr("after the embeddings") : tr("after block %1").arg(row);
    return tr("Position %1 (“%2”), %3: size %4")
        .arg(position)
        .arg(displayCharacter(stream_.characters[position]), where,
             QLocale().toString(stream_.norms[qsizetype(row) * stream_.positionCount() + position], 'f', 2));
}

QString ResidualStreamView::writeToolTip(int row, int position) const {
    if (!stream_.isValid() || row < 0 || row >= 2 * stream_.layers || position < 0 ||
        position >= stream_.positionCount())
        return QString();
    const QVector<double>& writes = row % 2 == 0 ? stream_.attentionWrites : stream_.feedForwardWrites;
    return tr("Position %1 (“%2”): %3 writes a vector of size %4")
        .arg(position)
        .arg(displayCharacter(stream_.characters[position]), writerLabel(row),
             QLocale().toString(writes[qsizetype(row / 2) * stream_.positionCount() + position], 'f', 2));
}

void ResidualStreamView::updateView() {
    ValueGridData norms, writes;
    norms.scaleTitle = tr("size of the residual stream");
    writes.scaleTitle = tr("size of what is written");
    if (stream_.isValid()) {
        const int T = stream_.positionCount();
        QStringList characters;
        for (const QString& c : stream_.characters) characters << displayCharacter(c);
        norms.columnLabels = characters;
        writes.columnLabels = characters;
        norms.rowLabels << tr("embeddings");
        for (int l = 0; l < stream_.layers; ++l) norms.rowLabels << tr("block %1").arg(l + 1);
        norms.values = stream_.norms;
        norms.maximum = std::max(1e-9, *std::max_element(stream_.norms.begin(), stream_.norms.end()));
        double top = 1e-9;
        for (int l = 0; l < stream_.layers; ++l)
            for (int half = 0; half < 2; ++half) {
                writes.rowLabels << writerLabel(2 * l + half);
                const QVector<double>& from = half == 0 ? stream_.attentionWrites : stream_.feedForwardWrites;
                for (int p = 0; p < T; ++p) {
                    writes.values << from[qsizetype(l) * T + p];
                    top = std::max(top, from[qsizetype(l) * T + p]);
                }
            }
        writes.maximum = top;
    }
    norms_->setData(norms);
    writes_->setData(writes);
    if (!problem_.isEmpty())
        status_->setText(problem_);
    else if (!stream_.isValid())
        status_->setText(tr("Train a model or open a checkpoint to see its residual stream."));
    else if (!knockoutProblem_.isEmpty())
        status_->setText(knockoutProblem_);
    else if (knockout_.isEmpty())
        status_->setText(tr("Percentages: each half's share of what its layer writes. Knock out each part to "
                            "see what the loss becomes without it."));
    else
        status_->setText(
            tr("Percentages: each half's share of what its layer writes; the loss: the validation "
               "loss without that half (Knock-out tab, step %1).")
                .arg(knockout_.step ? QString::number(*knockout_.step) : QStringLiteral("?")));
    setBusy(busy_);
}

void ResidualStreamView::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange) retranslateUi();
    QWidget::changeEvent(event);
}

void ResidualStreamView::retranslateUi() {
    explanation_->setText(
        tr("Every block reads the residual stream, a vector per character, and adds what its attention and "
           "its feed-forward write to it; nothing is overwritten. Top: how large the stream is after the "
           "embeddings and after each block (brighter: larger). Bottom: how much each part adds at each "
           "character; the part that writes more changes the stream more."));
    normTitle_->setText(tr("The stream's size"));
    writeTitle_->setText(tr("What each part writes"));
    knockoutButton_->setText(tr("Knock out each part"));
    exportButton_->setText(tr("Export…"));
    exportButton_->setToolTip(tr("Save both grids as a PNG or SVG picture, or every value as a CSV table"));
    updateView();
}
