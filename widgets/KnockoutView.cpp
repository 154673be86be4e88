// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/KnockoutView.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QPainter>
#include <QProgressBar>
#include <QPushButton>
#include <QSplitter>
#include <QStandardItemModel>
#include <QTableView>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

#include "widgets/ValueGrid.h"
#include "widgets/ViewExport.h"

namespace {

QString loss(double value) { return std::isfinite(value) ? QLocale().toString(value, 'f', 4) : QString(); }

QString signedLoss(double value) {
    if (!std::isfinite(value)) return QString();
    return (value >= 0 ? QStringLiteral("+") : QString()) + QLocale().toString(value, 'f', 4);
}

QString kindKey(KnockoutKind kind) {
    switch (kind) {
        case KnockoutKind::Head:
            return QStringLiteral("head");
        case KnockoutKind::Attention:
            return QStringLiteral("attention");
        case KnockoutKind::FeedForward:
            return QStringLiteral("feed_forward");
    }
    return QString();
}

QStandardItem* item(const QString& text, const QVariant& sortValue) {
    auto* cell = new QStandardItem(text);
    cell->setData(sortValue, KnockoutView::SortRole);
    cell->setEditable(false);
    return cell;
}

}  // namespace

KnockoutView::KnockoutView(QWidget* parent) : QWidget(parent) {
    explanation_ = new QLabel(this);
    explanation_->setWordWrap(true);
    baseline_ = new QLabel(this);
    baseline_->setTextFormat(Qt::PlainText);  // messages name files and hold text read from them: never markup
    baseline_->setWordWrap(true);
    knockoutButton_ = new QPushButton(this);
    knockoutButton_->setObjectName(QStringLiteral("knockoutButton"));
    exportButton_ = new QPushButton(this);
    busyBar_ = new QProgressBar(this);
    busyBar_->setRange(0, 0);  // no end known: a running bar
    busyBar_->setMaximumWidth(160);
    busyBar_->setTextVisible(false);
    busyBar_->setVisible(false);

    model_ = new QStandardItemModel(0, ColumnCount, this);
    model_->setSortRole(SortRole);
    table_ = new QTableView(this);
    table_->setModel(model_);
    table_->setSortingEnabled(true);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->verticalHeader()->setVisible(false);
    table_->horizontalHeader()->setStretchLastSection(true);
    table_->sortByColumn(IncreaseColumn, Qt::DescendingOrder);

    heatmap_ = new ValueGrid(this);
    heatmap_->setMaximumCellSize(44.0);
    heatmap_->setToolTipFunction([this](int layer, int head) { return toolTipText(layer, head); });

    auto* top = new QHBoxLayout;
    top->addWidget(baseline_, 1);
    top->addWidget(busyBar_);
    top->addWidget(knockoutButton_);
    top->addWidget(exportButton_);
    auto* splitter = new QSplitter(Qt::Horizontal, this);
    splitter->addWidget(table_);
    splitter->addWidget(heatmap_);
    splitter->setStretchFactor(0, 1);
    splitter->setStretchFactor(1, 1);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(explanation_);
    layout->addLayout(top);
    layout->addWidget(splitter, 1);

    connect(knockoutButton_, &QPushButton::clicked, this, [this] {
        setBusy(true);
        emit knockoutRequested();
    });
    connect(exportButton_, &QPushButton::clicked, this, [this] {
        ViewExport::chooseAndExport(
            this, tr("Export the knock-out"), QStringLiteral("knockout.png"),
            [this](const QString& path, QString* error) { return exportTo(path, error); });
    });
    retranslateUi();
}

void KnockoutView::setKnockout(const Knockout& knockout) {
    knockout_ = knockout;
    problem_.clear();
    busy_ = false;
    fillTable();
    updateHeatmap();
    updateStatus();
}

void KnockoutView::showProblem(const QString& message) {
    problem_ = message;
    busy_ = false;
    updateStatus();
}

void KnockoutView::setBusy(bool busy) {
    busy_ = busy;
    if (busy) {
        problem_.clear();
        busyBar_->setRange(0, 0);  // until the first progress arrives
    }
    updateStatus();
}

