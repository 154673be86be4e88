// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/RunsList.h"

#include "widgets/CorpusNames.h"
#include "widgets/PlainToolTip.h"

#include <QAbstractItemDelegate>
#include <QApplication>
#include <QEvent>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QMessageBox>
#include <QPushButton>
#include <QSignalBlocker>
#include <QHash>
#include <QTableWidget>
#include <QVBoxLayout>

namespace {

enum Column { Compare, Name, Corpus, Preset, Settings, BestVal, Speed, Started, Length, End, ColumnCount };

constexpr int kIdRole = Qt::UserRole;
constexpr int kSortRole = Qt::UserRole + 1;
// Rows beyond those on screen whose text sets the columns' widths.
constexpr int kWidthRows = 20;

// Sorts by kSortRole when it is set (numbers, times), by its text otherwise.
class SortItem : public QTableWidgetItem {
public:
    using QTableWidgetItem::QTableWidgetItem;
    bool operator<(const QTableWidgetItem& other) const override {
        const QVariant a = data(kSortRole), b = other.data(kSortRole);
        if (a.isValid() && b.isValid())
            return a.toDouble() < b.toDouble();
        return text().localeAwareCompare(other.text()) < 0;
    }
};

QString duration(double seconds) {
    if (!std::isfinite(seconds) || seconds < 0)
        return QStringLiteral("–");
    const qint64 s = qRound64(seconds);
    if (s >= 3600)
        return QStringLiteral("%1:%2:%3").arg(s / 3600).arg((s / 60) % 60, 2, 10, QLatin1Char('0')).arg(s % 60, 2, 10, QLatin1Char('0'));
    return QStringLiteral("%1:%2").arg(s / 60).arg(s % 60, 2, 10, QLatin1Char('0'));
}

QString endText(const RunRow& run) {
    if (!run.ended.isValid())
        return RunsList::tr("no end (training, or killed)");
    if (!run.endReason)
        return QString();
    switch (*run.endReason) {
    case chargpt::EndReason::Finished: return RunsList::tr("finished");
    case chargpt::EndReason::TimeLimit: return RunsList::tr("time limit");
    case chargpt::EndReason::Stopped: return RunsList::tr("stopped");
    case chargpt::EndReason::NonFiniteLoss: return RunsList::tr("diverged");
    case chargpt::EndReason::Error:
        return RunsList::tr("failed");
    case chargpt::EndReason::Other: break;
    }
    return run.endReasonText;  // a word of another program's, as it is
}

}  // namespace

