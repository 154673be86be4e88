// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/RunsController.h"
#include "app/WorkerThread.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>

#include <algorithm>

#include "widgets/RunsList.h"
#include "widgets/RunsPage.h"
#include "app/StudioIdentity.h"
#include "model/record/RunLibrary.h"
#include "model/text/BuiltinCorpora.h"
#include "model/train/Ladder.h"

namespace {

RunRow rowOf(const chargpt::RunRecord& r) {
    RunRow row;
    row.id = r.id;
    row.name = QString::fromStdString(r.start.name);
    row.origin = r.start.origin;
    row.preset = QString::fromStdString(r.start.preset);
    row.corpus = QString::fromStdString(r.start.corpusName);
    row.corpusHash = QString::fromStdString(r.start.corpusHash);
    row.corpusBytes = r.start.corpusBytes;
    row.parameters = r.start.parameters;
    row.started = QDateTime::fromString(QString::fromStdString(r.started), Qt::ISODate);
    row.ended = QDateTime::fromString(QString::fromStdString(r.ended), Qt::ISODate);
    row.endReason = r.endReason;
    row.endReasonText = QString::fromStdString(r.endReasonText);
    row.firstStep = r.start.firstStep;
    row.figures() = r.figures;
    if (!r.checkpoints.empty()) {
        row.lastCheckpoint = QFile::decodeName(QByteArray::fromStdString(r.checkpoints.back().second));
        row.lastCheckpointStep = r.checkpoints.back().first;
    }
    for (const auto& [key, value] : chargpt::settingsFields(r.start.settingsJson))
        row.settings.append({QString::fromStdString(key), QString::fromStdString(value)});
    return row;
}

}  // namespace

RunsWorker::RunsWorker() = default;
RunsWorker::~RunsWorker() = default;

bool RunsWorker::open() {
    if (library_)
        return true;
    const std::string path = runLibraryPath();
    if (path.empty()) {
        noteKind_ = LibraryNote::NoDataFolder;
        noteDetail_.clear();
        return false;
    }
    try {
        std::string setAside;
        library_ = chargpt::RunLibrary::open(path, &setAside);
        noteKind_ = LibraryNote::Kept;
        noteDetail_ = QDir::toNativeSeparators(QString::fromStdString(path)).toStdString();
        if (!setAside.empty())
            emit failed(QString::fromStdString(setAside));
        return true;
    } catch (const std::exception& error) {
        noteKind_ = LibraryNote::Unusable;
        noteDetail_ = error.what();
        return false;
    }
}

void RunsWorker::list() {
    QVector<RunRow> rows;
    const bool readable = open();
    if (readable) {
        try {
            std::string leftOut;
            for (const chargpt::RunRecord& record : library_->runs(&leftOut))
                rows << rowOf(record);
            if (!leftOut.empty())
                emit failed(QString::fromStdString(leftOut));
        } catch (const std::exception& error) {
            emit failed(QString::fromUtf8(error.what()));
        }
    }
    emit listed(rows, LibraryNote{noteKind_, QString::fromStdString(noteDetail_)}, readable);
}

void RunsWorker::loadCurves(const std::vector<qint64>& ids) {
    QVector<RunCurve> curves;
    if (!open()) {
        emit curvesLoaded(curves);
        return;
    }
    try {
        for (qint64 id : ids) {
            RunCurve curve;
            curve.id = id;
            curve.losses = library_->lossCurve(id);
            curves << curve;
        }
    } catch (const std::exception& error) {
        emit failed(QString::fromUtf8(error.what()));
    }
    emit curvesLoaded(curves);
}

void RunsWorker::rename(qint64 id, const std::string& name) {
    if (!open())
        return;
    try {
        library_->rename(id, name);
    } catch (const std::exception& error) {
        emit failed(QString::fromUtf8(error.what()));
    }
    list();
}

void RunsWorker::remove(qint64 id) {
    if (!open())
        return;
    try {
        library_->remove(id);
    } catch (const std::exception& error) {
        emit failed(QString::fromUtf8(error.what()));
    }
    list();
}

void RunsWorker::listKeptSteps(qint64 id) {
    QVector<qint64> steps;
    if (open()) {
        try {
            for (const chargpt::KeptWeights& kept : library_->keptWeights(id)) steps.append(kept.step);
        } catch (const std::exception& error) {
            emit failed(QString::fromUtf8(error.what()));
        }
    }
    emit keptStepsListed(id, steps);
}

void RunsWorker::loadHealth(qint64 id) {
    chargpt::RunHealth health;
    if (open()) {
        try {
            health.figures = library_->health(id);
            health.warnings = library_->healthWarnings(id);
        } catch (const std::exception& error) {
            emit failed(QString::fromUtf8(error.what()));
        }
    }
    emit healthLoaded(id, health);
}

void RunsWorker::loadComparedHealth(const std::vector<qint64>& ids) {
    std::vector<chargpt::RunHealth> health(ids.size());
    if (open()) {
        try {
            for (std::size_t i = 0; i < ids.size(); ++i)
                health[i] = {library_->health(ids[i]), library_->healthWarnings(ids[i])};
        } catch (const std::exception& error) {
            emit failed(QString::fromUtf8(error.what()));
        }
    }
    emit comparedHealthLoaded(QVector<qint64>(ids.begin(), ids.end()), health);
}

