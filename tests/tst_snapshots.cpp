// SPDX-License-Identifier: GPL-3.0-or-later
// A run's weights kept with it in the run library (model/record, "snapshots")
// and their bytes (model/io/KeptWeightsCodec): a snapshot gives back the
// model it was taken of; a damaged, cut or hostile one is refused with a
// message before anything of the size it claims is made; the library keeps
// them in parts, lists only whole ones, deletes them with their run; a
// library of the first version gets their table; a recorded run keeps
// steps 0, 1, 2, 4, ... and its evaluations within its budget.
#include <torch/torch.h>

#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <QElapsedTimer>
#include <QTemporaryDir>

#include <csignal>
#include <cstring>
#include <set>
#include <string>

#include "model/io/ConfigJson.h"
#include "model/io/KeptWeightsCodec.h"
#include "model/record/KeptWeights.h"
#include "model/record/RunLibrary.h"
#include "model/record/RunRecorder.h"
#include "model/runtime/Error.h"
#include "model/runtime/Runtime.h"
#include "model/session/TrainingSession.h"
#include "model/text/Corpus.h"

#include "RunLibraryFixtures.h"
#include "TestProgram.h"

namespace tst_snapshots {

using namespace chargpt;
using runlibrary_fixtures::edit;
using runlibrary_fixtures::integrity;
using runlibrary_fixtures::someRun;

namespace {

Corpus letters() { return Corpus::fromUtf8(std::string(1500, 'a') + "bcd efg hij, klm.\n", "letters"); }

SessionOptions onCpu() {
    SessionOptions options;
    options.onComputeDevice = false;
    return options;
}

// The bytes with `at`..`at + n` replaced by `with`.
std::string patched(std::string bytes, std::size_t at, const std::string& with) {
    bytes.replace(at, with.size(), with);
    return bytes;
}

// A count from the file, by SQLite's own plain connection.
int64_t countOf(const std::string& path, const char* sql) {
    sqlite3* db = nullptr;
    sqlite3_open_v2(path.c_str(), &db, SQLITE_OPEN_READONLY, nullptr);
    sqlite3_stmt* stmt = nullptr;
    int64_t n = -1;
    if (sqlite3_prepare_v2(db, sql, -1, &stmt, nullptr) == SQLITE_OK && sqlite3_step(stmt) == SQLITE_ROW)
        n = sqlite3_column_int64(stmt, 0);
    sqlite3_finalize(stmt);
    sqlite3_close(db);
    return n;
}

// Trains `session` to its end, recorded into `library` with its snapshots
// within `budget`; the run's id.
int64_t recordWithSnapshots(TrainingSession& session, const std::shared_ptr<RunLibrary>& library, int64_t budget) {
    RunRecorder recorder(library, runStartOf(session, letters(), "letters", RunOrigin::Cli, "tiny"));
    recorder.keepWeights(keptWeightsOf(session), budget);
    session.trainer().onStep = [&](const StepFigures& s) { recorder.step(s); };
    session.trainer().onEval = [&](const StepFigures& s) { recorder.evaluation(s); };
    recorder.finish(session.trainer().run());
    if (!recorder.problem().empty()) qWarning("%s", recorder.problem().c_str());
    return recorder.problem().empty() ? recorder.runId().value_or(-1) : -1;
}

std::string u64(uint64_t v) {
    std::string out(8, '\0');
    for (int i = 0; i < 8; ++i) out[std::size_t(i)] = char((v >> (8 * i)) & 0xFF);
    return out;
}

}  // namespace

class TestSnapshots : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void aSnapshotGivesBackItsModel();
    void damagedSnapshotsAreRefused();
    void theLibraryKeepsWholeSnapshotsOnly();
    void aFirstVersionLibraryGetsTheTable();
    void aRecordedRunKeepsItsEarlyStepsAndEvaluations();
    void aSmallBudgetThinsEvenly();
    void aKilledSnapshotWriterLeavesTheLibraryWhole();

private:
    QTemporaryDir dir_;
};