void KnockoutView::setProgress(int done, int total) {
    if (!busy_ || total <= 0) return;
    busyBar_->setRange(0, total);
    busyBar_->setValue(std::clamp(done, 0, total));
}

void KnockoutView::fillTable() {
    model_->removeRows(0, model_->rowCount());
    for (const KnockoutRow& row : knockout_.rows) {
        const bool head = row.kind == KnockoutKind::Head;
        model_->appendRow(
            {item(knockoutPartName(row), knockoutPartName(row)),
             item(QString::number(row.layer + 1), row.layer + 1),
             item(head && row.head ? QString::number(*row.head + 1) : QString(),
                  head ? row.head.value_or(0) + 1 : 0),
             item(loss(row.loss), std::isfinite(row.loss) ? row.loss : -1e300),
             item(signedLoss(row.increase), std::isfinite(row.increase) ? row.increase : -1e300)});
    }
    const QHeaderView* header = table_->horizontalHeader();
    model_->sort(header->sortIndicatorSection(), header->sortIndicatorOrder());
    table_->resizeColumnsToContents();
}

void KnockoutView::updateHeatmap() {
    ValueGridData data;
    data.scaleTitle = tr("loss increase, nats");
    double low = 0.0, high = 0.0;
    if (knockout_.layers > 0 && knockout_.heads > 0) {
        for (int l = 0; l < knockout_.layers; ++l) data.rowLabels << tr("L%1").arg(l + 1);
        for (int h = 0; h < knockout_.heads; ++h) data.columnLabels << tr("H%1").arg(h + 1);
        for (int l = 0; l < knockout_.layers; ++l)
            for (int h = 0; h < knockout_.heads; ++h) {
                const double increase = knockout_.headIncrease(l, h);
                data.values << increase;
                data.cellTexts << (std::isfinite(increase) ? QLocale().toString(increase, 'f', 2)
                                                           : QString());
                if (std::isfinite(increase)) {
                    low = std::min(low, increase);
                    high = std::max(high, increase);
                }
            }
    }
    data.minimum = low;
    data.maximum = high > low ? high : low + 1e-3;
    heatmap_->setData(data);
}

QString KnockoutView::toolTipText(int layer, int head) const {
    const double increase = knockout_.headIncrease(layer, head);
    if (!std::isfinite(increase)) return tr("%1 was not knocked out.").arg(headName(layer, head));
    return tr("%1 knocked out: loss %2 nats, %3 against %4 with every head")
        .arg(headName(layer, head), loss(knockout_.baselineLoss + increase), signedLoss(increase),
             loss(knockout_.baselineLoss));
}

void KnockoutView::updateStatus() {
    knockoutButton_->setEnabled(!busy_);
    busyBar_->setVisible(busy_);
    exportButton_->setEnabled(!knockout_.isEmpty());
    if (busy_)
        baseline_->setText(tr("Knocking out every head and block in turn…"));
    else if (!problem_.isEmpty())
        baseline_->setText(problem_);
    else if (knockout_.isEmpty())
        baseline_->setText(tr("Press Knock out to measure what each head and block is worth to the model."));
    else if (knockout_.step)
        baseline_->setText(
            tr("Baseline: validation loss %1 nats with nothing knocked out (model at step %2).")
                .arg(loss(knockout_.baselineLoss))
                .arg(*knockout_.step));
    else
        baseline_->setText(tr("Baseline: validation loss %1 nats with nothing knocked out.")
                               .arg(loss(knockout_.baselineLoss)));
}

QString KnockoutView::csv() const {
    QString out = QStringLiteral("knocked_out,kind,layer,head,loss,increase\n");
    out += QStringLiteral("nothing,baseline,,,%1,0\n").arg(ViewExport::csvNumber(knockout_.baselineLoss, 9));
    for (const KnockoutRow& row : knockout_.rows)
        out += QStringList{ViewExport::csvField(knockoutPartName(row)),
                           kindKey(row.kind),
                           QString::number(row.layer + 1),
                           row.kind == KnockoutKind::Head && row.head ? QString::number(*row.head + 1)
                                                                      : QString(),
                           ViewExport::csvNumber(row.loss, 9),
                           ViewExport::csvNumber(row.increase, 9)}
                   .join(QLatin1Char(',')) +
               QLatin1Char('\n');
    return out;
}

