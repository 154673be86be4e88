// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QRgb>

#include <array>

// The colours of the attention heatmaps (AttentionHeatmap::colorForWeight and
// the colour scale beside a heatmap): viridis sampled at nine points, linear
// between them.
namespace heatmap_colors {

struct ColorStop {
    double position;
    QRgb color;
};

inline constexpr std::array<ColorStop, 9> kViridis{{
    {0.000, 0xff440154},
    {0.125, 0xff472d7b},
    {0.250, 0xff3b528b},
    {0.375, 0xff2c728e},
    {0.500, 0xff21918c},
    {0.625, 0xff28ae80},
    {0.750, 0xff5ec962},
    {0.875, 0xffaddc30},
    {1.000, 0xfffde725},
}};

// The colour of `weight` on a scale from 0 to `maximumWeight`, as an RGB
// value: the overview paints it for every cell of every head (786,432 cells
// for `book`) at every step shown.
QRgb viridisRgb(double weight, double maximumWeight);

}  // namespace heatmap_colors