RunsList::RunsList(QWidget* parent) : QWidget(parent) {
    filter_ = new QLineEdit(this);
    filter_->setObjectName(QStringLiteral("runsFilter"));
    filter_->setClearButtonEnabled(true);
    count_ = new QLabel(this);
    table_ = new QTableWidget(0, ColumnCount, this);
    table_->setObjectName(QStringLiteral("runsTable"));
    table_->setSelectionBehavior(QAbstractItemView::SelectRows);
    table_->setSelectionMode(QAbstractItemView::SingleSelection);
    table_->setEditTriggers(QAbstractItemView::DoubleClicked | QAbstractItemView::EditKeyPressed);
    table_->verticalHeader()->hide();
    // Each column as wide as its text when the rows change (rebuild(),
    // updateInPlace()), from the rows on screen and a few more, not at every
    // layout from every row: measuring the text of a hundred runs' cells held
    // the window up to 30 ms whenever the tab was shown.
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::Interactive);
    table_->horizontalHeader()->setResizeContentsPrecision(kWidthRows);
    table_->horizontalHeader()->setStretchLastSection(true);
    table_->setWordWrap(false);
    table_->setSortingEnabled(true);
    table_->sortByColumn(Started, Qt::DescendingOrder);
    open_ = new QPushButton(this);
    open_->setObjectName(QStringLiteral("runsOpen"));
    continue_ = new QPushButton(this);
    continue_->setObjectName(QStringLiteral("runsContinue"));
    delete_ = new QPushButton(this);
    delete_->setObjectName(QStringLiteral("runsDelete"));

    auto* top = new QHBoxLayout;
    top->addWidget(filter_, 1);
    top->addWidget(count_);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(open_);
    buttons->addWidget(continue_);
    buttons->addStretch(1);
    buttons->addWidget(delete_);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(top);
    layout->addWidget(table_, 1);
    layout->addLayout(buttons);

    confirm_ = [this](const QString& question) {
        QMessageBox box(QMessageBox::Question, tr("Delete run"), question, QMessageBox::Yes | QMessageBox::No, this);
        box.setTextFormat(Qt::PlainText);  // the question names the run, a text of the library file: never markup
        return box.exec() == QMessageBox::Yes;
    };
    connect(filter_, &QLineEdit::textChanged, this, &RunsList::setFilter);
    connect(table_, &QTableWidget::itemChanged, this, [this](QTableWidgetItem* item) {
        if (rebuilding_)
            return;
        const qint64 id = item->data(kIdRole).toLongLong();
        if (item->column() == Compare) {
            emit comparedChanged(compared());
        } else if (item->column() == Name) {
            const RunRow* run = find(id);
            const QString name = item->text().trimmed();
            if (run && !name.isEmpty() && name != run->name) {
                for (RunRow& r : runs_)
                    if (r.id == id)
                        r.name = name;
                emit renameRequested(id, name);
            } else if (run) {
                const QSignalBlocker blocker(table_);
                item->setText(run->name);  // an empty name is no name
            }
        }
    });
    connect(table_, &QTableWidget::itemSelectionChanged, this, &RunsList::updateButtons);
    connect(table_->itemDelegate(), &QAbstractItemDelegate::closeEditor, this, [this] {
        if (hasPending_)
            QMetaObject::invokeMethod(this, [this] { setRuns(pending_); }, Qt::QueuedConnection);
    });
    connect(open_, &QPushButton::clicked, this, [this] {
        if (const RunRow* run = find(selectedRun()))
            emit openRequested(*run);
    });
    connect(continue_, &QPushButton::clicked, this, [this] {
        if (const RunRow* run = find(selectedRun()))
            emit continueRequested(*run);
    });
    connect(delete_, &QPushButton::clicked, this, &RunsList::deleteSelected);
    retranslate();
    updateButtons();
}

const RunRow* RunsList::find(qint64 id) const {
    for (const RunRow& run : runs_)
        if (run.id == id)
            return &run;
    return nullptr;
}

void RunsList::setRuns(const QVector<RunRow>& runs) {
    // A name being typed is not swept away by a list that follows a run: the
    // new list waits until the editor closes.
    const QWidget* focus = QApplication::focusWidget();
    if (focus && table_->viewport()->isAncestorOf(focus)) {  // an editor is open
        pending_ = runs;
        hasPending_ = true;
        return;
    }
    hasPending_ = false;
    if (updateInPlace(runs))
        return;  // the same runs: the ticks did not move
    const QVector<qint64> ticked = compared();
    runs_ = runs;
    rebuild();
    if (compared() != ticked)
        emit comparedChanged(compared());
}

void RunsList::rebuild() {
    // The ticks and the selection stay on the runs that are still listed.
    const QVector<qint64> ticked = compared();
    const qint64 selected = selectedRun();
    rebuilding_ = true;
    const QSignalBlocker blocker(table_);
    table_->setSortingEnabled(false);
    table_->setRowCount(0);
    table_->setRowCount(runs_.size());
    for (int row = 0; row < runs_.size(); ++row)
        fillRow(row, runs_[row]);
    table_->setSortingEnabled(true);
    restoreTicks(ticked);
    selectRun(selected);
    rebuilding_ = false;
    setFilter(filter_->text());
    updateButtons();
    table_->resizeColumnsToContents();
}

