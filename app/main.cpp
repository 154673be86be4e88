// SPDX-License-Identifier: GPL-3.0-or-later
// `chargpt-studio`: the desktop application.
#include "model/runtime/Runtime.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QIcon>
#include <QSettings>

#include "LanguageManager.h"
#include "MainWindow.h"
#include "StallMeasure.h"

#include <memory>

int main(int argc, char* argv[]) {
    chargpt::reexecWithPassiveOpenMP(argv);

    QApplication app(argc, argv);
    QCoreApplication::setOrganizationName(QStringLiteral("CharGPT"));
    QCoreApplication::setApplicationName(QStringLiteral("CharGPT Studio"));
    QCoreApplication::setApplicationVersion(QStringLiteral(CHARGPT_VERSION));
    QGuiApplication::setDesktopFileName(QStringLiteral("chargpt-studio"));
    QApplication::setWindowIcon(QIcon(QStringLiteral(":/icons/chargpt-studio.svg")));

    // LibTorch's thread count can be set only once, so the setting applies at start-up.
    chargpt::initThreads(QSettings().value(QStringLiteral("settings/threads"), 0).toInt());

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
    parser.process(app);
    bool measuring = false;
    const double measureSeconds = parser.value(measureStall).toDouble(&measuring);
    if (parser.isSet(measureStall) && (!measuring || !(measureSeconds > 0.0)))
        parser.showHelp(2);

    MainWindow window(&languages);
    window.show();
    std::unique_ptr<StallMeasure> measure;
    if (measuring) measure = std::make_unique<StallMeasure>(window, measureSeconds);
    if (!parser.positionalArguments().isEmpty())
        window.openCheckpoint(parser.positionalArguments().constFirst());
    return app.exec();
}
