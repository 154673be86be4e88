// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/cli/CliSampling.h"

#include <cstdint>

#include "app/cli/CliCommon.h"
#include "model/runtime/Error.h"
#include "model/text/Utf8.h"

using namespace chargpt;

SamplingOptions samplingOptions(const Args& args, const SamplingOptions& defaults) {
    // A command's spec names the options it takes; the parser refused any
    // other, so an option that is absent here is either not given or not taken.
    SamplingOptions options = defaults;
    if (args.has("chars")) options.maxNewChars = args.integer("chars", options.maxNewChars);
    if (args.has("temperature")) options.temperature = args.number("temperature", options.temperature);
    if (args.has("top-k")) options.topK = args.integer("top-k", options.topK);
    if (args.has("top-p")) options.topP = args.number("top-p", options.topP);
    if (args.has("seed"))
        options.seed = static_cast<uint64_t>(args.integer("seed", static_cast<int64_t>(options.seed)));
    if (args.has("exact-window")) options.exactWindow = true;
    options.candidates = 0;
    return options;
}

std::u32string promptOf(const Args& args) {
    if (args.has("prompt") && args.has("prompt-file"))
        throw Error("give --prompt or --prompt-file, not both.");
    const std::string prompt =
        args.has("prompt-file") ? readPromptFile(args.text("prompt-file", "")) : args.text("prompt", "");
    refuseNulInPrompt(prompt);
    return utf8::decodeOrThrow(prompt, "the prompt");
}
