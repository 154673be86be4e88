// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The filmstrip as a file: a self-contained HTML page (a row per step, the
// samples in a monospace font, every text escaped) or plain text (a block per
// step), for `chargpt filmstrip --out` and whoever exports the view. The words
// are English, as the command line's are.

#include <QByteArray>
#include <QString>

#include "widgets/FilmstripData.h"

// "step 16   val loss 2.1034" (or "val loss -"), or "step 16   skipped: WHY".
QString filmstripRowHeading(const FilmstripRow& row);
// The line above the rows: the run, the prompt, seed, temperature and length.
QString filmstripHeading(const FilmstripSamples& samples);
// One step as plain text: its heading, then its sample after `prompt` (the
// text as the model continued it, as the page shows it), then a blank line.
QString filmstripTextBlock(const FilmstripRow& row, const QString& prompt);
// The whole strip as plain text: the heading, a blank line, every block.
QString filmstripText(const FilmstripSamples& samples);
// The whole strip as one HTML page, nothing loaded from elsewhere; each
// sample follows its prompt (in grey).
QString filmstripHtml(const FilmstripSamples& samples);

// The bytes of `path`'s format by its suffix (.html, .htm or .txt), UTF-8;
// false with `error` set for another suffix.
bool renderFilmstrip(const QString& path, const FilmstripSamples& samples, QByteArray* bytes,
                     QString* error = nullptr);