void TestSnapshots::initTestCase() {
    QVERIFY(initThreads(0) >= 1);
    QVERIFY(dir_.isValid());
}

// The weights in bfloat16: every parameter within bfloat16's rounding of the
// model's, the settings and vocabulary the same, and the same greedy choice.
void TestSnapshots::aSnapshotGivesBackItsModel() {
    RunConfig config = *RunConfig::preset("tiny");
    config.max_steps = 5;
    TrainingSession session(config, letters(), onCpu());
    session.trainer().run();
    const std::string bytes = encodeKeptWeights(session.config(), session.tokenizer(), session.model(), 5);
    Checkpoint back = decodeKeptWeights(bytes);
    QCOMPARE(back.step, int64_t(5));
    QCOMPARE(back.weightsStep, int64_t(5));
    QCOMPARE(back.config.n_layer, session.config().n_layer);
    QCOMPARE(back.tokenizer.vocabulary(), session.tokenizer().vocabulary());
    const auto mine = session.model()->parameters();
    const auto theirs = back.model->parameters();
    QCOMPARE(theirs.size(), mine.size());
    for (std::size_t i = 0; i < mine.size(); ++i) {
        const torch::Tensor a = mine[i].detach().to(torch::kCPU), b = theirs[i].detach().to(torch::kCPU);
        QVERIFY(a.sizes() == b.sizes());
        // bfloat16 keeps 8 bits of mantissa: within 2^-8 of each value.
        QVERIFY2(torch::allclose(a, b, 1.0 / 256, 1e-6), qPrintable(QString::number(i)));
    }
    torch::NoGradGuard noGrad;
    const torch::Tensor input = torch::tensor({{1, 2, 3, 4, 1}}, torch::kInt64);
    session.model()->eval();
    back.model->eval();
    const torch::Tensor ours = session.model()->forward(input).argmax(-1);
    const torch::Tensor read = back.model->forward(input.to(back.model->token_emb->weight.device())).argmax(-1);
    QVERIFY(torch::equal(ours.to(torch::kCPU), read.to(torch::kCPU)));
}

// Cut anywhere, a wrong tag, counts that claim more than the bytes hold, a
// model far larger than the data, a non-finite weight: a message, at once.
void TestSnapshots::damagedSnapshotsAreRefused() {
    RunConfig config = *RunConfig::preset("tiny");
    TrainingSession session(config, letters(), onCpu());
    const std::string good = encodeKeptWeights(session.config(), session.tokenizer(), session.model(), 0);
    QVERIFY(good.size() > 1000);
    for (std::size_t cut = 0; cut < good.size(); cut += 97)
        QVERIFY_THROWS_EXCEPTION(Error, decodeKeptWeights(good.substr(0, cut)));
    QVERIFY_THROWS_EXCEPTION(Error, decodeKeptWeights(patched(good, 0, "NOTSNAPS")));
    QVERIFY_THROWS_EXCEPTION(Error, decodeKeptWeights(good + "extra"));

    // The snapshot with other settings in place of its own.
    const uint32_t jsonBytes = uint32_t(uint8_t(good[12])) | uint32_t(uint8_t(good[13])) << 8 |
                               uint32_t(uint8_t(good[14])) << 16 | uint32_t(uint8_t(good[15])) << 24;
    const auto withSettings = [&](const RunConfig& settings) {
        const std::string json = configToJson(settings);
        std::string claimed = good.substr(0, 12);
        for (int i = 0; i < 4; ++i) claimed.push_back(char((json.size() >> (8 * i)) & 0xFF));
        return claimed + json + good.substr(16 + jsonBytes);
    };
    // The settings say 1,024 layers of width 4,096: refused from the counts,
    // before a model of that size is made (which would take many gigabytes).
    RunConfig huge = session.config();
    huge.n_layer = 1024;
    huge.emb_size = 4096;
    huge.head_size = 128;
    QElapsedTimer timer;
    timer.start();
    QVERIFY_THROWS_EXCEPTION(Error, decodeKeptWeights(withSettings(huge)));
    QVERIFY2(timer.elapsed() < 2000, "refused from the counts, before allocating");
    // Settings no run could have (no validation text, heads that do not divide
    // the width): refused with what is wrong, as a checkpoint's are.
    RunConfig noValidation = session.config();
    noValidation.val_fraction = 0.0;
    RunConfig oddHeads = session.config();
    oddHeads.head_size = oddHeads.emb_size - 1;
    for (const RunConfig& odd : {noValidation, oddHeads}) {
        try {
            decodeKeptWeights(withSettings(odd));
            QFAIL("invalid settings were read");
        } catch (const Error& e) {
            QVERIFY2(std::strstr(e.what(), "the snapshot's settings are invalid"), e.what());
        }
    }

    // A tensor count of 2^61: more than the bytes can hold.
    const std::size_t countAt = good.find(u64(uint64_t(session.model()->parameters().size())));
    QVERIFY(countAt != std::string::npos);
    QVERIFY_THROWS_EXCEPTION(Error, decodeKeptWeights(patched(good, countAt, u64(uint64_t(1) << 61))));

    // The last weight's last value made infinite (bfloat16 0x7F80).
    std::string infinite = good;
    infinite[infinite.size() - 2] = char(0x80);
    infinite[infinite.size() - 1] = char(0x7F);
    try {
        decodeKeptWeights(infinite);
        QFAIL("a non-finite weight was read");
    } catch (const Error& e) {
        QVERIFY2(std::strstr(e.what(), "not finite"), e.what());
    }
}

