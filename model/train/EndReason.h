// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Why a run ended: one type for the trainer (TrainResult), the run library
// (which keeps its word) and the window. The standard library only, so the
// widgets hold it as it is.

#include <string_view>

namespace chargpt {

enum class EndReason {
    Finished,       // it reached its steps
    TimeLimit,      // it reached its time limit
    Stopped,        // someone stopped it
    NonFiniteLoss,  // the loss stopped being finite (TrainResult::message says how)
    Error,          // it failed (the window's worker caught an error; its message says which)
    Other,          // a run library's word of no known meaning (RunRecord keeps its text)
};

// The word kept and shown: "finished", "time limit", "stopped", "non-finite
// loss", "error". Other has no word of its own: its text is the file's.
constexpr std::string_view toString(EndReason reason) {
    switch (reason) {
        case EndReason::Finished:
            return "finished";
        case EndReason::TimeLimit:
            return "time limit";
        case EndReason::Stopped:
            return "stopped";
        case EndReason::NonFiniteLoss:
            return "non-finite loss";
        case EndReason::Error:
            return "error";
        case EndReason::Other:
            break;
    }
    return "other";
}

// The meaning of a kept word; Other for any other text (a library is a file
// anyone may hand us: an unknown word never fails).
constexpr EndReason endReasonFromString(std::string_view text) {
    for (const EndReason reason : {EndReason::Finished, EndReason::TimeLimit, EndReason::Stopped,
                                   EndReason::NonFiniteLoss, EndReason::Error})
        if (text == toString(reason)) return reason;
    return EndReason::Other;
}

}  // namespace chargpt
