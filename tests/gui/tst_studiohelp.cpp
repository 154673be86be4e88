// SPDX-License-Identifier: GPL-3.0-or-later
// `chargpt-studio --help` and `--version` answer on a machine without a
// display: no QT_QPA_PLATFORM, no DISPLAY, no WAYLAND_DISPLAY.
#include <QProcess>
#include <QProcessEnvironment>
#include <QTest>

#include <memory>
#include "TestProgram.h"

namespace tst_studiohelp {

class TestStudioHelp : public QObject {
    Q_OBJECT

private slots:
    void answers_data();
    void answers();
    void badOptionFailsWithoutADisplay();

private:
    static QProcess* run(const QStringList& arguments);
};

QProcess* TestStudioHelp::run(const QStringList& arguments) {
    auto* process = new QProcess;
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    for (const char* name : {"QT_QPA_PLATFORM", "DISPLAY", "WAYLAND_DISPLAY"})
        environment.remove(QString::fromLatin1(name));
    environment.insert(QStringLiteral("LANG"), QStringLiteral("C"));
    environment.insert(QStringLiteral("LC_ALL"), QStringLiteral("C"));
    process->setProcessEnvironment(environment);
    process->start(QStringLiteral(CHARGPT_STUDIO), arguments);
    return process;
}

void TestStudioHelp::answers_data() {
    QTest::addColumn<QString>("option");
    QTest::addColumn<QString>("expected");
    QTest::newRow("--help") << QStringLiteral("--help") << QStringLiteral("Usage:");
    QTest::newRow("-h") << QStringLiteral("-h") << QStringLiteral("--measure-stall");
    QTest::newRow("--version") << QStringLiteral("--version") << QStringLiteral(CHARGPT_VERSION);
}

void TestStudioHelp::answers() {
    QFETCH(QString, option);
    QFETCH(QString, expected);
    std::unique_ptr<QProcess> process(run({option}));
    QVERIFY2(process->waitForFinished(30000), "chargpt-studio did not exit");
    const QString out = QString::fromUtf8(process->readAllStandardOutput());
    const QString err = QString::fromUtf8(process->readAllStandardError());
    QCOMPARE(process->exitStatus(), QProcess::NormalExit);
    QVERIFY2(process->exitCode() == 0, qPrintable(err));
    QVERIFY2(out.contains(expected), qPrintable(out + err));
}

void TestStudioHelp::badOptionFailsWithoutADisplay() {
    std::unique_ptr<QProcess> process(run({QStringLiteral("--no-such-option")}));
    QVERIFY2(process->waitForFinished(30000), "chargpt-studio did not exit");
    QCOMPARE(process->exitStatus(), QProcess::NormalExit);  // an error message, not a crash
    QVERIFY(process->exitCode() != 0);
    QVERIFY(QString::fromUtf8(process->readAllStandardError()).contains(QStringLiteral("no-such-option")));
}

CHARGPT_TEST_GUILESS_MAIN(TestStudioHelp)
}  // namespace tst_studiohelp
#include "tst_studiohelp.moc"
