// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/cli/CliSettingOptions.h"

#include <climits>
#include <cstdint>

#include "model/train/Ladder.h"
#include "model/train/RunFields.h"

// A training setting's option takes the values of its field in the settings
// table (model/train/RunFields.h), as the window's settings panel does; what
// the range lets through and no run can use (a batch of 0) is refused by the
// settings' validation, in the same words as in the window.
ValueRange fieldRange(std::string_view key) {
    const chargpt::RunField* field = chargpt::runField(key);
    if (field->kind == chargpt::FieldKind::Real) return realRange(field->minimum, field->maximum);
    // The seed reaches every int64_t, past what a double holds exactly.
    const int64_t maximum = field->maximum >= 9.2e18 ? INT64_MAX : int64_t(field->maximum);
    return wholeRange(int64_t(field->minimum), maximum);
}

// A training setting's option: its name is the field's (RunField::option),
// its help the field's own (the settings panel's tooltip), then its range and
// the value a run starts from unless told otherwise, `start` ("the preset's, 32
// in fast"; the ladder's value), and `note`. One edit of the table changes the
// panel and every command. `what` words an option whose meaning is the
// command's own instead of the field's help (the steps: the panel's words are
// about a model trained on).
OptionSpec fieldOption(std::string_view key, const char* valueName, const ValueRange& range,
                       const std::string& start, const char* note, const char* what) {
    const chargpt::RunField* field = chargpt::runField(key);
    return {
        field->option, valueName,
        std::string(what ? what : field->help) + " (" + rangeWords(range) + "; default " + start + note + ")",
        range};
}

// `chargpt train` (and the commands that start from a preset as it does)
// starts from a preset (fast unless told): a field a preset sets starts from
// the preset's value, the others from the table's.
OptionSpec trainOption(std::string_view key, const char* valueName, const char* note, const char* what) {
    const chargpt::RunField* field = chargpt::runField(key);
    const ValueRange range = fieldRange(key);
    const std::string value = numberWords(range, chargpt::startingValue(*field));
    return fieldOption(key, valueName, range,
                       field->presetSets ? "the preset's, " + value + " in fast" : value, note, what);
}

// Every rung of `chargpt ladder` trains with the ladder's settings (chargpt::ladderTraining).
OptionSpec ladderOption(std::string_view key, const char* valueName, const char* note, const char* what) {
    const chargpt::RunField* field = chargpt::runField(key);
    const ValueRange range = fieldRange(key);
    return fieldOption(key, valueName, range, numberWords(range, field->numberIn(chargpt::ladderTraining())),
                       note, what);
}

// `chargpt export-config` writes the settings of a checkpoint, else of a preset.
OptionSpec exportOption(std::string_view key, const char* valueName, const char* what) {
    return fieldOption(key, valueName, fieldRange(key), "the checkpoint's or the preset's", "", what);
}

// --threads, which every command that computes takes: the threads field's
// name, range and default (0). Its help is its own, here: the field's row in
// the settings panel says other words (it takes effect at the program's next
// start and reaches the machine's cores), and the option sets the program's
// threads, not a run's.
const OptionSpec& threadsOption() {
    static const OptionSpec option = trainOption(
        "threads", "N", "",
        "compute threads; 0 takes OMP_NUM_THREADS when it is a positive number, otherwise one per core");
    return option;
}
