// SPDX-License-Identifier: GPL-3.0-or-later
// The help of every option that sets a training setting comes from the
// settings table (model/train/RunFields.h), as the settings panel's tooltip
// does: the field's text, the range the option checks and the value a run
// starts from (the fast preset's for `train`, the ladder's own for `ladder`),
// read here from the presets and the ladder themselves.
#include "TestProgram.h"

#include <algorithm>
#include <functional>
#include <iterator>
#include <limits>
#include <sstream>
#include <string_view>
#include <vector>

#include <QFileInfo>
#include <QTemporaryDir>

#include "CliRun.h"
#include "model/train/Ladder.h"
#include "model/train/RunFields.h"

namespace tst_cli_fieldhelp {

namespace {

using cli_run::cliExists;
using cli_run::describe;
using cli_run::runCli;

// The fields `chargpt ladder` takes an option of (by the option the table names).
constexpr const char* kLadder[] = {"max_steps", "batch_size", "learning_rate", "eval_iters", "seed"};

// Every field the table gives an option, as `chargpt train` takes them all.
std::vector<const char*> optionFields() {
    std::vector<const char*> keys;
    for (const chargpt::RunField& field : chargpt::runFields())
        if (field.option) keys.push_back(field.key);
    return keys;
}

// A number as the CLI writes it (as its refusals do).
QString words(const chargpt::RunField& field, double value) {
    if (field.kind == chargpt::FieldKind::Real) {
        std::ostringstream out;
        out << value;
        return QString::fromStdString(out.str());
    }
    return QString::number(value < 9.2e18 ? qint64(value) : std::numeric_limits<qint64>::max());
}

// The line of `flag` in a command's --help.
QString helpLine(const QString& help, const char* flag) {
    for (const QString& line : help.split(QLatin1Char('\n')))
        if (line.trimmed().startsWith(QLatin1String(flag) + QLatin1Char(' '))) return line.trimmed();
    return QString();
}

// `start`: the value a run of the command starts from, as the help words it.
// The threads are the program's: the field's name, range and default, the
// help the option's own.
void verifyHelp(const char* command, const std::vector<const char*>& keys,
                const std::function<QString(const chargpt::RunField&)>& start) {
    const cli_run::Result r = runCli({QString::fromLatin1(command), QStringLiteral("--help")});
    QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
    for (const char* key : keys) {
        const chargpt::RunField* field = chargpt::runField(key);
        QVERIFY2(field && field->option, key);
        const std::string_view name(field->key);
        QVERIFY2(*field->help || name == "threads", key);
        const QString line = helpLine(r.out, field->option);
        QVERIFY2(!line.isEmpty(), field->option);
        // The field's own words, but for the steps, which each command words
        // for itself, and the threads.
        if (name != "max_steps" && name != "threads")
            QVERIFY2(line.contains(QString::fromUtf8(field->help) + QStringLiteral(" (")), qPrintable(line));
        // The table's range; the seed's is every int64_t, which a double cannot hold.
        const double maximum = name == "seed" ? double(std::numeric_limits<int64_t>::max()) : field->maximum;
        QVERIFY2(
            line.contains(QStringLiteral("from %1 to %2; default %3")
                              .arg(words(*field, field->minimum), words(*field, maximum), start(*field))),
            qPrintable(line));
    }
}

}  // namespace

class TestCliFieldHelp : public QObject {
    Q_OBJECT

private slots:
    void initTestCase() {
        if (!cliExists()) QSKIP("the chargpt executable was not built");
    }
    void trainHelpIsTheTables();
    void ladderHelpNamesTheLaddersSettings();
    void optionsRefuseOutsideTheTablesRange();
};

void TestCliFieldHelp::trainHelpIsTheTables() {
    // `chargpt train` starts from the fast preset; the fields no preset sets
    // (the seed, the time limit, the threads) from RunConfig's own.
    const std::vector<const char*> keys = optionFields();
    for (const char* key : {"max_steps", "time_limit_s", "threads", "batch_size", "learning_rate", "seed"})
        QVERIFY2(std::find_if(keys.begin(), keys.end(),
                              [&](const char* k) { return std::string_view(k) == key; }) != keys.end(),
                 key);
    const chargpt::RunConfig fast = *chargpt::RunConfig::preset("fast");
    verifyHelp("train", keys, [&](const chargpt::RunField& field) {
        return field.presetSets
                   ? QStringLiteral("the preset's, %1 in fast").arg(words(field, field.numberIn(fast)))
                   : words(field, field.defaultValue());
    });
}

void TestCliFieldHelp::ladderHelpNamesTheLaddersSettings() {
    // Every rung trains with the same settings: the top rung's are the ladder's.
    const chargpt::RunConfig ladder = chargpt::ladderSettings(chargpt::kLadderRungs);
    QCOMPARE(ladder.max_steps, chargpt::kLadderSteps);
    verifyHelp("ladder", {std::begin(kLadder), std::end(kLadder)},
               [&](const chargpt::RunField& field) { return words(field, field.numberIn(ladder)); });
}

void TestCliFieldHelp::optionsRefuseOutsideTheTablesRange() {
    // The panel's range is the command line's: past the table's largest value
    // a run is refused before anything is read, naming the range.
    for (const char* key : {"time_limit_s", "threads", "learning_rate"}) {
        const chargpt::RunField* field = chargpt::runField(key);
        const QString past = words(*field, field->maximum * 2);
        const cli_run::Result r = runCli({QStringLiteral("train"), QStringLiteral("no-such-corpus.txt"),
                                          QString::fromLatin1(field->option), past});
        QVERIFY2(r.exitCode != 0, qPrintable(describe(r)));
        QVERIFY2(r.err.contains(QStringLiteral("%1 must be between %2 and %3")
                                    .arg(QString::fromLatin1(field->option), words(*field, field->minimum),
                                         words(*field, field->maximum))),
                 qPrintable(describe(r)));
        QVERIFY2(!r.err.contains(QStringLiteral("no-such-corpus")), qPrintable(describe(r)));
    }
    // 0, the table's "none", is a time limit the range lets through: alone,
    // without --steps, the run would never end, and the settings' validation
    // refuses it as the panel does; nothing is written.
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString out = dir.filePath(QStringLiteral("never.pt"));
    const cli_run::Result never =
        runCli({QStringLiteral("train"), QStringLiteral("--time-limit"), QStringLiteral("0"),
                QStringLiteral("--no-record"), QStringLiteral("--out"), out});
    QCOMPARE(never.exitCode, 1);
    QVERIFY2(never.err.contains(QStringLiteral("training would never end")), qPrintable(describe(never)));
    QVERIFY(!QFileInfo::exists(out));
}

CHARGPT_TEST_GUILESS_MAIN(TestCliFieldHelp)
}  // namespace tst_cli_fieldhelp
#include "tst_cli_fieldhelp.moc"
