// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/LiveScoresView.h"
#include "widgets/AttentionData.h"  // displayCharacter
#include "widgets/CountSpinBox.h"
#include "widgets/PlainToolTip.h"

#include <QAbstractTableModel>
#include <QEvent>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <QTableView>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace {

QTableView* makeTable(QAbstractItemModel* model, QWidget* parent) {
    auto* table = new QTableView(parent);
    table->setModel(model);
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->horizontalHeader()->setDefaultSectionSize(44);
    table->horizontalHeader()->setMinimumSectionSize(20);
    table->verticalHeader()->setDefaultSectionSize(22);
    table->setSelectionMode(QAbstractItemView::SingleSelection);
    return table;
}

}  // namespace

// One table's T×T scores, read by its view for the cells on screen: a new step
// of the same probe is one dataChanged, where writing T×T items (4,096 for a
// context of 64, in two tables) held the window 10 to 25 ms at every update.
class LiveScoresView::ScoreModel : public QAbstractTableModel {
public:
    using QAbstractTableModel::QAbstractTableModel;

    void setScores(const QStringList& labels, const QVector<float>& values, const QBrush& maskedText,
                   const QBrush& maskedBackground) {
        const bool sameShape = labels == labels_;
        if (!sameShape)
            beginResetModel();
        labels_ = labels;
        values_ = values;
        maskedText_ = maskedText;
        maskedBackground_ = maskedBackground;
        largest_ = 0.0f;
        for (float v : values_)
            if (std::isfinite(v))
                largest_ = std::max(largest_, std::abs(v));
        if (!sameShape) {
            endResetModel();
        } else if (!labels_.isEmpty()) {
            emit dataChanged(index(0, 0), index(rowCount() - 1, columnCount() - 1));
        }
    }

    int rowCount(const QModelIndex& parent = QModelIndex()) const override {
        return parent.isValid() ? 0 : int(labels_.size());
    }
    int columnCount(const QModelIndex& parent = QModelIndex()) const override { return rowCount(parent); }

    QVariant data(const QModelIndex& index, int role) const override {
        const qsizetype at = qsizetype(index.row()) * labels_.size() + index.column();
        if (!index.isValid() || at >= values_.size())
            return QVariant();
        const float v = values_[at];
        const bool masked = std::isinf(v) && v < 0;
        switch (role) {
            case Qt::DisplayRole: return text(v);
            case Qt::TextAlignmentRole: return int(Qt::AlignCenter);
            case Qt::ForegroundRole: return masked ? maskedText_ : QBrush(Qt::black);
            case Qt::BackgroundRole: {
                if (masked)
                    return maskedBackground_;
                // Red for positive, blue for negative scores, by size.
                const double share = largest_ > 0 ? std::min(1.0, std::abs(v) / double(largest_)) : 0.0;
                const int fade = 255 - int(150 * share);
                return QBrush(v >= 0 ? QColor(255, fade, fade) : QColor(fade, fade, 255));
            }
            case Qt::ToolTipRole:  // written when asked for (on hover), not for every cell at every update
                return plainToolTip(LiveScoresView::tr("query %1 (row %2) · key %3 (column %4): %5")
                                        .arg(labels_[index.row()])
                                        .arg(index.row())
                                        .arg(labels_[index.column()])
                                        .arg(index.column())
                                        .arg(text(v)));
            default: return QVariant();
        }
    }

    QVariant headerData(int section, Qt::Orientation, int role) const override {
        if (role != Qt::DisplayRole || section < 0 || section >= labels_.size())
            return QVariant();
        return labels_[section];
    }

private:
    static QString text(float v) {
        return std::isinf(v) && v < 0 ? QStringLiteral("-inf") : QString::number(v, 'f', 1);
    }

    QStringList labels_;
    QVector<float> values_;
    float largest_ = 0.0f;
    QBrush maskedText_, maskedBackground_;
};

