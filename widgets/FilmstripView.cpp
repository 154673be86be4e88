// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/FilmstripView.h"

#include <algorithm>

#include <QEvent>
#include <QFontDatabase>
#include <QHeaderView>
#include <QLabel>
#include <QTableWidget>
#include <QTableWidgetItem>
#include <QVBoxLayout>

#include <cmath>

namespace {

enum Column { StepColumn, LossColumn, SampleColumn, ColumnCount };

QTableWidgetItem* readOnlyItem(const QString& text) {
    auto* item = new QTableWidgetItem(text);
    item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsSelectable);
    return item;
}

}  // namespace

FilmstripView::FilmstripView(QWidget* parent) : QWidget(parent) {
    summary_ = new QLabel(this);
    summary_->setObjectName(QStringLiteral("filmstripSummary"));
    summary_->setTextFormat(Qt::PlainText);  // the prompt and the run's name are text, never markup
    summary_->setWordWrap(true);
    table_ = new QTableWidget(0, ColumnCount, this);
    table_->setObjectName(QStringLiteral("filmstripTable"));
    table_->verticalHeader()->hide();
    table_->setWordWrap(true);
    table_->setTextElideMode(Qt::ElideNone);
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    table_->setVerticalScrollMode(QAbstractItemView::ScrollPerPixel);
    // The step and loss columns are as wide as their widest text, widened as
    // rows come (fitNumberColumns): measuring every row again at each new one
    // (ResizeToContents) took minutes for a strip of 100,000 steps.
    table_->horizontalHeader()->setSectionResizeMode(StepColumn, QHeaderView::Fixed);
    table_->horizontalHeader()->setSectionResizeMode(LossColumn, QHeaderView::Fixed);
    table_->horizontalHeader()->setSectionResizeMode(SampleColumn, QHeaderView::Stretch);
    connect(table_, &QTableWidget::cellClicked, this, [this](int row, int) {
        if (row >= 0 && row < samples_.rows.size()) emit stepActivated(samples_.rows[row].step);
    });
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(summary_);
    layout->addWidget(table_, 1);
    retranslateUi();
}

void FilmstripView::setSamples(const FilmstripSamples& samples) {
    samples_ = samples;
    message_.clear();
    fillTable();
    showSummary();
}

void FilmstripView::showMessage(const QString& message) {
    samples_ = FilmstripSamples();
    message_ = message;
    fillTable();
    showSummary();
}

void FilmstripView::setCurrentStep(qint64 step) {
    currentStep_ = step;
    // The rows are in step order: the marked one is the last at or before the step.
    const auto after = std::upper_bound(samples_.rows.cbegin(), samples_.rows.cend(), step,
                                        [](qint64 s, const FilmstripRow& row) { return s < row.step; });
    markRow(int(after - samples_.rows.cbegin()) - 1);
}

void FilmstripView::markRow(int r) {
    if (r < 0) {
        table_->clearSelection();
        return;
    }
    table_->selectRow(r);
    table_->scrollToItem(table_->item(r, StepColumn));
}

std::optional<qint64> FilmstripView::currentStep() const {
    const QList<QTableWidgetItem*> selected = table_->selectedItems();
    if (selected.isEmpty()) return std::nullopt;
    return samples_.rows.value(selected.first()->row()).step;
}

void FilmstripView::showSummary() {
    summary_->setText(summaryText());
    // An empty strip's line is for the view on its own: the Filmstrip tab says
    // above it why there is none.
    summary_->setVisible(!summaryHidden_ || !samples_.rows.isEmpty() || !message_.isEmpty());
}

void FilmstripView::hideEmptySummary() {
    summaryHidden_ = true;
    showSummary();
}

QString FilmstripView::summaryText() const {
    if (!message_.isEmpty()) return message_;
    if (samples_.rows.isEmpty()) return tr("No filmstrip yet: it needs a run that keeps its weights.");
    QString prompt = samples_.prompt;
    prompt.replace(QLatin1Char('\n'), QLatin1String("\\n"));
    const QString from = prompt.isEmpty() ? tr("from the start of a document") : tr("from \"%1\"").arg(prompt);
    // One pass of arg(): a %N in the prompt stays as it is.
    return tr("A sample of up to %1 characters at each of %2 steps, %3, seed %4, temperature %5.")
        .arg(QString::number(samples_.chars), QString::number(samples_.rows.size()), from,
             QString::number(samples_.seed), QString::number(samples_.temperature));
}

void FilmstripView::fillTable() {
    table_->setRowCount(0);
    table_->setRowCount(int(samples_.rows.size()));
    for (int column : {StepColumn, LossColumn})
        table_->horizontalHeader()->resizeSection(column, table_->horizontalHeader()->sectionSizeHint(column));
    for (int r = 0; r < samples_.rows.size(); ++r) {
        setRowItems(r);
        fitNumberColumns(r);
    }
    table_->resizeRowsToContents();
    if (currentStep_) setCurrentStep(*currentStep_);
}

void FilmstripView::appendRow(const FilmstripRow& row) {
    samples_.rows.append(row);
    const int r = int(samples_.rows.size()) - 1;
    table_->insertRow(r);
    setRowItems(r);
    fitNumberColumns(r);
    table_->resizeRowToContents(r);
    // Rows come in step order, so a new row is the marked one or changes nothing:
    // a strip of 100,000 steps is filled in linear time.
    if (currentStep_ && row.step <= *currentStep_) markRow(r);
    showSummary();
}

void FilmstripView::setRowItems(int r) {
    const FilmstripRow& row = samples_.rows[r];
    auto* step = readOnlyItem(QString::number(row.step));
    step->setTextAlignment(Qt::AlignRight | Qt::AlignTop);
    table_->setItem(r, StepColumn, step);
    auto* loss = readOnlyItem(std::isfinite(row.valLoss) ? QString::number(row.valLoss, 'f', 4)
                                                         : QStringLiteral("\u2013"));
    loss->setTextAlignment(Qt::AlignRight | Qt::AlignTop);
    if (!std::isfinite(row.valLoss)) loss->setToolTip(tr("Not evaluated at this step"));
    table_->setItem(r, LossColumn, loss);
    QTableWidgetItem* sample = nullptr;
    if (row.sampled()) {
        sample = readOnlyItem(row.text);
        sample->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    } else {
        sample = readOnlyItem(tr("Skipped: %1").arg(row.skipped));
        sample->setForeground(palette().color(QPalette::Disabled, QPalette::Text));
    }
    sample->setTextAlignment(Qt::AlignLeft | Qt::AlignTop);
    table_->setItem(r, SampleColumn, sample);
}

void FilmstripView::fitNumberColumns(int r) {
    QHeaderView* header = table_->horizontalHeader();
    for (int column : {StepColumn, LossColumn}) {
        const int width = table_->sizeHintForIndex(table_->model()->index(r, column)).width();
        if (width > header->sectionSize(column)) header->resizeSection(column, width);
    }
}

void FilmstripView::retranslateUi() {
    table_->setHorizontalHeaderLabels({tr("Step"), tr("Val loss"), tr("Sample")});
    table_->setToolTip(tr("The same prompt, seed and temperature at every step the run keeps: noise first, then "
                          "characters, words and lines as the model learns."));
    if (!samples_.rows.isEmpty() || !message_.isEmpty()) fillTable();
    showSummary();
}

void FilmstripView::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange) retranslateUi();
    QWidget::changeEvent(event);
}

void FilmstripView::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    table_->resizeRowsToContents();  // the samples wrap to the new width
}