bool RunsList::updateInPlace(const QVector<RunRow>& runs) {
    if (runs.size() != runs_.size() || table_->rowCount() != runs_.size())
        return false;
    for (int i = 0; i < runs.size(); ++i)
        if (runs[i].id != runs_[i].id)
            return false;
    // The same runs in the same order: the list read again while a run
    // trains. Only the rows that changed are written again, in the items
    // they have, so the table is not rebuilt every few seconds.
    QHash<qint64, int> rowOf;
    for (int row = 0; row < table_->rowCount(); ++row)
        if (const QTableWidgetItem* item = table_->item(row, Name))
            rowOf.insert(item->data(kIdRole).toLongLong(), row);
    if (rowOf.size() != runs.size())
        return false;
    bool changed = false;
    rebuilding_ = true;
    {
        const QSignalBlocker blocker(table_);
        for (int i = 0; i < runs.size(); ++i) {
            if (sameRun(runs[i], runs_[i]))
                continue;
            if (!changed)
                table_->setSortingEnabled(false);  // rows do not move while they are written
            changed = true;
            fillRow(rowOf.value(runs[i].id), runs[i]);
        }
    }
    runs_ = runs;
    if (changed) {
        const qint64 selected = selectedRun();
        table_->setSortingEnabled(true);
        selectRun(selected);
    }
    rebuilding_ = false;
    if (changed) {
        setFilter(filter_->text());
        updateButtons();
        table_->resizeColumnsToContents();
    }
    return true;
}

void RunsList::fillRow(int row, const RunRow& run) {
    const QLocale locale;
    // Writes the row's items, or creates those it does not have yet.
    auto put = [&](int column, const QString& text, const QVariant& sort = QVariant()) {
        QTableWidgetItem* item = table_->item(row, column);
        if (!item) {
            item = new SortItem(text);
            item->setData(kIdRole, run.id);
            item->setFlags(Qt::ItemIsSelectable | Qt::ItemIsEnabled);
            table_->setItem(row, column, item);
        } else {
            item->setText(text);
        }
        if (sort.isValid())
            item->setData(kSortRole, sort);
        return item;
    };
    if (!table_->item(row, Compare)) {
        QTableWidgetItem* tick = put(Compare, QString(), 0);
        tick->setFlags(tick->flags() | Qt::ItemIsUserCheckable);
        tick->setCheckState(Qt::Unchecked);
    }
    QTableWidgetItem* name = put(Name, run.name);
    name->setFlags(Qt::ItemIsSelectable | Qt::ItemIsEnabled | Qt::ItemIsEditable);
    name->setToolTip(tr("Run %1, from %2. Double-click to rename.")
                         .arg(run.id)
                         .arg(run.origin == chargpt::RunOrigin::Cli ? tr("chargpt train") : tr("the app")));
    put(Corpus, corpusShownName(run.corpus))
        ->setToolTip(plainToolTip(tr("%1 bytes, fingerprint %2").arg(locale.toString(run.corpusBytes), run.corpusHash)));
    put(Preset, run.preset);
    put(Settings, run.shape())->setToolTip(tr("%1 parameters").arg(locale.toString(run.parameters)));
    put(BestVal,
        std::isfinite(run.bestValLoss) && run.bestStep ? tr("%1 (step %2)").arg(run.bestValLoss, 0, 'f', 4).arg(*run.bestStep)
                                                       : QStringLiteral("–"),
        std::isfinite(run.bestValLoss) ? run.bestValLoss : 1e300);
    put(Speed, std::isfinite(run.tokensPerSecond) ? locale.toString(qRound64(run.tokensPerSecond)) : QStringLiteral("–"),
        std::isfinite(run.tokensPerSecond) ? run.tokensPerSecond : 0.0);
    put(Started, locale.toString(run.started.toLocalTime(), QLocale::ShortFormat), double(run.started.toSecsSinceEpoch()));
    put(Length,
        run.firstStep > 0 ? tr("%1, steps %2 to %3")
                                .arg(duration(run.elapsedSeconds), locale.toString(run.firstStep),
                                     locale.toString(run.step))
                          : tr("%1, %2 steps").arg(duration(run.elapsedSeconds), locale.toString(run.step)),
        std::isfinite(run.elapsedSeconds) ? run.elapsedSeconds : 0.0);
    put(End, endText(run));
}