LiveScoresView::LiveScoresView(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    intro_ = new QLabel(this);
    intro_->setWordWrap(true);
    layout->addWidget(intro_);

    auto* controls = new QHBoxLayout;
    layerLabel_ = new QLabel(this);
    layerSpin_ = new CountSpinBox(this);
    layerSpin_->setObjectName(QStringLiteral("scoreLayer"));
    headLabel_ = new QLabel(this);
    headSpin_ = new CountSpinBox(this);
    headSpin_->setObjectName(QStringLiteral("scoreHead"));
    refreshButton_ = new QPushButton(this);
    controls->addWidget(layerLabel_);
    controls->addWidget(layerSpin_);
    controls->addWidget(headLabel_);
    controls->addWidget(headSpin_);
    controls->addWidget(refreshButton_);
    controls->addStretch(1);
    layout->addLayout(controls);

    figuresLabel_ = new QLabel(this);
    figuresLabel_->setTextFormat(Qt::PlainText);  // messages name files and hold text read from them: never markup
    figuresLabel_->setWordWrap(true);
    figuresLabel_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(figuresLabel_);

    auto* tables = new QGridLayout;
    scaledTitle_ = new QLabel(this);
    maskedTitle_ = new QLabel(this);
    scaledScores_ = new ScoreModel(this);
    maskedScores_ = new ScoreModel(this);
    scaledTable_ = makeTable(scaledScores_, this);
    maskedTable_ = makeTable(maskedScores_, this);
    tables->addWidget(scaledTitle_, 0, 0);
    tables->addWidget(maskedTitle_, 0, 1);
    tables->addWidget(scaledTable_, 1, 0);
    tables->addWidget(maskedTable_, 1, 1);
    layout->addLayout(tables, 1);

    auto request = [this] { emit scoresRequested(layer(), head()); };
    connect(layerSpin_, &QSpinBox::valueChanged, this, request);
    connect(headSpin_, &QSpinBox::valueChanged, this, request);
    connect(refreshButton_, &QPushButton::clicked, this, request);
    setModelShape(0, 0);
    retranslateUi();
}

void LiveScoresView::setModelShape(int layers, int heads) {
    const QSignalBlocker a(layerSpin_), b(headSpin_);
    layerSpin_->setRange(0, std::max(0, layers - 1));
    headSpin_->setRange(0, std::max(0, heads - 1));
    layerSpin_->setEnabled(layers > 0);
    headSpin_->setEnabled(heads > 0);
    refreshButton_->setEnabled(layers > 0);
}

int LiveScoresView::layer() const { return layerSpin_->value(); }
int LiveScoresView::head() const { return headSpin_->value(); }

void LiveScoresView::setHead(int layer, int head) {
    {
        const QSignalBlocker a(layerSpin_), b(headSpin_);
        layerSpin_->setValue(layer);
        headSpin_->setValue(head);
    }
    emit scoresRequested(this->layer(), this->head());
}

void LiveScoresView::setScores(const HeadScores& scores, qint64 step) {
    scores_ = scores;
    step_ = step;
    problem_.clear();
    QStringList labels;
    for (const QString& c : scores.characters)
        labels << displayCharacter(c);
    const QBrush maskedText = palette().color(QPalette::PlaceholderText);
    const QBrush maskedBackground = palette().color(QPalette::AlternateBase);
    scaledScores_->setScores(labels, scores.scaled, maskedText, maskedBackground);
    maskedScores_->setScores(labels, scores.masked, maskedText, maskedBackground);
    updateFigures();
}

void LiveScoresView::showProblem(const QString& message) {
    problem_ = message;
    updateFigures();
}

void LiveScoresView::updateFigures() {
    if (!problem_.isEmpty()) {
        figuresLabel_->setText(problem_);
        return;
    }
    if (scores_.size() == 0) {
        figuresLabel_->setText(tr("Train a model or open a checkpoint: the scores of its heads for the "
                                  "probe text of the Attention tab appear here."));
        return;
    }
    const double sqrtH = std::sqrt(double(scores_.headSize));
    figuresLabel_->setText(
        tr("Step %1, layer %2, head %3, H = %4, T = %5. Standard deviation of q·kᵀ: %6; divided by √H = %7: "
           "%8 (all T×T scores), %9 (the unmasked ones that reach the softmax).")
            .arg(step_)
            .arg(scores_.layer + 1)
            .arg(scores_.head + 1)
            .arg(scores_.headSize)
            .arg(scores_.size())
            .arg(scores_.unscaledStd, 0, 'f', 3)
            .arg(sqrtH, 0, 'f', 3)
            .arg(scores_.scaledStd, 0, 'f', 3)
            .arg(scores_.maskedStd, 0, 'f', 3));
}

void LiveScoresView::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    QWidget::changeEvent(event);
}

void LiveScoresView::retranslateUi() {
    intro_->setText(tr("The real scores of one head of the model for the probe text (Attention tab): "
                       "q·kᵀ/√H before the mask, then with -inf above the diagonal, where a query would "
                       "see a later character. The softmax of each masked row is the head's attention."));
    layerLabel_->setText(tr("Layer:"));
    headLabel_->setText(tr("Head:"));
    refreshButton_->setText(tr("Refresh"));
    scaledTitle_->setText(tr("Scaled scores q·kᵀ/√H (rows: queries, columns: keys)"));
    maskedTitle_->setText(tr("After the causal mask"));
    updateFigures();
}
