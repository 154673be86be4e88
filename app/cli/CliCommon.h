// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// What several commands of `chargpt` share: the stop signals, the thread
// choice, reading a prompt or text file, opening a corpus, the JSON figures and
// lines, the notes on characters a model never saw, and the offscreen painting
// of `attention` and `surprise`. One home each; a command's own helpers stay in
// its file.

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/cli/TerminalText.h"
#include "model/record/RunLibrary.h"
#include "model/text/Corpus.h"

class QGuiApplication;

// Set by SIGINT (and, while `train` runs, SIGTERM and SIGHUP): the run or the
// generation stops after its current step.
extern std::atomic<bool> gInterrupted;
// The stop signal received, 0 before one.
extern std::atomic<int> gStopSignal;

// Records the signal and restores its default, so that a second one of the
// same kind ends the process at once.
extern "C" void onStopSignal(int sig);
// SIGINT, SIGTERM and SIGHUP all stop `train` after its current step and the
// model is saved (a terminal closed, a service manager or `kill` stopping it
// must not lose the run). A signal that was ignored when the program started
// (nohup, a background job) stays ignored.
void catchStopSignals();
void restoreStopSignals();
const char* stopSignalName(int sig);

// Applies --threads (0: automatic) by the one rule, capped at the machine's
// cores, and says so when it was capped.
int useThreads(int64_t asked);

// The name Args reads the option of settings field `key` by: its option in
// the settings table without the dashes ("batch" for --batch, RunFields.h).
std::string settingOption(std::string_view key);

// A prompt too long for the command line (the system caps one argument at
// 128 KiB): read from a file, "-" for standard input, at most 16 MiB. The file
// is opened without blocking and must be a regular file: a FIFO with no
// writer would block forever, a device never ends. Its size is not trusted
// (files of /proc report 0 bytes): it is read to its end, up to the cap.
// `what` names the file in messages, `option` the option that gave it.
std::string readPromptFile(const std::string& path, const std::string& what = "prompt file",
                           const std::string& option = "--prompt-file");

// A prompt is text: a NUL byte in it is refused (it is never part of a
// vocabulary, since corpora with NUL bytes are refused as binary).
void refuseNulInPrompt(const std::string& prompt);

// A corpus as loadCorpusSource reads it, its warnings (files left out) printed.
chargpt::Corpus openCorpus(const std::string& source);

// "chargpt: left out COUNT WHAT the model never saw: 'c' (position p) ...":
// `first` holds the first characters (at most 10) and their positions.
void reportLeftOut(std::size_t count, const std::string& what,
                   const std::vector<std::pair<std::string, long long>>& first);

// A figure of the JSON summary: six significant digits, null when unknown.
nlohmann::json jsonFigure(double v);

// One JSON object as one line of standard output, flushed; a text that is not
// UTF-8 (a path, what a model wrote) is written with U+FFFD in place of its bad bytes.
void printJsonLine(const nlohmann::ordered_json& object);

// A length of time as "1:02:03" or "2:03"; "?" when it is not known.
std::string formatDuration(double seconds);

// Lower-case suffix of a path, with its dot ("" when it has none).
std::string suffixOf(const std::string& path);

// A QGuiApplication to paint with, never a window: without a platform chosen
// by the user it renders offscreen, so that the command works on a headless
// machine and a file does not depend on the screen it ran on. Qt's warnings
// about the environment are dropped, the others printed as ours.
std::unique_ptr<QGuiApplication> paintingApplication(char* programName);

// The run library in the user's data folder, for `train` to record into: a
// library that was set aside is said on stderr; when none can be opened, a
// warning says why and null is returned (the run trains unrecorded).
std::shared_ptr<chargpt::RunLibrary> openRunLibraryForRecording();
// The run library in the user's data folder, for the commands that read it
// (`runs`, `snapshots`, RUN@STEP): a library that was set aside is said on
// stderr; throws chargpt::Error when there is no data folder or none opens.
std::unique_ptr<chargpt::RunLibrary> openRunLibraryToRead();
