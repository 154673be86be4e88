// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

// How a loss is shown: nats per character (the model's own unit), bits per
// character (nats / ln 2) or perplexity (e^nats: how many characters the model
// hesitates between, as if it guessed evenly among that many).
enum class LossUnit { Nats, Bits, Perplexity };

// `nats` in `unit`; non-finite values stay as they are.
double lossInUnit(double nats, LossUnit unit);

// A value already in `unit` as the loss plot's labels write it: perplexities
// of 100 and above whole, the rest with `decimals` decimals; "–" when not finite.
QString formatShownLoss(double value, LossUnit unit, int decimals);

// `nats` in `unit` with the unit named ("2.3026 nats", "perplexity 10.00"), in
// the words of the loss plot's tooltips.
QString formatLoss(double nats, LossUnit unit);
