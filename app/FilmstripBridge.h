// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Where model/generate/Filmstrip becomes the widgets' FilmstripSamples.
// Qt-only header (the model's values are only named), for the CLI, the tests
// and whoever shows the strip.

#include <QString>

#include <cstdint>

#include "widgets/FilmstripData.h"

namespace chargpt {
struct Filmstrip;
struct FilmstripFrame;
struct SamplingOptions;
}  // namespace chargpt

FilmstripRow filmstripRowOf(const chargpt::FilmstripFrame& frame);
// The strip of run `run` (named `runName`) made with `options`: the prompt as
// the models read it, the length, seed and temperature, a row per step.
FilmstripSamples filmstripSamplesOf(const chargpt::Filmstrip& strip, int64_t run, const QString& runName,
                                    const chargpt::SamplingOptions& options);
