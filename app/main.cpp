// SPDX-License-Identifier: GPL-3.0-or-later
// `chargpt-studio`: the desktop application.
#include "Runtime.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QIcon>
#include <QSettings>

#include "LanguageManager.h"
#include "MainWindow.h"

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
    parser.process(app);

    MainWindow window(&languages);
    window.show();
    if (!parser.positionalArguments().isEmpty())
        window.openCheckpoint(parser.positionalArguments().constFirst());
    return app.exec();
}
