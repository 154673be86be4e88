// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/LadderView.h"

#include <QComboBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

#include "widgets/LadderText.h"
#include "widgets/Plot.h"

namespace {

constexpr int kRungs = 7;
const QColor kFloorColours[3] = {QColor(150, 150, 150), QColor(200, 120, 40), QColor(60, 140, 60)};

// The Training tab's colour for the n-gram floors (LossPlotMarks).
const QColor kNgramColour(60, 100, 160);

QString figure(double value) { return std::isfinite(value) ? QString::number(value, 'f', 3) : QStringLiteral("–"); }

// What the n-gram floors depend on: the text and its split; empty when one is unknown.
QString ngramKey(const QString& corpus, qint64 sequenceLen, double valFraction) {
    return corpus.isEmpty() || sequenceLen <= 0 || !(valFraction > 0.0)
               ? QString()
               : QStringLiteral("%1 %2 %3").arg(sequenceLen).arg(valFraction, 0, 'g', 17).arg(corpus);
}

}  // namespace

LadderView::LadderView(QWidget* parent) : QWidget(parent) {
    intro_ = new QLabel(this);
    intro_->setWordWrap(true);
    intro_->setTextFormat(Qt::PlainText);
    startButton_ = new QPushButton(this);
    startButton_->setObjectName(QStringLiteral("ladderStart"));
    connect(startButton_, &QPushButton::clicked, this, &LadderView::startRequested);
    auto* top = new QHBoxLayout;
    top->addWidget(intro_, 1);
    top->addWidget(startButton_);

    heading_ = new QLabel(this);
    heading_->setObjectName(QStringLiteral("ladderHeading"));
    heading_->setWordWrap(true);
    heading_->setTextFormat(Qt::PlainText);
    historyLabel_ = new QLabel(this);
    historyBox_ = new QComboBox(this);
    historyBox_->setObjectName(QStringLiteral("ladderHistory"));
    historyBox_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    historyLabel_->setBuddy(historyBox_);
    connect(historyBox_, &QComboBox::activated, this, [this](int index) {
        trainedHere_ = false;
        showRecord(index);
    });
    auto* which = new QHBoxLayout;
    which->addWidget(heading_, 1);
    which->addWidget(historyLabel_);
    which->addWidget(historyBox_);
    floorsNote_ = new QLabel(this);
    floorsNote_->setObjectName(QStringLiteral("ladderFloorsNote"));
    floorsNote_->setWordWrap(true);
    floorsNote_->setTextFormat(Qt::PlainText);

    plot_ = new Plot(this);
    plot_->setObjectName(QStringLiteral("ladderChart"));
    plot_->setMinimumHeight(260);
    best_ = plot_->addGraph();
    best_->setLineStyle(QCPGraph::lsNone);
    best_->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, QColor(30, 90, 200), 10));
    live_ = plot_->addGraph();
    live_->setLineStyle(QCPGraph::lsNone);
    live_->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(QColor(30, 90, 200), 2), Qt::NoBrush, 12));
    for (int i = 0; i < 3; ++i) {
        floorLine_[i] = new QCPItemStraightLine(plot_);
        floorLine_[i]->setPen(QPen(kFloorColours[i], 1.5, Qt::DashLine));
        floorLabel_[i] = new QCPItemText(plot_);
        floorLabel_[i]->setColor(kFloorColours[i]);
        floorLabel_[i]->setPositionAlignment(Qt::AlignRight | Qt::AlignBottom);
    }
    for (int i = 0; i < kNgramLines; ++i) {
        ngramLine_[i] = new QCPItemStraightLine(plot_);
        ngramLine_[i]->setPen(QPen(kNgramColour, 1.0, Qt::DotLine));
        ngramLabel_[i] = new QCPItemText(plot_);
        ngramLabel_[i]->setColor(kNgramColour);
        // Neighbouring floors lie close: their labels alternate between the
        // left end (above the line) and the right end (below it).
        ngramLabel_[i]->setPositionAlignment(i % 2 ? Qt::AlignRight | Qt::AlignTop
                                                   : Qt::AlignLeft | Qt::AlignBottom);
    }
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    plot_->xAxis->setTicker(ticker);
    plot_->xAxis->setRange(0.4, kRungs + 0.6);
    plot_->xAxis->setTickLabelRotation(20);

    lesson_ = new QLabel(this);
    lesson_->setObjectName(QStringLiteral("ladderLesson"));
    lesson_->setWordWrap(true);
    lesson_->setTextFormat(Qt::PlainText);
    QFont bold = lesson_->font();
    bold.setBold(true);
    lesson_->setFont(bold);

    table_ = new QTableWidget(0, 6, this);
    table_->setObjectName(QStringLiteral("ladderTable"));
    table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    table_->verticalHeader()->hide();
    table_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    table_->horizontalHeader()->setSectionResizeMode(1, QHeaderView::Stretch);
    table_->setWordWrap(true);

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addLayout(which);
    layout->addWidget(floorsNote_);
    layout->addWidget(plot_, 3);
    layout->addWidget(lesson_);
    layout->addWidget(table_, 2);
    retranslate();
}

