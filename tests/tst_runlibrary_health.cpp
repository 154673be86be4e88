// SPDX-License-Identifier: GPL-3.0-or-later
// The run library's training health (schema version 3) and its warnings
// (version 4): a run's figures and warnings read back as written, gone with
// their run; a library of version 3, 2 or 1 still opens, read-only as it is and
// for writing with the tables added and what it held kept; rows whose figures
// do not match their counts, and warnings out of range, left out.
#include <QTemporaryDir>
#include <QTest>

#include <sqlite3.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmath>

#include "model/record/RunLibrary.h"
#include "RunLibraryFixtures.h"
#include "TestProgram.h"

namespace tst_runlibrary_health {

using namespace chargpt;
using namespace runlibrary_fixtures;

namespace {

HealthFigures figuresAt(int64_t step, int layers, int heads) {
    HealthFigures f;
    f.step = step;
    f.loss = 3.0 - 0.01 * double(step);
    f.gradNorm = 0.5 + double(step);
    for (int l = 0; l < layers; ++l) {
        f.layerGradNorm.push_back(0.1 * (l + 1) + double(step));
        f.updateRatio.push_back(1e-3 * (l + 1));
        f.deadShare.push_back(l == 0 ? std::nan("") : 0.25 * l);  // a layer without a feed-forward
        std::vector<double> entropy, previous;
        for (int h = 0; h < heads; ++h) {
            entropy.push_back(1.0 + 0.1 * h + l);
            previous.push_back(0.05 * h);
        }
        f.headEntropy.push_back(entropy);
        f.previousShare.push_back(previous);
    }
    return f;
}

HealthWarning warningAt(HealthWarning::Kind kind, int64_t step, int64_t layer, double factor,
                        int64_t count = 0, int64_t total = 0) {
    HealthWarning w;
    w.kind = kind;
    w.step = step;
    w.layer = layer;
    w.factor = factor;
    w.count = count;
    w.total = total;
    return w;
}

bool same(const HealthWarning& a, const HealthWarning& b) {
    return a.kind == b.kind && a.step == b.step && a.layer == b.layer && a.factor == b.factor &&
           a.count == b.count && a.total == b.total;
}

bool same(double a, double b) { return (std::isnan(a) && std::isnan(b)) || a == b; }

bool same(const std::vector<double>& a, const std::vector<double>& b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (!same(a[i], b[i])) return false;
    return true;
}

bool same(const HealthFigures& a, const HealthFigures& b) {
    if (a.step != b.step || !same(a.loss, b.loss) || !same(a.gradNorm, b.gradNorm) ||
        !same(a.layerGradNorm, b.layerGradNorm) || !same(a.updateRatio, b.updateRatio) ||
        !same(a.deadShare, b.deadShare) || a.headEntropy.size() != b.headEntropy.size())
        return false;
    for (std::size_t l = 0; l < a.headEntropy.size(); ++l)
        if (!same(a.headEntropy[l], b.headEntropy[l]) || !same(a.previousShare[l], b.previousShare[l])) return false;
    return true;
}

int64_t countOf(const std::string& path, const char* sql) {
    sqlite3* db = nullptr;
    sqlite3_open(path.c_str(), &db);
    sqlite3_stmt* stmt = nullptr;
    sqlite3_prepare_v2(db, sql, -1, &stmt, nullptr);
    const int64_t value = sqlite3_step(stmt) == SQLITE_ROW ? sqlite3_column_int64(stmt, 0) : -1;
    sqlite3_finalize(stmt);
    sqlite3_close(db);
    return value;
}

}  // namespace

class TestRunLibraryHealth : public QObject {
    Q_OBJECT

private slots:
    void init() { QVERIFY(dir_.isValid()); }
    void readsBackWhatWasWritten();
    void anOlderLibraryOpens_data();
    void anOlderLibraryOpens();
    void rowsThatDoNotMatchTheirCountsAreLeftOut();
    void warningsReadBackWithTheirRun();

private:
    QTemporaryDir dir_;
};

void TestRunLibraryHealth::readsBackWhatWasWritten() {
    const std::string path = dir_.filePath("health.sqlite").toStdString();
    auto library = RunLibrary::open(path);
    const int64_t run = library->beginRun(someRun("healthy"));
    const int64_t other = library->beginRun(someRun("other"));
    const std::vector<HealthFigures> written = {figuresAt(1, 3, 4), figuresAt(25, 3, 4), figuresAt(50, 3, 4)};
    library->addHealth(run, {written[0]});
    library->addHealth(run, {written[1], written[2]});
    library->addHealth(other, {figuresAt(1, 1, 2)});
    const std::vector<HealthFigures> read = library->health(run);
    QCOMPARE(read.size(), written.size());
    for (std::size_t i = 0; i < read.size(); ++i) QVERIFY2(same(read[i], written[i]), qPrintable(QString::number(i)));
    QCOMPARE(library->health(other).size(), std::size_t(1));
    QVERIFY(library->health(run + 100).empty());
    library->remove(run);
    QVERIFY(library->health(run).empty());
    QCOMPARE(countOf(path, "SELECT count(*) FROM health"), int64_t(1));  // the other run's
}

void TestRunLibraryHealth::anOlderLibraryOpens_data() {
    QTest::addColumn<QByteArray>("downgrade");
    QTest::addColumn<int>("version");
    QTest::newRow("version 3") << QByteArray("DROP TABLE health_warnings; PRAGMA user_version=3;") << 3;
    QTest::newRow("version 2") << QByteArray(
                                      "DROP TABLE health_warnings; DROP TABLE health; PRAGMA user_version=2;")
                               << 2;
    QTest::newRow("version 1") << QByteArray(
                                      "DROP TABLE health_warnings; DROP TABLE health; DROP TABLE snapshots; "
                                      "PRAGMA user_version=1;")
                               << 1;
}

// Its runs listed read-only (no warnings to show, nor health before version
// 3; nothing written) and, opened for writing, the tables added without
// setting the file aside, the health it kept still there.
void TestRunLibraryHealth::anOlderLibraryOpens() {
    QFETCH(QByteArray, downgrade);
    QFETCH(int, version);
    const std::string path = dir_.filePath(QStringLiteral("old%1.sqlite").arg(version)).toStdString();
    {
        auto library = RunLibrary::open(path);
        library->beginRun(someRun("old"));
        library->addHealth(1, {figuresAt(7, 2, 3)});
    }
    QVERIFY(edit(path, downgrade.constData()).isEmpty());
    const QByteArray folder = dir_.path().toLocal8Bit();
    QCOMPARE(::chmod(folder.constData(), 0555), 0);
    const pid_t child = ::fork();
    QVERIFY(child >= 0);
    if (child == 0) {
        if (::geteuid() == 0 && (::setgid(65534) != 0 || ::setuid(65534) != 0)) ::_exit(3);
        try {
            auto readOnly = RunLibrary::open(path);
            const std::size_t kept = version >= 3 ? 1 : 0;
            ::_exit(readOnly->readOnly() && readOnly->runs().size() == 1 &&
                            readOnly->health(1).size() == kept && readOnly->healthWarnings(1).empty()
                        ? 0
                        : 1);
        } catch (const std::exception&) {
            ::_exit(2);
        }
    }
    int status = 0;
    QCOMPARE(::waitpid(child, &status, 0), child);
    QCOMPARE(::chmod(folder.constData(), 0700), 0);
    QVERIFY(WIFEXITED(status));
    QCOMPARE(WEXITSTATUS(status), 0);
    QCOMPARE(countOf(path, "PRAGMA user_version"), int64_t(version));
    std::string setAside;
    auto library = RunLibrary::open(path, &setAside);
    QVERIFY2(setAside.empty(), setAside.c_str());
    QCOMPARE(library->runs().size(), std::size_t(1));
    QCOMPARE(countOf(path, "PRAGMA user_version"), int64_t(RunLibrary::kSchemaVersion));
    if (version >= 3) {
        const std::vector<HealthFigures> kept = library->health(1);
        QCOMPARE(kept.size(), std::size_t(1));
        QVERIFY(same(kept.front(), figuresAt(7, 2, 3)));
    } else {
        QVERIFY(library->health(1).empty());
    }
    const HealthWarning spike = warningAt(HealthWarning::Kind::LossSpike, 9, -1, 12.5);
    library->addHealth(1, {figuresAt(1, 2, 2)}, {spike});
    QCOMPARE(library->health(1).size(), std::size_t(version >= 3 ? 2 : 1));
    QCOMPARE(library->healthWarnings(1).size(), std::size_t(1));
    QVERIFY(same(library->healthWarnings(1).front(), spike));
    library->addKeptWeights(1, 0, "weights");
    QCOMPARE(library->keptWeights(1).size(), std::size_t(1));
}

void TestRunLibraryHealth::rowsThatDoNotMatchTheirCountsAreLeftOut() {
    const std::string path = dir_.filePath("tampered.sqlite").toStdString();
    {
        auto library = RunLibrary::open(path);
        const int64_t run = library->beginRun(someRun("tampered"));
        library->addHealth(run, {figuresAt(1, 2, 2), figuresAt(2, 2, 2), figuresAt(3, 2, 2), figuresAt(4, 2, 2)});
    }
    QVERIFY(edit(path, "UPDATE health SET layers=3 WHERE step=1; UPDATE health SET heads=2000000000 WHERE step=2;"
                       "UPDATE health SET figures=x'00' WHERE step=3;")
                .isEmpty());
    auto library = RunLibrary::open(path);
    const std::vector<HealthFigures> read = library->health(1);
    QCOMPARE(read.size(), std::size_t(1));
    QCOMPARE(read.front().step, int64_t(4));
    QVERIFY(same(read.front(), figuresAt(4, 2, 2)));
}

void TestRunLibraryHealth::warningsReadBackWithTheirRun() {
    const std::string path = dir_.filePath("warnings.sqlite").toStdString();
    const std::vector<HealthWarning> written = {
        warningAt(HealthWarning::Kind::LargeUpdates, 1, -1, 340.0),
        warningAt(HealthWarning::Kind::LayerUpdates, 25, 2, 31.5),
        warningAt(HealthWarning::Kind::PreviousCharacter, 50, -1, 0.0, 6, 16),
        warningAt(HealthWarning::Kind::EntropyCollapse, 75, -1, 0.0, 2, 16)};
    {
        auto library = RunLibrary::open(path);
        const int64_t run = library->beginRun(someRun("warned"));
        const int64_t other = library->beginRun(someRun("other"));
        library->addHealth(run, {figuresAt(1, 3, 2)}, {written[0]});
        library->addHealth(run, {}, {written[1], written[2], written[3]});
        library->addHealth(other, {}, {warningAt(HealthWarning::Kind::LossSpike, 3, -1, 20.0)});
        // Not a measurement's: a count past its total, a NaN factor, a step below 0.
        library->addHealth(run, {},
                           {warningAt(HealthWarning::Kind::PreviousCharacter, 60, -1, 0.0, 17, 16),
                            warningAt(HealthWarning::Kind::LossSpike, 61, -1, std::nan("")),
                            warningAt(HealthWarning::Kind::LossSpike, -1, -1, 2.0)});
    }
    auto library = RunLibrary::open(path);
    const std::vector<HealthWarning> read = library->healthWarnings(1);
    QCOMPARE(read.size(), written.size());
    for (std::size_t i = 0; i < read.size(); ++i)
        QVERIFY2(same(read[i], written[i]), qPrintable(QString::number(i)));
    QCOMPARE(library->healthWarnings(2).size(), std::size_t(1));
    // A kind this build does not know, from a tampered or later file: left out.
    library.reset();
    QVERIFY(edit(path,
                 "UPDATE health_warnings SET kind=99 WHERE step=25; UPDATE health_warnings SET layer=5000 "
                 "WHERE step=50;")
                .isEmpty());
    library = RunLibrary::open(path);
    QCOMPARE(library->healthWarnings(1).size(), std::size_t(2));
    library->remove(1);
    QVERIFY(library->healthWarnings(1).empty());
    QCOMPARE(countOf(path, "SELECT count(*) FROM health_warnings"), int64_t(1));  // the other run's
}

CHARGPT_TEST_GUILESS_MAIN(TestRunLibraryHealth)
}  // namespace tst_runlibrary_health
#include "tst_runlibrary_health.moc"
