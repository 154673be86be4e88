// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/HeatmapColors.h"

#include <QColor>

#include <algorithm>
#include <cmath>

#include "widgets/AttentionHeatmap.h"

namespace heatmap_colors {

namespace {
// std::lround for the non-negative values a colour channel takes, without the
// library call: the part after the point is exact, so a half rounds up as
// std::lround rounds it.
int roundChannel(double v) {
    if (!(v >= 0.0))
        return int(std::lround(v));
    const int whole = int(v);
    return v - whole >= 0.5 ? whole + 1 : whole;
}
}  // namespace

QRgb viridisRgb(double weight, double maximumWeight) {
    double t = maximumWeight > 0.0 ? weight / maximumWeight : 0.0;
    if (!(t > 0.0))
        t = 0.0;
    t = std::min(t, 1.0);
    for (size_t i = 1; i < kViridis.size(); ++i) {
        if (t <= kViridis[i].position) {
            const ColorStop& a = kViridis[i - 1];
            const ColorStop& b = kViridis[i];
            const double f = (t - a.position) / (b.position - a.position);
            auto mix = [f](int x, int y) { return roundChannel(x + (y - x) * f); };
            return qRgb(mix(qRed(a.color), qRed(b.color)), mix(qGreen(a.color), qGreen(b.color)),
                        mix(qBlue(a.color), qBlue(b.color)));
        }
    }
    return qRgb(qRed(kViridis.back().color), qGreen(kViridis.back().color), qBlue(kViridis.back().color));
}

}  // namespace heatmap_colors

QColor AttentionHeatmap::colorForWeight(double weight, double maximumWeight) {
    return QColor::fromRgb(heatmap_colors::viridisRgb(weight, maximumWeight));
}

QColor AttentionHeatmap::maskedColor() { return QColor(214, 214, 214); }

QColor AttentionHeatmap::maskedHatchColor() { return QColor(160, 160, 160); }