// Parts of 512 KiB: a snapshot of 1.2 MB comes back byte for byte, a
// missing part hides it from the listing and makes reading it throw, and
// removing the run removes its snapshots.
void TestSnapshots::theLibraryKeepsWholeSnapshotsOnly() {
    const std::string path = dir_.filePath("whole.sqlite").toStdString();
    auto library = RunLibrary::open(path);
    const int64_t run = library->beginRun(someRun("kept"));
    std::string big(1200000, '\0');
    for (std::size_t i = 0; i < big.size(); ++i) big[i] = char((i * 7919) >> 3);
    library->addKeptWeights(run, 8, big);
    library->addKeptWeights(run, 0, "small");
    library->addKeptWeights(run, 8, big);  // replaced, not doubled
    auto listed = library->keptWeights(run);
    QCOMPARE(listed.size(), std::size_t(2));
    QCOMPARE(listed[0].step, int64_t(0));
    QCOMPARE(listed[1].step, int64_t(8));
    QCOMPARE(listed[1].bytes, int64_t(big.size()));
    QVERIFY(library->keptWeightsBytes(run, 8) == big);
    QVERIFY(!library->keptWeightsBytes(run, 4).has_value());

    QVERIFY(edit(path, "DELETE FROM snapshots WHERE step=8 AND part=1").isEmpty());
    listed = library->keptWeights(run);
    QCOMPARE(listed.size(), std::size_t(1));
    QVERIFY_THROWS_EXCEPTION(Error, library->keptWeightsBytes(run, 8));
    // A part that claims more parts than there are: damaged, not read.
    QVERIFY(edit(path, "UPDATE snapshots SET parts=99999999 WHERE step=0").isEmpty());
    QVERIFY_THROWS_EXCEPTION(Error, library->keptWeightsBytes(run, 0));

    library->addKeptWeights(run, 16, "sixteen");
    library->removeKeptWeights(run, {16});
    library->addKeptWeights(run, 32, "thirty-two");
    library->remove(run);
    QVERIFY(library->keptWeights(run).empty());
    QCOMPARE(countOf(path, "SELECT count(*) FROM snapshots"), int64_t(0));
}