void LadderView::start(const LadderFloors& floors, const QString& corpus, qint64 sequenceLen,
                       double valFraction) {
    trainedHere_ = true;
    shown_ = -1;
    floors_ = floors;
    rungs_.clear();
    floorsNote_->clear();
    showNgramFloorsOf(corpus, sequenceLen, valFraction);
    fillHistoryBox();
    updateHeading();
    redraw();
}

void LadderView::setNgramFloors(const QString& corpus, qint64 sequenceLen, double valFraction,
                                const QVector<double>& nats) {
    const QString key = ngramKey(corpus, sequenceLen, valFraction);
    ngramFloors_.insert(key, nats);
    ngramAsked_.remove(key);
    if (key == ngramKey_) {
        ngramNats_ = nats;
        redraw();
    }
}

void LadderView::showNgramFloorsOf(const QString& corpus, qint64 sequenceLen, double valFraction) {
    ngramKey_ = ngramKey(corpus, sequenceLen, valFraction);
    ngramNats_ = ngramKey_.isEmpty() ? QVector<double>() : ngramFloors_.value(ngramKey_);
    if (ngramKey_.isEmpty() || ngramFloors_.contains(ngramKey_) || ngramAsked_.contains(ngramKey_)) return;
    ngramAsked_.insert(ngramKey_);
    emit ngramFloorsWanted(corpus, sequenceLen, valFraction);
}

QVector<double> LadderView::ngramLines() const {
    QVector<double> heights;
    for (const QCPItemStraightLine* line : ngramLine_)
        heights.append(line->visible() ? line->point1->coords().y() : kLadderNoLoss);
    return heights;
}

void LadderView::setLadderTraining(bool on) {
    training_ = on;
    fillHistoryBox();
    updateHeading();
}

void LadderView::setHistory(const QVector<LadderRecord>& ladders, const QString& unreadable) {
    unreadable_ = unreadable;
    const QVector<qint64> shownIds = shown_ >= 0 ? history_[shown_].runIds() : QVector<qint64>();
    QVector<qint64> liveIds;
    if (trainedHere_)
        for (const LadderRungData& rung : rungs_)
            if (rung.runId) liveIds.append(*rung.runId);
    // The same ladder in a newer reading: one of its runs is among them (it
    // may have grown, or lost a run deleted in the Runs tab).
    auto find = [&ladders](const QVector<qint64>& ids) {
        for (int i = 0; i < ladders.size(); ++i)
            for (const LadderRungData& rung : ladders[i].rungs)
                if (rung.runId && ids.contains(*rung.runId)) return i;
        return -1;
    };
    history_ = ladders;
    if (trainedHere_) {
        // The ladder trained here stays as it is drawn (the rung in training
        // is newer than the library); its floors serve the library's copy.
        shown_ = find(liveIds);
        if (shown_ >= 0 && std::isfinite(floors_.uniform))
            recordedFloors_.insert(history_[shown_].floorsKey(), RecordedFloors{floors_, QString()});
        fillHistoryBox();
        updateHeading();
        return;
    }
    const int same = find(shownIds);
    showRecord(same >= 0 ? same : (history_.isEmpty() ? -1 : 0));
}

void LadderView::setRecordedFloors(const QString& key, const LadderFloors& floors, const QString& why) {
    recordedFloors_.insert(key, RecordedFloors{floors, why});
    floorsAsked_.remove(key);
    if (!trainedHere_ && shown_ >= 0 && history_[shown_].floorsKey() == key)
        showRecord(shown_);
}

void LadderView::showRecord(int index) {
    shown_ = index < history_.size() ? index : -1;
    floors_ = LadderFloors();
    floorsNote_->clear();
    rungs_.clear();
    QString ngramText;  // the ladder's corpus, once its text is known to be the one it trained on
    if (shown_ >= 0) {
        const LadderRecord& ladder = history_[shown_];
        rungs_ = ladder.rungs;
        const QString key = ladder.floorsKey();
        auto known = recordedFloors_.constFind(key);
        if (known != recordedFloors_.constEnd()) {
            floors_ = known->floors;
            if (!known->why.isEmpty())
                floorsNote_->setText(tr("No floors are drawn: %1").arg(known->why));
            else
                ngramText = ladder.corpus;
        } else {
            floorsNote_->setText(tr("Measuring the floors of the corpus's validation text…"));
            if (!floorsAsked_.contains(key)) {
                floorsAsked_.insert(key);
                emit floorsWanted(ladder);
            }
        }
    }
    if (shown_ >= 0)
        showNgramFloorsOf(ngramText, history_[shown_].sequenceLen, history_[shown_].valFraction);
    else
        showNgramFloorsOf(QString(), 0, 0.0);
    fillHistoryBox();
    updateHeading();
    redraw();
}

