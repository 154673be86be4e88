// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/LiveScoresView.h"
#include "widgets/PlainToolTip.h"

#include <QEvent>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSpinBox>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

namespace {

QTableWidget* makeTable(QWidget* parent) {
    auto* table = new QTableWidget(parent);
    table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table->horizontalHeader()->setDefaultSectionSize(44);
    table->horizontalHeader()->setMinimumSectionSize(20);
    table->verticalHeader()->setDefaultSectionSize(22);
    table->setSelectionMode(QAbstractItemView::SingleSelection);
    return table;
}

// A score's cell. Its tooltip is written when it is asked for (on hover),
// not for each of the T×T cells of both tables at every update.
class ScoreCell : public QTableWidgetItem {
public:
    QVariant data(int role) const override {
        if (role != Qt::ToolTipRole)
            return QTableWidgetItem::data(role);
        const QTableWidget* table = tableWidget();
        if (!table)
            return QVariant();
        const int r = row(), c = column();
        const auto header = [](const QTableWidgetItem* item) { return item ? item->text() : QString(); };
        return plainToolTip(LiveScoresView::tr("query %1 (row %2) · key %3 (column %4): %5")
                                .arg(header(table->verticalHeaderItem(r)))
                                .arg(r)
                                .arg(header(table->horizontalHeaderItem(c)))
                                .arg(c)
                                .arg(text()));
    }
};

}  // namespace

LiveScoresView::LiveScoresView(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    intro_ = new QLabel(this);
    intro_->setWordWrap(true);
    layout->addWidget(intro_);

    auto* controls = new QHBoxLayout;
    layerLabel_ = new QLabel(this);
    layerSpin_ = new QSpinBox(this);
    layerSpin_->setObjectName(QStringLiteral("scoreLayer"));
    headLabel_ = new QLabel(this);
    headSpin_ = new QSpinBox(this);
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
    scaledTable_ = makeTable(this);
    maskedTable_ = makeTable(this);
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

void LiveScoresView::fillTable(QTableWidget* table, const QVector<float>& values) {
    const int t = scores_.size();
    QStringList labels;
    for (const QString& c : scores_.characters)
        labels << displayCharacter(c);
    // The same probe again (a new step of the same text): the cells stay and
    // only their values change; a new probe rebuilds the table.
    bool same = table->rowCount() == t && table->columnCount() == t;
    for (int i = 0; same && i < t; ++i)
        same = table->horizontalHeaderItem(i) && table->horizontalHeaderItem(i)->text() == labels[i];
    if (!same) {
        table->clear();
        table->setRowCount(t);
        table->setColumnCount(t);
        table->setHorizontalHeaderLabels(labels);
        table->setVerticalHeaderLabels(labels);
    }
    float largest = 0.0f;
    for (float v : values)
        if (std::isfinite(v))
            largest = std::max(largest, std::abs(v));
    const QBrush maskedText = palette().color(QPalette::PlaceholderText);
    const QBrush maskedBackground = palette().color(QPalette::AlternateBase);
    const QBrush black(Qt::black);
    for (int r = 0; r < t; ++r)
        for (int c = 0; c < t; ++c) {
            const float v = values[qsizetype(r) * t + c];
            QTableWidgetItem* item = table->item(r, c);
            if (!item) {
                item = new ScoreCell;
                item->setTextAlignment(Qt::AlignCenter);
                table->setItem(r, c, item);
            }
            if (std::isinf(v) && v < 0) {
                item->setText(QStringLiteral("-inf"));
                item->setForeground(maskedText);
                item->setBackground(maskedBackground);
            } else {
                item->setText(QString::number(v, 'f', 1));
                // Red for positive, blue for negative scores, by size.
                const double share = largest > 0 ? std::min(1.0, std::abs(v) / double(largest)) : 0.0;
                const int fade = 255 - int(150 * share);
                item->setBackground(v >= 0 ? QColor(255, fade, fade) : QColor(fade, fade, 255));
                item->setForeground(black);
            }
        }
}

void LiveScoresView::setScores(const HeadScores& scores, qint64 step) {
    scores_ = scores;
    step_ = step;
    problem_.clear();
    fillTable(scaledTable_, scores.scaled);
    fillTable(maskedTable_, scores.masked);
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
            .arg(scores_.layer)
            .arg(scores_.head)
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