// A library written by the first version (no snapshots table) still lists
// its runs, read-only too, and gets the table when opened for writing.
void TestSnapshots::aFirstVersionLibraryGetsTheTable() {
    const std::string path = dir_.filePath("first.sqlite").toStdString();
    {
        auto library = RunLibrary::open(path);
        library->beginRun(someRun("old"));
    }
    QVERIFY(
        edit(path,
             "DROP TABLE snapshots; DROP TABLE health; DROP TABLE health_warnings; PRAGMA user_version=1;")
            .isEmpty());
    // Read by a user who cannot write there (root writes everywhere, so the
    // child becomes nobody): it lists, and has no snapshots to show.
    const QByteArray folder = dir_.path().toLocal8Bit();
    QCOMPARE(::chmod(folder.constData(), 0555), 0);
    const pid_t child = ::fork();
    QVERIFY(child >= 0);
    if (child == 0) {
        if (::geteuid() == 0 && (::setgid(65534) != 0 || ::setuid(65534) != 0)) ::_exit(3);
        try {
            auto readOnly = RunLibrary::open(path);
            const bool right = readOnly->readOnly() && readOnly->runs().size() == 1 &&
                               readOnly->keptWeights(1).empty() &&
                               !readOnly->keptWeightsBytes(1, 0).has_value();
            ::_exit(right ? 0 : 1);
        } catch (const std::exception&) {
            ::_exit(2);
        }
    }
    int status = 0;
    QCOMPARE(::waitpid(child, &status, 0), child);
    QCOMPARE(::chmod(folder.constData(), 0700), 0);
    QVERIFY(WIFEXITED(status));
    QCOMPARE(WEXITSTATUS(status), 0);
    QCOMPARE(countOf(path, "PRAGMA user_version"), int64_t(1));  // nothing written by the reader
    std::string setAside;
    auto library = RunLibrary::open(path, &setAside);
    QVERIFY2(setAside.empty(), setAside.c_str());
    QCOMPARE(library->runs().size(), std::size_t(1));
    library->addKeptWeights(1, 0, "weights");
    QCOMPARE(library->keptWeights(1).size(), std::size_t(1));
}

// 40 steps with an evaluation every 16: steps 0 (its first evaluation), 1, 2,
// 4, 8, 16, 32 and 40 (the last evaluation), each a model that reads back.
void TestSnapshots::aRecordedRunKeepsItsEarlyStepsAndEvaluations() {
    RunConfig config = *RunConfig::preset("tiny");
    config.max_steps = 40;
    config.eval_interval = 16;
    config.eval_iters = 2;
    TrainingSession session(config, letters(), onCpu());
    auto library = std::shared_ptr<RunLibrary>(RunLibrary::open(dir_.filePath("recorded.sqlite").toStdString()));
    const int64_t run = recordWithSnapshots(session, library, RunRecorder::kDefaultKeptBudget);
    QVERIFY(run > 0);
    std::set<int64_t> steps;
    for (const KeptWeights& s : library->keptWeights(run)) steps.insert(s.step);
    QCOMPARE(steps, (std::set<int64_t>{0, 1, 2, 4, 8, 16, 32, 40}));
    const Checkpoint at16 = readKeptWeights(*library, run, 16);
    QCOMPARE(at16.step, int64_t(16));
    QVERIFY(at16.config.sameArchitecture(session.config()));

    // What cannot be read back says why, and loads nothing.
    auto refusal = [&](int64_t id, int64_t step) -> std::string {
        try {
            readKeptWeights(*library, id, step);
        } catch (const Error& e) {
            return e.what();
        }
        return "(read)";
    };
    QVERIFY(refusal(run + 1, 0).find("no run " + std::to_string(run + 1)) != std::string::npos);
    const std::string missing = refusal(run, 3);
    QVERIFY2(missing.find("keeps steps 0, 1, 2, 4, 8, 16, 32, 40") != std::string::npos, missing.c_str());
    std::string half = *library->keptWeightsBytes(run, 4);
    half.resize(half.size() / 2);
    library->addKeptWeights(run, 4, half);
    const std::string damaged = refusal(run, 4);
    QVERIFY2(damaged.find("cannot be read") != std::string::npos, damaged.c_str());
    RunConfig deeper = at16.config;
    deeper.n_layer += 1;
    library->addKeptWeights(run, 2, encodeKeptWeights(deeper, at16.tokenizer, CharGPT(deeper), 2));
    library->addKeptWeights(run, 1, encodeKeptWeights(at16.config, at16.tokenizer, at16.model, 16));
    const std::string otherArchitecture = refusal(run, 2);
    QVERIFY2(otherArchitecture.find("another architecture") != std::string::npos, otherArchitecture.c_str());
    const std::string otherStep = refusal(run, 1);
    QVERIFY2(otherStep.find("hold the weights of step 16") != std::string::npos, otherStep.c_str());
}