void LadderView::fillHistoryBox() {
    const QSignalBlocker quiet(historyBox_);
    historyBox_->clear();
    for (const LadderRecord& ladder : history_) {
        const QString when = ladder.started.isValid()
                                 ? QLocale().toString(ladder.started.toLocalTime(), QLocale::ShortFormat)
                                 : tr("at an unknown time");
        historyBox_->addItem(tr("%1, %2 (%n rung(s))", nullptr, int(ladder.rungs.size()))
                                 .arg(plainCorpusName(ladder.corpus, 48), when));
    }
    historyBox_->setCurrentIndex(shown_);
    // Several ladders to choose from; not while one trains, whose rungs arrive here.
    const bool several = history_.size() > 1;
    historyBox_->setVisible(several);
    historyLabel_->setVisible(several);
    historyBox_->setEnabled(!training_);
    historyBox_->setToolTip(training_ ? tr("An earlier ladder can be picked once this one has ended.")
                                      : tr("The ladders the run library keeps, the newest first."));
}

void LadderView::updateHeading() {
    QString text;
    const LadderRecord* ladder = shown_ >= 0 ? &history_[shown_] : nullptr;
    const QString corpus = ladder ? plainCorpusName(ladder->corpus) : QString();
    if (trainedHere_ && training_)
        text = ladder ? tr("The ladder training now, on %1.").arg(corpus) : tr("The ladder training now.");
    else if (trainedHere_ && !ladder)
        text = tr("The ladder trained in this window.");
    else if (ladder) {
        const QString when = ladder->started.isValid()
                                 ? QLocale().toString(ladder->started.toLocalTime(), QLocale::ShortFormat)
                                 : tr("at an unknown time");
        text = tr("The ladder trained on %1, started %2, read back from the run library.").arg(corpus, when);
    } else if (!unreadable_.isEmpty()) {
        text = tr("No ladder trained before can be shown. %1").arg(unreadable_);
    } else {
        text = tr("No ladder has been trained yet: Train the Architecture Ladder trains one on the loaded corpus "
                  "(and chargpt ladder on any), and the newest is shown here.");
    }
    heading_->setText(text);
    floorsNote_->setVisible(!floorsNote_->text().isEmpty());
}

QString LadderView::heading() const { return heading_->text(); }

QString LadderView::floorsNote() const { return floorsNote_->text(); }

void LadderView::setRung(const LadderRungData& rung) {
    auto at = std::find_if(rungs_.begin(), rungs_.end(), [&](const LadderRungData& r) { return r.number == rung.number; });
    if (at != rungs_.end())
        *at = rung;
    else
        rungs_.insert(std::upper_bound(rungs_.begin(), rungs_.end(), rung,
                                       [](const LadderRungData& a, const LadderRungData& b) { return a.number < b.number; }),
                      rung);
    redraw();
}

void LadderView::setStartEnabled(bool on) { startButton_->setEnabled(on); }

QString LadderView::lesson() const { return lesson_->text(); }

QVector<QPointF> LadderView::bestPoints() const {
    QVector<QPointF> points;
    for (auto it = best_->data()->constBegin(); it != best_->data()->constEnd(); ++it)
        points.append(QPointF(it->key, it->value));
    return points;
}

QVector<QPointF> LadderView::livePoints() const {
    QVector<QPointF> points;
    for (auto it = live_->data()->constBegin(); it != live_->data()->constEnd(); ++it)
        points.append(QPointF(it->key, it->value));
    return points;
}

QVector<double> LadderView::floorLines() const {
    QVector<double> heights;
    for (const QCPItemStraightLine* line : floorLine_)
        heights.append(line->visible() ? line->point1->coords().y() : kLadderNoLoss);
    return heights;
}

