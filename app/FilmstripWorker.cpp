// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/FilmstripWorker.h"

#include <QMetaType>
#include <exception>
#include <string>
#include <vector>

#include "app/FilmstripBridge.h"
#include "app/StudioIdentity.h"
#include "model/generate/Filmstrip.h"
#include "model/record/RunLibrary.h"
#include "model/runtime/Error.h"
#include "model/text/Utf8.h"

struct FilmstripWorker::Private {
    std::unique_ptr<chargpt::RunLibrary> library;  // opened at the first strip

    chargpt::RunLibrary& openLibrary() {
        if (!library) library = openRunLibraryToReadKept();
        return *library;
    }
};

FilmstripWorker::FilmstripWorker(QObject* parent) : QObject(parent), d(std::make_unique<Private>()) {}
FilmstripWorker::~FilmstripWorker() = default;

void FilmstripWorker::registerTypes() {
    qRegisterMetaType<FilmstripAsk>();
    qRegisterMetaType<FilmstripRow>();
    qRegisterMetaType<FilmstripSamples>();
}

void FilmstripWorker::stopStrip() { stopRequested_ = true; }

void FilmstripWorker::prepareStrip() { stopRequested_ = false; }

void FilmstripWorker::make(qint64 run, const FilmstripAsk& ask, quint64 request) {
    const auto stopped = [this] { return stopRequested_.load(); };
    if (stopped()) {
        emit finished(true, request);
        return;
    }
    // The same sampling as `chargpt filmstrip` (and `chargpt sample RUN@STEP`)
    // for the same words: top-k and top-p off, the shifted window.
    chargpt::SamplingOptions options;
    options.maxNewChars = ask.chars;
    options.seed = ask.seed;
    options.temperature = ask.temperature;
    options.candidates = 0;
    try {
        chargpt::RunLibrary& library = d->openLibrary();
        const std::optional<chargpt::RunRecord> record = library.run(run);
        if (!record) throw chargpt::Error("the run library has no run " + std::to_string(run) + ".");
        const int steps = int(library.keptWeights(run).size());
        if (steps == 0) throw chargpt::Error("run " + std::to_string(run) + " keeps no weights.");
        const QString runName = QString::fromStdString(record->start.name);
        const std::string prompt = ask.prompt.toStdString();
        chargpt::FilmstripHooks hooks;
        hooks.started = [&](const chargpt::FilmstripPrompt& read) {
            chargpt::Filmstrip heading;
            heading.prompt = read;
            QStringList leftOut;
            for (const chargpt::UnknownChar& c : read.unknown)
                leftOut.append(QLatin1Char('\'') +
                               QString::fromStdString(chargpt::utf8::encode(c.codePoint)) +
                               QLatin1Char('\''));
            emit started(filmstripSamplesOf(heading, run, runName, options), steps,
                         leftOut.join(QLatin1Char(' ')), request);
        };
        hooks.frame = [&](const chargpt::FilmstripFrame& frame) {
            emit rowReady(filmstripRowOf(frame), request);
        };
        hooks.stop = stopped;
        const chargpt::Filmstrip strip = chargpt::sampleFilmstrip(
            library, run, chargpt::utf8::decodeOrThrow(prompt, "the prompt"), options, hooks);
        emit finished(strip.stopped, request);
    } catch (const std::exception& e) {
        emit failed(QString::fromStdString(e.what()), request);
    }
}
