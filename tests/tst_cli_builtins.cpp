// SPDX-License-Identifier: GPL-3.0-or-later
// The built-in corpora through `chargpt`: `corpora` lists every one with the
// figures the loader gives, and a `builtin:NAME` works in every command that
// takes a corpus (train, sample --corpus, import --corpus, bench); a wrong
// name is said as such.
#include <QJsonArray>
#include <cmath>
#include "TestProgram.h"

#include "CliRun.h"
#include "model/text/BuiltinCorpora.h"
#include "model/text/Corpus.h"

namespace tst_cli_builtins {

namespace {

using cli_run::cliExists;
using cli_run::describe;
using cli_run::Result;
using cli_run::runCli;
using cli_run::succeeded;

}  // namespace

class TestCliBuiltins : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void corporaListsTheBuiltIns();
    void builtInNamesInEveryCommand();
    void floorsOfABuiltInCorpus();

private:
    QTemporaryDir dir_;
};

void TestCliBuiltins::initTestCase() {
    QVERIFY2(cliExists(), CHARGPT_CLI);
    QVERIFY(dir_.isValid());
}

// `chargpt corpora`: every built-in corpus with the figures loadCorpusSource
// gives, and a line saying what it holds.
void TestCliBuiltins::corporaListsTheBuiltIns() {
    const Result json = runCli({"corpora", "--json"});
    QVERIFY2(succeeded(json), qPrintable(describe(json)));
    const QJsonArray corpora = cli_run::lastJsonLine(json.out).value("corpora").toArray();
    const std::vector<std::string> names = chargpt::builtinCorpusNames();
    QCOMPARE(std::size_t(corpora.size()), names.size());
    const Result table = runCli({"corpora"});
    QVERIFY2(succeeded(table), qPrintable(describe(table)));
    for (std::size_t i = 0; i < names.size(); ++i) {
        const QJsonObject entry = corpora[int(i)].toObject();
        QCOMPARE(entry.value("name").toString().toStdString(), names[i]);
        const chargpt::Corpus corpus = chargpt::loadCorpusSource(names[i]);
        QCOMPARE(qint64(entry.value("bytes").toDouble()), qint64(corpus.byteCount()));
        QCOMPARE(qint64(entry.value("characters").toDouble()), qint64(corpus.charCount()));
        QCOMPARE(qint64(entry.value("vocabulary").toDouble()), qint64(corpus.buildTokenizer().vocabSize()));
        const QString description = entry.value("description").toString();
        QVERIFY2(description.size() > 10, qPrintable(entry.value("name").toString()));
        // The table: one line per corpus with its name, its figures and the description.
        const QRegularExpression line(QStringLiteral("^%1\\s+%2\\s+%3\\s+%4\\s+%5$")
                                          .arg(QRegularExpression::escape(QString::fromStdString(names[i])))
                                          .arg(corpus.byteCount())
                                          .arg(corpus.charCount())
                                          .arg(corpus.buildTokenizer().vocabSize())
                                          .arg(QRegularExpression::escape(description)),
                                      QRegularExpression::MultilineOption);
        QVERIFY2(table.out.contains(line), qPrintable(table.out));
    }
    // One by name; an unknown one is refused with the names.
    const Result one = runCli({"corpora", "builtin:song100", "--json"});
    QVERIFY2(succeeded(one), qPrintable(describe(one)));
    QCOMPARE(cli_run::lastJsonLine(one.out).value("corpora").toArray().size(), 1);
    const Result unknown = runCli({"corpora", "builtin:nothing"});
    QCOMPARE(unknown.exitCode, 1);
    QVERIFY2(unknown.err.contains("builtin:tang300"), qPrintable(describe(unknown)));
}

