// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// How often the views follow a model that trains. The inspector's work for
// them (attention, a head's scores, surprise, the Inside page) runs on the
// cores that training uses, so while a model trains it may take only `share`
// of the time: a round of updates starts once the previous round's work,
// divided by `share`, has passed since that round began, and never waits more
// than kLongestWait. A small model is shown several times a second, a large
// one every few seconds. `chargpt bench --only views` measures what it costs
// the trainer. Plain C++ (the window and the benchmark both pace by it).

#include <algorithm>
#include <chrono>

class InspectionPace {
public:
    using Clock = std::chrono::steady_clock;
    // The share of the time the views may take while a model trains.
    static constexpr double kTrainingShare = 0.02;
    static constexpr std::chrono::milliseconds kLongestWait{5000};

    explicit InspectionPace(double share = kTrainingShare) : share_(share) {}

    // When the next round may start, given the inspector's busy time so far
    // (all of it, whatever it was for).
    Clock::time_point nextRound(Clock::duration busyNow) const {
        if (!started_)
            return Clock::time_point::min();
        const auto work = std::chrono::duration<double>(busyNow - busyAtRound_) / share_;
        const auto wait = std::min(std::chrono::round<Clock::duration>(work),
                                   std::chrono::duration_cast<Clock::duration>(kLongestWait));
        return roundStart_ + wait;
    }

    void roundStarted(Clock::time_point now, Clock::duration busyNow) {
        started_ = true;
        roundStart_ = now;
        busyAtRound_ = busyNow;
    }

private:
    double share_;
    bool started_ = false;
    Clock::time_point roundStart_{};
    Clock::duration busyAtRound_{};
};
