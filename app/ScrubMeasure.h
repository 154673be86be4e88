// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QElapsedTimer>
#include <QObject>
#include <QString>
#include <QTimer>
#include <QVector>

#include <optional>

class MainWindow;

// `chargpt-studio --measure-scrub`: opens the newest run of the run library
// that wrote a checkpoint, as the Runs tab's Open does (its checkpoint becomes
// the model, its kept steps go on the timeline), shows the Attention tab and
// moves the timeline's slider to each kept step in turn: kPasses passes,
// forward, back and forward again. Each move is timed from the slider's move
// to the Attention tab showing that step (the weights read from the run
// library, the probe run through them, the page painted: the event loop's
// turn after the page's first paint once the step's attention is on it;
// "arrived_median_ms" stops at the attention on the page); the next move comes
// once the other views have followed too (the Inside page shows the step, or
// kSettleLimitMs passed) and a short pause. A 10 ms timer on the GUI thread
// records the longest gap between its ticks over the moves. Prints one JSON
// object, {"moves": N, "median_ms": ..., "p90_ms": ..., "max_ms": ...,
// "longest_stall_ms": ..., ...}, and quits. `chargpt bench --only timeline`
// runs it. When no measurement can run (no run in the library, none with a
// checkpoint, a run keeping fewer than two steps, weights that cannot be
// read, a step not shown in time), it prints "chargpt-studio: cannot measure:
// <why>" on stderr, no figures, and exits 1.
class ScrubMeasure : public QObject {
    Q_OBJECT
public:
    explicit ScrubMeasure(MainWindow& window);

private:
    // Moving: the slider moved; Drawing: the step's attention is on the page;
    // Painting: the page paints it; Settling: the other views follow.
    enum class Phase {
        WaitingForCorpus,
        Listing,
        Opening,
        Moving,
        Drawing,
        Painting,
        Settling,
        Pausing,
        Ended
    };
    void begin();
    void listed();
    void checkOpened();
    void nextMove();
    void attentionShown(qint64 step);
    bool eventFilter(QObject* watched, QEvent* event) override;
    void drawn();
    void settled();
    void beat();
    void finish();
    void fail(const QString& message);

    static constexpr int kPasses = 3;
    static constexpr int kOpenLimitMs = 60000;    // from the list to the run shown on the timeline
    static constexpr int kMoveLimitMs = 30000;    // from a move to its step shown
    static constexpr int kSettleLimitMs = 10000;  // the other views following a step
    static constexpr int kPauseMs = 50;           // between one step settled and the next move

    MainWindow& window_;
    Phase phase_ = Phase::WaitingForCorpus;
    std::optional<qint64> run_;  // the run opened, once listed
    bool checkpointOpened_ = false;
    QVector<int> moves_;  // the timeline indices to move to, in order
    int nextMove_ = 0;
    std::optional<qint64> target_;  // the step of the move in progress
    qint64 movedAtNs_ = 0;
    QVector<double> redrawMs_;   // from the move to the step drawn
    QVector<double> arrivedMs_;  // from the move to the step's attention on the page, not yet drawn
    QTimer heartbeat_, guard_, poll_, pause_;
    QElapsedTimer clock_;
    std::optional<qint64> lastBeatMs_;  // none before the first beat
    qint64 longestGapMs_ = 0;
};