// A budget of four snapshots: the kept ones stay within it, step 0 and the
// newest are kept, and the rest are spread over the run, not the last few.
void TestSnapshots::aSmallBudgetThinsEvenly() {
    RunConfig config = *RunConfig::preset("tiny");
    config.max_steps = 300;
    config.eval_interval = 20;
    config.eval_iters = 1;
    TrainingSession session(config, letters(), onCpu());
    const int64_t one =
        int64_t(encodeKeptWeights(session.config(), session.tokenizer(), session.model(), 0).size());
    auto library = std::shared_ptr<RunLibrary>(RunLibrary::open(dir_.filePath("thin.sqlite").toStdString()));
    const int64_t run = recordWithSnapshots(session, library, 4 * one);
    QVERIFY(run > 0);
    const auto kept = library->keptWeights(run);
    int64_t total = 0;
    for (const KeptWeights& s : kept) total += s.bytes;
    QVERIFY2(total <= 4 * one, qPrintable(QString::number(total)));
    QVERIFY(kept.size() >= 3);
    QCOMPARE(kept.front().step, int64_t(0));
    QCOMPARE(kept.back().step, int64_t(300));
    QVERIFY2(kept[kept.size() - 2].step <= 200, qPrintable(QString::number(kept[kept.size() - 2].step)));
}

// A writer killed with SIGKILL while it keeps snapshots of six parts each (in
// the middle of one, nearly always): the file is sound, every snapshot it had
// committed is there byte for byte, the one it was writing is not listed, and
// the library keeps the next.
void TestSnapshots::aKilledSnapshotWriterLeavesTheLibraryWhole() {
    const std::string path = dir_.filePath("killed.sqlite").toStdString();
    const int64_t run = RunLibrary::open(path)->beginRun(someRun("killed"));
    auto bytesOf = [](int64_t step) {
        std::string bytes(5 * RunLibrary::kKeptPartBytes + 1000, '\0');
        for (std::size_t i = 0; i < bytes.size(); ++i)
            bytes[i] = char((i * 31 + std::size_t(step) * 7) & 0xFF);
        return bytes;
    };
    const int done = runlibrary_fixtures::killedWriter(
        path, 6,
        [run, &bytesOf](RunLibrary& library, int step) { library.addKeptWeights(run, step, bytesOf(step)); });
    QVERIFY(done >= 6);

    QCOMPARE(integrity(path), QStringLiteral("ok"));
    std::string setAside;
    auto library = RunLibrary::open(path, &setAside);
    QVERIFY2(setAside.empty(), setAside.c_str());
    const std::vector<KeptWeights> kept = library->keptWeights(run);
    QVERIFY2(int(kept.size()) >= done && int(kept.size()) <= done + 1,
             qPrintable(QStringLiteral("%1 kept, %2 committed").arg(kept.size()).arg(done)));
    for (std::size_t i = 0; i < kept.size(); ++i) {
        QCOMPARE(kept[i].step, int64_t(i));
        QVERIFY(library->keptWeightsBytes(run, kept[i].step) == bytesOf(kept[i].step));
    }
    const int64_t next = int64_t(kept.size());
    library->addKeptWeights(run, next, bytesOf(next));
    QCOMPARE(library->keptWeights(run).size(), kept.size() + 1);
    QVERIFY(library->keptWeightsBytes(run, next) == bytesOf(next));
}

CHARGPT_TEST_GUILESS_MAIN(TestSnapshots)
}  // namespace tst_snapshots

#include "tst_snapshots.moc"