QVector<qint64> RunsList::compared() const {
    QVector<qint64> ids;
    for (int row = 0; row < table_->rowCount(); ++row)
        if (const QTableWidgetItem* tick = table_->item(row, Compare); tick && tick->checkState() == Qt::Checked)
            ids << tick->data(kIdRole).toLongLong();
    return ids;
}

void RunsList::setCompared(const QVector<qint64>& ids) {
    const QVector<qint64> before = compared();
    restoreTicks(ids);
    if (compared() != before)
        emit comparedChanged(compared());
}

void RunsList::restoreTicks(const QVector<qint64>& ids) {
    const QSignalBlocker blocker(table_);
    for (int row = 0; row < table_->rowCount(); ++row)
        if (QTableWidgetItem* tick = table_->item(row, Compare))
            tick->setCheckState(ids.contains(tick->data(kIdRole).toLongLong()) ? Qt::Checked : Qt::Unchecked);
}

qint64 RunsList::selectedRun() const {
    const QList<QTableWidgetItem*> items = table_->selectedItems();
    return items.isEmpty() ? 0 : items.first()->data(kIdRole).toLongLong();
}

void RunsList::selectRun(qint64 id) {
    for (int row = 0; row < table_->rowCount(); ++row)
        if (table_->item(row, Name) && table_->item(row, Name)->data(kIdRole).toLongLong() == id) {
            table_->selectRow(row);
            return;
        }
    table_->clearSelection();
}

void RunsList::setFilter(const QString& text) {
    if (filter_->text() != text) {
        const QSignalBlocker blocker(filter_);
        filter_->setText(text);
    }
    const QString needle = text.trimmed();
    for (int row = 0; row < table_->rowCount(); ++row) {
        bool match = needle.isEmpty();
        for (int column : {int(Name), int(Corpus), int(Preset), int(Settings), int(End)})
            if (!match && table_->item(row, column) &&
                table_->item(row, column)->text().contains(needle, Qt::CaseInsensitive))
                match = true;
        table_->setRowHidden(row, !match);
    }
    count_->setText(tr("%n run(s)", nullptr, visibleRows()));
}

int RunsList::visibleRows() const {
    int visible = 0;
    for (int row = 0; row < table_->rowCount(); ++row)
        visible += table_->isRowHidden(row) ? 0 : 1;
    return visible;
}

void RunsList::deleteSelected() {
    const RunRow* run = find(selectedRun());
    if (!run)
        return;
    const qint64 id = run->id;
    const QString question = tr("Delete the run “%1” (%2 steps) from the run library? Its curves are lost; "
                                "its checkpoints stay on disk.")
                                 .arg(run->name)
                                 .arg(run->step);
    if (confirm_ && confirm_(question))
        emit deleteRequested(id);
}

void RunsList::updateButtons() {
    const RunRow* run = find(selectedRun());
    const bool hasCheckpoint = run && !run->lastCheckpoint.isEmpty();
    open_->setEnabled(hasCheckpoint);
    continue_->setEnabled(hasCheckpoint);
    delete_->setEnabled(run != nullptr);
    const QString none = tr("This run wrote no checkpoint.");
    open_->setToolTip(plainToolTip(hasCheckpoint ? run->lastCheckpoint : none));
    continue_->setToolTip(plainToolTip(hasCheckpoint ? tr("Opens %1 and trains it further.").arg(run->lastCheckpoint) : none));
}

void RunsList::retranslate() {
    filter_->setPlaceholderText(tr("Filter by name, corpus, preset or settings"));
    table_->setHorizontalHeaderLabels({tr("Compare"), tr("Name"), tr("Corpus"), tr("Preset"), tr("Settings"),
                                       tr("Best validation"), tr("Tokens/s"), tr("Started"), tr("Length"),
                                       tr("End")});
    open_->setText(tr("Open checkpoint"));
    continue_->setText(tr("Continue training"));
    delete_->setText(tr("Delete…"));
    rebuild();
}

void RunsList::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QWidget::changeEvent(event);
}
