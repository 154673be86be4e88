// SPDX-License-Identifier: GPL-3.0-or-later
// `chargpt-studio`: the desktop application.
#include "model/runtime/CpuTier.h"
#include "model/runtime/OpenMPSpin.h"
#include "model/runtime/Runtime.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QIcon>
#include <QSettings>

#include "app/LanguageManager.h"
#include "app/MainWindow.h"
#include "widgets/SettingsPanel.h"
#include "app/ScrubMeasure.h"
#include "app/StallMeasure.h"
#include "app/TrainingController.h"
#include "app/StudioIdentity.h"

#include <algorithm>
#include <cstdio>
#include <memory>
#include <string>

CHARGPT_SHORT_OPENMP_SPIN("chargpt-studio", nullptr)

namespace {

struct Options {
    bool measuring = false;
    double measureSeconds = 0.0;
    bool viewsOff = false;
    bool scrubbing = false;
    QString checkpoint;
};

// Reads the command line with a QCoreApplication, before any window system is
// touched: --help, --version and a bad option answer (and exit) without a
// display.
Options parseCommandLine(int& argc, char* argv[]) {
    QCoreApplication core(argc, argv);
    LanguageManager languages;
    languages.setLanguage(LanguageManager::preferredLanguage(), LanguageManager::Remember::No);
    QCommandLineParser parser;
    parser.setApplicationDescription(
        QCoreApplication::translate("main", "Train a character-level GPT and watch it learn."));
    parser.addHelpOption();
    parser.addVersionOption();
    parser.addPositionalArgument(QStringLiteral("checkpoint"),
                                 QCoreApplication::translate("main", "A checkpoint (.pt) to open."),
                                 QStringLiteral("[checkpoint]"));
    QCommandLineOption measureStall(
        QStringLiteral("measure-stall"),
        QCoreApplication::translate("main",
                                    "Train the built-in corpus for SECONDS, print the longest stall of the "
                                    "window's thread as JSON and quit (a benchmark)."),
        QStringLiteral("SECONDS"));
    parser.addOption(measureStall);
    QCommandLineOption viewsOff(
        QStringLiteral("views-off"),
        QCoreApplication::translate("main",
                                    "With --measure-stall: train without the views following the model, to "
                                    "measure what they cost (a benchmark)."));
    parser.addOption(viewsOff);
    QCommandLineOption measureScrub(
        QStringLiteral("measure-scrub"),
        QCoreApplication::translate("main",
                                    "Open the newest run of the run library that wrote a checkpoint, move the "
                                    "timeline to each step it keeps, print how long the Attention tab took to show each as JSON and quit (a "
                                    "benchmark)."));
    parser.addOption(measureScrub);
    parser.process(core);
    Options options;
    options.measureSeconds = parser.value(measureStall).toDouble(&options.measuring);
    if (parser.isSet(measureStall) && (!options.measuring || !(options.measureSeconds > 0.0)))
        parser.showHelp(2);
    options.viewsOff = parser.isSet(viewsOff);
    if (options.viewsOff && !options.measuring)
        parser.showHelp(2);
    options.scrubbing = parser.isSet(measureScrub);
    if (options.scrubbing && (options.measuring || !parser.positionalArguments().isEmpty()))
        parser.showHelp(2);
    if (!parser.positionalArguments().isEmpty())
        options.checkpoint = parser.positionalArguments().constFirst();
    return options;
}

}  // namespace

int main(int argc, char* argv[]) {
    // The CPU tier, before any LibTorch call: a forced one caps LibTorch too
    // (its BLAS, already loaded, excepted); one this CPU lacks stops here.
    const chargpt::TierChoice& tier = chargpt::startCpuTier();
    if (!tier.refusal.empty()) {
        std::fprintf(stderr, "chargpt-studio: %s\n", tier.refusal.c_str());
        return 2;
    }
    setStudioIdentity();
    QCoreApplication::setApplicationVersion(QStringLiteral(CHARGPT_VERSION));
    const Options options = parseCommandLine(argc, argv);

    QApplication app(argc, argv);
    QGuiApplication::setDesktopFileName(QStringLiteral("chargpt-studio"));
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/chargpt-studio.svg")));

    // LibTorch's thread count can be set only once, so the setting applies at
    // start-up, capped at the machine's cores (a stored 4,000 ran 4,000 threads).
    const int storedThreads = int(std::clamp<int64_t>(TrainingController::storedSettings().threads, 0, 1 << 20));
    const chargpt::ThreadChoice threads = chargpt::applyThreads(storedThreads);
    if (threads.capped) {
        const std::string asked = "the Threads setting (" + std::to_string(storedThreads) + ")";
        std::fprintf(stderr, "chargpt-studio: %s\n", threads.message(asked).c_str());
    }

    LanguageManager languages;
    languages.setLanguage(LanguageManager::preferredLanguage(), LanguageManager::Remember::No);

    MainWindow window(&languages);
    window.settingsPanel()->setThreadLimit(threads.cores);
    window.show();
    std::unique_ptr<StallMeasure> measure, watch;
    std::unique_ptr<ScrubMeasure> scrub;
    if (options.scrubbing) {
        window.training()->setRecordRuns(false);  // a benchmark is not one of the user's runs
        scrub = std::make_unique<ScrubMeasure>(window);
    }
    if (options.measuring) {
        window.training()->setRecordRuns(false);  // a benchmark is not one of the user's runs
        measure = std::make_unique<StallMeasure>(window, options.measureSeconds, !options.viewsOff);
    }
    if (qEnvironmentVariableIntValue("CHARGPT_MEASURE") != 0)
        watch = std::make_unique<StallMeasure>(window, StallMeasure::Watch{});
    if (!options.checkpoint.isEmpty())
        window.openCheckpoint(options.checkpoint);
    return app.exec();
}
