// SPDX-License-Identifier: GPL-3.0-or-later
// The loss plot's curves in nats, as given (its graphs hold them in the unit shown).
#pragma once

#include <qcustomplot.h>

#include "LossPlot.h"

struct LossPlot::NatsCurves {
    QCPGraphDataContainer train, smoothed, val;
};
