// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/LossUnit.h"

#include <QCoreApplication>

#include <cmath>

double lossInUnit(double nats, LossUnit unit) {
    if (!std::isfinite(nats))
        return nats;
    switch (unit) {
    case LossUnit::Nats: return nats;
    case LossUnit::Bits: return nats / std::log(2.0);
    case LossUnit::Perplexity: return std::exp(nats);
    }
    return nats;
}

QString formatShownLoss(double value, LossUnit unit, int decimals) {
    if (!std::isfinite(value))
        return QStringLiteral("–");
    if (unit == LossUnit::Perplexity && std::abs(value) >= 100.0)
        return QString::number(value, 'f', 0);
    return QString::number(value, 'f', decimals);
}

QString formatLoss(double nats, LossUnit unit) {
    const double shown = lossInUnit(nats, unit);
    switch (unit) {
    case LossUnit::Nats:
        return QCoreApplication::translate("LossPlot", "%1 nats").arg(formatShownLoss(shown, unit, 4));
    case LossUnit::Bits:
        return QCoreApplication::translate("LossPlot", "%1 bits").arg(formatShownLoss(shown, unit, 4));
    case LossUnit::Perplexity:
        return QCoreApplication::translate("LossPlot", "perplexity %1").arg(formatShownLoss(shown, unit, 2));
    }
    return QString();
}
