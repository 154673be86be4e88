// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/RunsPage.h"

#include <QEvent>
#include <QLabel>
#include <QSplitter>
#include <QVBoxLayout>

#include <algorithm>

#include "widgets/RunsCompare.h"
#include "widgets/RunsHealthCompare.h"
#include "widgets/RunsList.h"

RunsPage::RunsPage(QWidget* parent) : QWidget(parent) {
    intro_ = new QLabel(this);
    intro_->setWordWrap(true);
    note_ = new QLabel(this);
    note_->setTextFormat(Qt::PlainText);  // messages name files and hold text read from them: never markup
    note_->setObjectName(QStringLiteral("runsLibraryNote"));
    note_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    QPalette muted = note_->palette();
    muted.setColor(QPalette::WindowText, muted.color(QPalette::PlaceholderText));
    note_->setPalette(muted);
    list_ = new RunsList(this);
    compare_ = new RunsCompare(this);
    health_ = new RunsHealthCompare(this);
    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(list_);
    split->addWidget(compare_);
    split->addWidget(health_);
    split->setStretchFactor(0, 2);
    split->setStretchFactor(1, 3);
    split->setStretchFactor(2, 1);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(intro_);
    layout->addWidget(note_);
    layout->addWidget(split, 1);
    connect(list_, &RunsList::comparedChanged, this, [this](const QVector<qint64>& ids) {
        showCompared();
        emit curvesWanted(ids);
    });
    retranslate();
}

void RunsPage::setRuns(const QVector<RunRow>& runs) {
    list_->setRuns(runs);
    // The list is read again every few seconds while a run trains: the
    // comparison is drawn again only when a compared run changed.
    const QVector<RunRow> rows = comparedRows();
    const QVector<RunRow>& shown = compare_->runs();
    bool same = rows.size() == shown.size();
    for (int i = 0; same && i < rows.size(); ++i)
        same = sameRun(rows[i], shown[i]);
    if (!same)
        compare_->setRuns(rows, curves_);
}

void RunsPage::setCurves(const QVector<RunCurve>& curves) {
    const QVector<qint64> ids = list_->compared();
    const bool allCompared = std::all_of(curves.begin(), curves.end(),
                                         [&](const RunCurve& curve) { return ids.contains(curve.id); });
    if (allCompared) {
        curves_ = curves;  // shared, not copied: three runs of 10,000 steps are megabytes
    } else {
        curves_.clear();
        for (const RunCurve& curve : curves)
            if (ids.contains(curve.id))
                curves_ << curve;
    }
    showCompared();
}

QVector<RunRow> RunsPage::comparedRows() const {
    const QVector<qint64> ids = list_->compared();
    QVector<RunRow> rows;
    for (qint64 id : ids)
        for (const RunRow& run : list_->runs())
            if (run.id == id)
                rows << run;
    return rows;
}

void RunsPage::showCompared() {
    const QVector<RunRow> rows = comparedRows();
    compare_->setRuns(rows, curves_);
    health_->setRuns(rows);
}

void RunsPage::setHealth(const QVector<qint64>& ids, const std::vector<chargpt::RunHealth>& health) {
    health_->setHealth(ids, health);
}

void RunsPage::setLibraryNote(const LibraryNote& note) {
    libraryNote_ = note;
    noteSet_ = true;
    note_->setText(libraryNoteText(note));
}

void RunsPage::retranslate() {
    intro_->setText(tr("Every training run, from this window or from chargpt train, is kept here with its "
                       "settings and curves. Tick runs to compare them: runs that differ only in their seed "
                       "are drawn as their mean with a band from the lowest to the highest."));
    if (noteSet_) note_->setText(libraryNoteText(libraryNote_));
}

void RunsPage::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QWidget::changeEvent(event);
}
