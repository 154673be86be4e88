// SPDX-License-Identifier: GPL-3.0-or-later
// The help of every option that sets a training setting comes from the
// settings table (model/train/RunFields.h), as the settings panel's tooltip
// does: the field's text, the range the option checks and the value a run
// starts from (the fast preset's for `train`, the ladder's own for `ladder`),
// read here from the presets and the ladder themselves.
#include "TestProgram.h"

#include <functional>
#include <iterator>
#include <limits>
#include <sstream>
#include <string_view>

#include "CliRun.h"
#include "model/train/Ladder.h"
#include "model/train/RunFields.h"

namespace tst_cli_fieldhelp {

namespace {

using cli_run::cliExists;
using cli_run::describe;
using cli_run::runCli;

// The options that set a training setting, and the field each sets.
struct Binding {
    const char* flag;
    const char* key;
};
constexpr Binding kTrain[] = {
    {"--steps", "max_steps"}, {"--batch", "batch_size"},          {"--lr", "learning_rate"},
    {"--dropout", "dropout"}, {"--weight-decay", "weight_decay"}, {"--eval-iters", "eval_iters"},
    {"--seed", "seed"}};
constexpr Binding kLadder[] = {{"--steps", "max_steps"},
                               {"--batch", "batch_size"},
                               {"--lr", "learning_rate"},
                               {"--eval-iters", "eval_iters"},
                               {"--seed", "seed"}};

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
void verifyHelp(const char* command, const Binding* bindings, std::size_t count,
                const std::function<QString(const chargpt::RunField&)>& start) {
    const cli_run::Result r = runCli({QString::fromLatin1(command), QStringLiteral("--help")});
    QVERIFY2(r.exitCode == 0, qPrintable(describe(r)));
    for (std::size_t i = 0; i < count; ++i) {
        const chargpt::RunField* field = chargpt::runField(bindings[i].key);
        QVERIFY(field && *field->help);
        const QString line = helpLine(r.out, bindings[i].flag);
        // The field's own words, but for the steps, which each command words for itself.
        if (std::string_view(field->key) != "max_steps")
            QVERIFY2(line.contains(QString::fromUtf8(field->help) + QStringLiteral(" (")), qPrintable(line));
        // The table's range; the seed's is every int64_t, which a double cannot hold.
        const double maximum = std::string_view(field->key) == "seed"
                                   ? double(std::numeric_limits<int64_t>::max())
                                   : field->maximum;
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
};

void TestCliFieldHelp::trainHelpIsTheTables() {
    // `chargpt train` starts from the fast preset; the fields no preset sets
    // (the seed) from RunConfig's own.
    const chargpt::RunConfig fast = *chargpt::RunConfig::preset("fast");
    verifyHelp("train", kTrain, std::size(kTrain), [&](const chargpt::RunField& field) {
        return field.presetSets
                   ? QStringLiteral("the preset's, %1 in fast").arg(words(field, field.numberIn(fast)))
                   : words(field, field.defaultValue());
    });
}

void TestCliFieldHelp::ladderHelpNamesTheLaddersSettings() {
    // Every rung trains with the same settings: the top rung's are the ladder's.
    const chargpt::RunConfig ladder = chargpt::ladderSettings(chargpt::kLadderRungs);
    QCOMPARE(ladder.max_steps, chargpt::kLadderSteps);
    verifyHelp("ladder", kLadder, std::size(kLadder),
               [&](const chargpt::RunField& field) { return words(field, field.numberIn(ladder)); });
}

CHARGPT_TEST_GUILESS_MAIN(TestCliFieldHelp)
}  // namespace tst_cli_fieldhelp
#include "tst_cli_fieldhelp.moc"