// train, sample --corpus, import --corpus and bench take a built-in name.
void TestCliBuiltins::builtInNamesInEveryCommand() {
    const QString model = dir_.filePath("song.pt");
    const Result train = runCli({"train", "builtin:song100", "--preset", "tiny", "--steps", "2", "--out", model});
    QVERIFY2(succeeded(train), qPrintable(describe(train)));
    QCOMPARE(cli_run::lastJsonLine(train.out).value("steps").toInt(), 2);

    const Result sample =
        runCli({"sample", model, "--corpus", "builtin:song100", "--json", "--chars", "30", "--seed", "5"});
    QVERIFY2(succeeded(sample), qPrintable(describe(sample)));
    const QJsonObject result = cli_run::onlySample(cli_run::lastJsonLine(sample.out));
    QVERIFY2(result.value("copied").isObject(), qPrintable(describe(sample)));
    // The shortest copied run, fitted to the corpus (see sampleReportsCopies).
    const int least = result.value("copied").toObject().value("min_length").toInt();
    QVERIFY2(least >= 8 && least <= 64, qPrintable(describe(sample)));
    QVERIFY(result.value("copied").toObject().value("share").isDouble());
    QCOMPARE(result.value("characters").toInt(), int(result.value("text").toString().toUcs4().size()));

    // import reads the vocabulary from the built-in corpus: what fails is the
    // state_dict, which does not exist, never the corpus's name.
    const QString missing = dir_.filePath("missing-state-dict.pt");
    const Result import = runCli({"import", missing, "--corpus", "builtin:song100", "-o", dir_.filePath("i.pt")});
    QCOMPARE(import.exitCode, 1);
    QVERIFY2(import.err.contains("missing-state-dict.pt") && !import.err.contains("builtin:song100"),
             qPrintable(describe(import)));
    const Result wrong = runCli({"import", missing, "--corpus", "builtin:song", "-o", dir_.filePath("i.pt")});
    QCOMPARE(wrong.exitCode, 1);
    QVERIFY2(wrong.err.contains("there is no built-in corpus 'builtin:song'"), qPrintable(describe(wrong)));

    // The bench's copy index on a built-in corpus, in one JSON object.
    const Result bench = runCli({"bench", "builtin:song100", "--only", "copies", "--json"});
    QVERIFY2(succeeded(bench), qPrintable(describe(bench)));
    const QJsonObject copies = cli_run::lastJsonLine(bench.out).value("copies").toObject();
    QVERIFY2(copies.value("index_build_s").toDouble() > 0.0, qPrintable(bench.out));
    QVERIFY2(copies.value("check_copied_ms").toDouble() > 0.0, qPrintable(bench.out));
    QVERIFY2(bench.out.contains("target 50 ms"), qPrintable(bench.out));
}

// `chargpt floors --json`: the uniform guess over the vocabulary, then the
// n-gram floors from 1 to 5, each at most the one before (a longer context
// tells more) and all below the uniform guess.
void TestCliBuiltins::floorsOfABuiltInCorpus() {
    const Result r = runCli({"floors", "builtin:tang300", "--json"});
    QVERIFY2(succeeded(r), qPrintable(describe(r)));
    const QJsonObject out = cli_run::lastJsonLine(r.out);
    const double uniform = out.value("uniform").toDouble();
    QVERIFY(std::abs(uniform - std::log(out.value("vocabulary").toDouble())) < 1e-4);
    const QJsonArray floors = out.value("floors").toArray();
    QCOMPARE(floors.size(), 5);
    double previous = uniform;
    for (int n = 0; n < floors.size(); ++n) {
        const double loss = floors[n].toObject().value("loss").toDouble();
        QCOMPARE(floors[n].toObject().value("n").toInt(), n + 1);
        QVERIFY2(loss > 0 && loss <= previous + 0.01, qPrintable(describe(r)));
        previous = loss;
    }
    const Result refused = runCli({"floors", "builtin:tang300", "--max-order", "6"});
    QCOMPARE(refused.exitCode, 1);
    QVERIFY2(refused.err.contains("--max-order must be between 1 and 5"), qPrintable(describe(refused)));
}

CHARGPT_TEST_GUILESS_MAIN(TestCliBuiltins)
}  // namespace tst_cli_builtins
#include "tst_cli_builtins.moc"