bool KnockoutView::exportTo(const QString& path, QString* error) const {
    const ValueGridData data = heatmap_->data();
    const QFont font = this->font();
    const QFontMetrics metrics(font);
    const QSize gridSize = ValueGrid::preferredSize(data, font, 40.0);
    // The ten largest increases, as the table shows them sorted.
    QVector<KnockoutRow> rows = knockout_.rows;
    std::stable_sort(rows.begin(), rows.end(), [](const KnockoutRow& a, const KnockoutRow& b) {
        const double x = std::isfinite(a.increase) ? a.increase : -1e300;
        const double y = std::isfinite(b.increase) ? b.increase : -1e300;
        return x > y;
    });
    rows.resize(std::min<qsizetype>(rows.size(), 10));
    const int line = metrics.height() + 2, margin = 12;
    const int listWidth = 300;
    const int height = std::max(gridSize.height(), line * int(rows.size() + 1)) + line * 3 + 2 * margin;
    const QSize size(gridSize.width() + listWidth + 3 * margin, height);
    const QString title = knockout_.step ? tr("Knock-out at step %1").arg(*knockout_.step) : tr("Knock-out");
    const QString baseline =
        tr("Baseline: validation loss %1 nats with nothing knocked out.").arg(loss(knockout_.baselineLoss));
    const QString heading = tr("Largest increases");
    return ViewExport::write(
        path, knockout_.isEmpty() ? QSize() : size,
        [&](QPainter& painter, const QRectF& target) {
            QFont bold = font;
            bold.setBold(true);
            double y = target.top() + margin;
            painter.setPen(Qt::black);
            painter.setFont(bold);
            painter.drawText(QPointF(target.left() + margin, y + metrics.ascent()), title);
            y += line;
            painter.setFont(font);
            painter.drawText(QPointF(target.left() + margin, y + metrics.ascent()), baseline);
            y += line * 2;
            ValueGrid::paintGrid(painter,
                                 QRectF(target.left() + margin, y, gridSize.width(), gridSize.height()), data,
                                 font, Qt::black, 40.0);
            const double x = target.left() + 2 * margin + gridSize.width();
            painter.setFont(bold);
            painter.drawText(QPointF(x, y + metrics.ascent()), heading);
            painter.setFont(font);
            for (int i = 0; i < rows.size(); ++i) {
                const double rowY = y + line * (i + 1) + metrics.ascent();
                painter.drawText(QPointF(x, rowY), knockoutPartName(rows[i]));
                painter.drawText(QPointF(x + 150, rowY), signedLoss(rows[i].increase));
            }
        },
        [this] { return csv(); }, error);
}

void KnockoutView::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange) retranslateUi();
    QWidget::changeEvent(event);
}

void KnockoutView::retranslateUi() {
    explanation_->setText(
        tr("What each part of the model is worth: the validation loss with one head (or a "
           "layer's whole attention or feed-forward block) switched off, its output set to zero. A "
           "large increase means the model relies on that part; near zero, it could do without."));
    knockoutButton_->setText(tr("Knock out"));
    knockoutButton_->setToolTip(
        tr("Measure the validation loss with each head and each block knocked out in turn"));
    exportButton_->setText(tr("Export…"));
    exportButton_->setToolTip(tr("Save the heatmap as a PNG or SVG picture, or the table as CSV"));
    model_->setHorizontalHeaderLabels(
        {tr("Knocked out"), tr("Layer"), tr("Head"), tr("Loss (nats)"), tr("Increase (nats)")});
    if (!knockout_.isEmpty()) {
        fillTable();
        updateHeatmap();
    }
    updateStatus();
}
