// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/FilmstripBridge.h"

#include "model/generate/Filmstrip.h"

FilmstripRow filmstripRowOf(const chargpt::FilmstripFrame& frame) {
    FilmstripRow row;
    row.step = frame.step;
    row.valLoss = frame.valLoss;
    row.text = QString::fromStdString(frame.text);
    row.skipped = QString::fromStdString(frame.skipped);
    return row;
}

FilmstripSamples filmstripSamplesOf(const chargpt::Filmstrip& strip, int64_t run, const QString& runName,
                                    const chargpt::SamplingOptions& options) {
    FilmstripSamples samples;
    samples.run = run;
    samples.runName = runName;
    samples.prompt = QString::fromStdString(strip.prompt.text);
    samples.chars = options.maxNewChars;
    samples.seed = options.seed;
    samples.temperature = options.temperature;
    samples.rows.reserve(qsizetype(strip.frames.size()));
    for (const chargpt::FilmstripFrame& frame : strip.frames) samples.rows.append(filmstripRowOf(frame));
    return samples;
}
