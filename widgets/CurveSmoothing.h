// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The smoothed training curve, fair to how densely it was recorded: an
// exponential moving average whose decay follows the step gap between points
// (a point 10 steps after the last one weighs what 10 points, one per step,
// would weigh together), divided by the weight it has gathered so far, so that
// its start is not pulled towards zero. A curve recorded at every step and the
// same curve recorded at every tenth step smooth alike; at every step it is the
// usual debiased average.
//
// With smoothing s (the weight of the past over one step) and a point (step t,
// value x) after a point at step t0:
//   d = s^(t - t0)            (the first point: d = s, it stands for one step)
//   sum    = d * sum + (1 - d) * x
//   weight = d * weight + (1 - d)
//   smoothed = sum / weight
// A gap of less than one step (a repeated step) counts as one step.
class GapSmoother {
public:
    // `smoothing` is clamped to [0, 0.999]; 0 gives the points unchanged.
    explicit GapSmoother(double smoothing = 0.9);

    double smoothing() const { return smoothing_; }
    // The smoothed value at `step` with `value` added. A value that is not
    // finite (a diverged step) is left out, and the last smoothed value is
    // returned (NaN before the first point).
    double add(double step, double value);
    // Forgets every point; the smoothing stays.
    void reset();

private:
    double smoothing_;
    double sum_ = 0.0;
    double weight_ = 0.0;
    double lastStep_ = 0.0;
    double last_;
    bool empty_ = true;
};