void LadderView::redraw() {
    best_->data()->clear();
    live_->data()->clear();
    double low = std::numeric_limits<double>::infinity(), high = -low;
    auto include = [&](double v) {
        if (std::isfinite(v)) {
            low = std::min(low, v);
            high = std::max(high, v);
        }
    };
    for (const LadderRungData& rung : rungs_) {
        if (rung.state == LadderRungData::State::Training) {
            if (std::isfinite(rung.currentValLoss))
                live_->addData(rung.number, rung.currentValLoss);
            include(rung.currentValLoss);
        } else if (std::isfinite(rung.bestValLoss)) {
            best_->addData(rung.number, rung.bestValLoss);
            include(rung.bestValLoss);
        }
    }
    const double heights[3] = {floors_.uniform, floors_.unigram, floors_.bigram};
    for (int i = 0; i < 3; ++i) {
        const bool shown = std::isfinite(heights[i]);
        floorLine_[i]->setVisible(shown);
        floorLabel_[i]->setVisible(shown);
        if (!shown)
            continue;
        include(heights[i]);
        floorLine_[i]->point1->setCoords(0, heights[i]);
        floorLine_[i]->point2->setCoords(1, heights[i]);
        floorLabel_[i]->position->setCoords(kRungs + 0.55, heights[i]);
    }
    for (int i = 0; i < kNgramLines; ++i) {
        const int n = i + 2;
        const double nats = n <= ngramNats_.size() ? ngramNats_[n - 1] : kLadderNoLoss;
        const bool shown = std::isfinite(nats);
        ngramLine_[i]->setVisible(shown);
        ngramLabel_[i]->setVisible(shown);
        if (!shown) continue;
        include(nats);
        ngramLine_[i]->point1->setCoords(0, nats);
        ngramLine_[i]->point2->setCoords(1, nats);
        ngramLabel_[i]->position->setCoords(i % 2 ? kRungs + 0.55 : 0.45, nats);
        ngramLabel_[i]->setText(tr("%1-gram floor").arg(n));
    }
    if (std::isfinite(low)) {
        const double margin = std::max(0.05, (high - low) * 0.08);
        plot_->yAxis->setRange(std::max(0.0, low - margin), high + margin);
    } else {
        plot_->yAxis->setRange(0, 5);
    }
    lesson_->setText(ladderLesson(floors_, rungs_));
    lesson_->setVisible(!lesson_->text().isEmpty());
    fillTable();
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

void LadderView::fillTable() {
    table_->setRowCount(int(rungs_.size()));
    for (int row = 0; row < rungs_.size(); ++row) {
        const LadderRungData& r = rungs_[row];
        QString best = figure(r.bestValLoss);
        if (r.state == LadderRungData::State::Training)
            best = tr("training… %1").arg(figure(r.currentValLoss));
        else if (r.state == LadderRungData::State::Stopped)
            best = tr("%1 (stopped)").arg(best);
        else if (r.state == LadderRungData::State::Failed)
            best = tr("%1 (the loss stopped being finite)").arg(best);
        else if (r.state == LadderRungData::State::Unended)
            best = tr("%1 (no end recorded)").arg(best);
        const QString cells[6] = {QStringLiteral("%1. %2").arg(r.number).arg(ladderRungTitle(r.number)),
                                  ladderRungAdds(r.number),
                                  QLocale().toString(r.parameters),
                                  best,
                                  r.totalSteps > 0 ? QStringLiteral("%1 / %2").arg(r.step).arg(r.totalSteps)
                                                   : QString::number(r.step),
                                  QString::number(r.seconds, 'f', 0)};
        for (int column = 0; column < 6; ++column) {
            auto* item = new QTableWidgetItem(cells[column]);
            if (column != 1)
                item->setTextAlignment(column == 0 ? Qt::AlignLeft | Qt::AlignVCenter : Qt::AlignRight | Qt::AlignVCenter);
            table_->setItem(row, column, item);
        }
    }
    table_->resizeRowsToContents();
}

void LadderView::retranslate() {
    intro_->setText(tr("The architecture ladder builds CharGPT part by part: each rung adds one part to the rung "
                       "before and trains alike on the loaded corpus, so the drop in validation loss shows what "
                       "that part is worth. Each rung is recorded in the Runs tab."));
    startButton_->setText(tr("Train the Architecture Ladder"));
    auto ticker = qSharedPointerDynamicCast<QCPAxisTickerText>(plot_->xAxis->ticker());
    ticker->clear();
    for (int n = 1; n <= kRungs; ++n)
        ticker->addTick(n, QStringLiteral("%1. %2").arg(n).arg(ladderRungTitle(n)));
    plot_->xAxis->setLabel(tr("rung"));
    setAxisTitle(plot_->yAxis, tr("best validation loss (nats)"));
    floorLabel_[0]->setText(tr("uniform floor"));
    floorLabel_[1]->setText(tr("unigram floor"));
    floorLabel_[2]->setText(tr("bigram floor"));
    table_->setHorizontalHeaderLabels(
        {tr("Rung"), tr("What it adds"), tr("Parameters"), tr("Best val loss"), tr("Steps"), tr("Seconds")});
    historyLabel_->setText(tr("&Ladder:"));
    if (!trainedHere_ && shown_ >= 0) {
        showRecord(shown_);  // its lines in the new language
        return;
    }
    fillHistoryBox();
    updateHeading();
    redraw();
}

void LadderView::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QWidget::changeEvent(event);
}
