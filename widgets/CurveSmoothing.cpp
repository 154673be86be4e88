// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/CurveSmoothing.h"

#include <algorithm>
#include <cmath>
#include <limits>

GapSmoother::GapSmoother(double smoothing)
    : smoothing_(std::clamp(std::isfinite(smoothing) ? smoothing : 0.0, 0.0, 0.999)),
      last_(std::numeric_limits<double>::quiet_NaN()) {}

double GapSmoother::add(double step, double value) {
    if (!std::isfinite(value) || !std::isfinite(step))
        return last_;
    const double gap = empty_ ? 1.0 : std::max(1.0, step - lastStep_);
    const double decay = std::pow(smoothing_, gap);
    sum_ = decay * sum_ + (1.0 - decay) * value;
    weight_ = decay * weight_ + (1.0 - decay);
    lastStep_ = step;
    empty_ = false;
    last_ = weight_ > 0.0 ? sum_ / weight_ : value;
    return last_;
}

void GapSmoother::reset() {
    sum_ = weight_ = lastStep_ = 0.0;
    last_ = std::numeric_limits<double>::quiet_NaN();
    empty_ = true;
}
