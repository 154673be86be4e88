// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The words the run library keeps as text: why a run ended (model/train/
// EndReason.h) and where it was started. The library writes toString() and
// reads with endReasonFromString() / runOriginFromString(). A library is a file
// anyone may hand us, so a word of no known meaning reads as Other, never
// fails; the reader keeps its text beside it (RunRecord), to be shown as it is,
// escaped. The standard library only: the Runs tab's values (widgets/RunsData.h)
// hold these enums too.

#include <string_view>

#include "model/train/EndReason.h"

namespace chargpt {

// Which program started a run: the app, `chargpt train` or `chargpt bench`.
enum class RunOrigin { App, Cli, Bench, Other };

// The stored word ("app", "cli", "bench"). Other has no word of its own: its
// text is the file's.
constexpr std::string_view toString(RunOrigin origin) {
    switch (origin) {
        case RunOrigin::App: return "app";
        case RunOrigin::Cli: return "cli";
        case RunOrigin::Bench: return "bench";
        case RunOrigin::Other: break;
    }
    return "other";
}

// The meaning of a stored word; Other for any other text.
constexpr RunOrigin runOriginFromString(std::string_view text) {
    for (const RunOrigin origin : {RunOrigin::App, RunOrigin::Cli, RunOrigin::Bench})
        if (text == toString(origin)) return origin;
    return RunOrigin::Other;
}

}  // namespace chargpt