void LadderFloorsWorker::measure(const std::string& key, const std::string& corpus, const std::string& corpusHash,
                                 qint64 sequenceLen, double valFraction) {
    LadderFloors floors;
    QString why;
    const QString shown = plainCorpusName(QString::fromStdString(corpus));
    try {
        if (!chargpt::isBuiltinSource(corpus) && !QFileInfo::exists(QFile::decodeName(QByteArray::fromStdString(corpus)))) {
            why = QCoreApplication::translate("LadderView", "the corpus %1 is no longer there.").arg(shown);
        } else {
            const chargpt::Corpus text = chargpt::loadCorpusSource(corpus);
            if (chargpt::corpusFingerprint(text.documents()) != corpusHash) {
                why = QCoreApplication::translate("LadderView", "the text of %1 has changed since this ladder trained.")
                          .arg(shown);
            } else {
                const chargpt::RunConfig rung = chargpt::ladderSettings(1);
                const chargpt::LossFloors measured =
                    chargpt::ladderFloors(text, sequenceLen > 0 ? sequenceLen : rung.sequence_len,
                                          valFraction > 0.0 ? valFraction : rung.val_fraction, rung.seed);
                floors = LadderFloors{measured.uniform, measured.unigram, measured.bigram};
            }
        }
    } catch (const std::exception& error) {
        why = QCoreApplication::translate("LadderView", "the corpus %1 cannot be read: %2")
                  .arg(shown, plainCorpusName(QString::fromUtf8(error.what()), 300));
    }
    emit measured(QString::fromStdString(key), floors, why);
}

RunsController::RunsController(RunsPage* page, QObject* parent) : QObject(parent), page_(page) {
    qRegisterMetaType<QVector<RunRow>>();
    qRegisterMetaType<QVector<RunCurve>>();
    qRegisterMetaType<QVector<qint64>>();
    qRegisterMetaType<LadderFloors>();
    qRegisterMetaType<LibraryNote>();
    qRegisterMetaType<chargpt::RunHealth>();
    qRegisterMetaType<std::vector<chargpt::RunHealth>>();
    worker_ = new RunsWorker;
    connect(worker_, &RunsWorker::listed, this, [this](const QVector<RunRow>& runs, const LibraryNote& note) {
        page_->setRuns(runs);
        page_->setLibraryNote(note);
        // Curves of compared runs that are still going grow: read them again.
        const QVector<qint64> ids = page_->list()->compared();
        bool going = false;
        for (const RunRow& run : runs)
            going |= ids.contains(run.id) && !run.ended.isValid();
        if (going) {
            QMetaObject::invokeMethod(
                worker_,
                [worker = worker_, list = std::vector<qint64>(ids.begin(), ids.end())] {
                    worker->loadCurves(list);
                    worker->loadComparedHealth(list);
                },
                Qt::QueuedConnection);
        }
        emit listed();
    });
    connect(worker_, &RunsWorker::curvesLoaded, page_, &RunsPage::setCurves);
    connect(worker_, &RunsWorker::comparedHealthLoaded, page_, &RunsPage::setHealth);
    connect(worker_, &RunsWorker::failed, this, [this](const QString& message) {
        emit problem(QCoreApplication::translate("MainWindow", "Run library: %1").arg(message));
    });
    connect(page_, &RunsPage::curvesWanted, this, [this](const QVector<qint64>& ids) {
        QMetaObject::invokeMethod(
            worker_,
            [worker = worker_, list = std::vector<qint64>(ids.begin(), ids.end())] {
                worker->loadCurves(list);
                worker->loadComparedHealth(list);
            },
            Qt::QueuedConnection);
    });
    connect(page_->list(), &RunsList::renameRequested, this, [this](qint64 id, const QString& name) {
        QMetaObject::invokeMethod(worker_, [worker = worker_, id, text = name.toStdString()] { worker->rename(id, text); },
                                  Qt::QueuedConnection);
    });
    connect(page_->list(), &RunsList::deleteRequested, this, [this](qint64 id) {
        QMetaObject::invokeMethod(worker_, [worker = worker_, id] { worker->remove(id); }, Qt::QueuedConnection);
    });
    follow_.setInterval(3000);
    connect(&follow_, &QTimer::timeout, this, &RunsController::refresh);
    startWorkerThread(thread_, worker_, QStringLiteral("runs"), WorkerKind::Reading);
    floorsWorker_ = new LadderFloorsWorker;
    startWorkerThread(floorsThread_, floorsWorker_, QStringLiteral("floors"), WorkerKind::Compute);
}

RunsController::~RunsController() { shutdown(); }

void RunsController::shutdown() {
    follow_.stop();
    for (QThread* thread : {&thread_, &floorsThread_}) endWorkerThread(*thread);
}

void RunsController::refresh() {
    QMetaObject::invokeMethod(worker_, [worker = worker_] { worker->list(); }, Qt::QueuedConnection);
}

void RunsController::listKeptSteps(qint64 id) {
    QMetaObject::invokeMethod(
        worker_, [worker = worker_, id] { worker->listKeptSteps(id); }, Qt::QueuedConnection);
}

void RunsController::loadHealth(qint64 id) {
    QMetaObject::invokeMethod(worker_, [worker = worker_, id] { worker->loadHealth(id); }, Qt::QueuedConnection);
}

void RunsController::measureLadderFloors(const LadderRecord& ladder) {
    QMetaObject::invokeMethod(
        floorsWorker_,
        [worker = floorsWorker_, key = ladder.floorsKey().toStdString(), corpus = ladder.corpus.toStdString(),
         hash = ladder.corpusHash.toStdString(), context = ladder.sequenceLen, share = ladder.valFraction] {
            worker->measure(key, corpus, hash, context, share);
        },
        Qt::QueuedConnection);
}

void RunsController::setFollowing(bool on) {
    if (on && !follow_.isActive())
        follow_.start();
    else if (!on)
        follow_.stop();
}
