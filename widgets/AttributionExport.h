// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The why window's exports, saved through ViewExport (model/io/AtomicFile's
// rules): a picture of the view, a CSV table or a JSON document of its values.

#include <QByteArray>
#include <QString>

#include "widgets/AttributionData.h"

class AttributionView;

// One table: `part,layer,head,position,character,value,margin`. A row per
// part of the model (value: what it adds to the logit; margin: to the margin
// over the runner-up), then "gradient x input" per character read, then
// "attention" per head shown and character read (value: its weight). Layers,
// heads and positions counted from 1, as the CLI counts them.
QString attributionCsv(const CharacterAttribution& attribution);
// The same values as `chargpt attribute --json` names them (step, text, char,
// top, logit, probability, runner_up, margin, parts, gradient_x_input), plus
// gap_logit and attention_paths. Empty for an attribution that is not valid.
QByteArray attributionJson(const CharacterAttribution& attribution);
// Writes what `view` shows to `path` by its suffix: .png or .svg (the view
// painted), .csv or .json; another suffix, or a view without an attribution,
// is refused with a message in `error`. Needs a QGuiApplication.
bool exportAttribution(const QString& path, AttributionView* view, QString* error = nullptr);
