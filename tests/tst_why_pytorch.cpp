// SPDX-License-Identifier: GPL-3.0-or-later
// `chargpt attribute --json` and `chargpt patch --json` on a checkpoint that
// the seed's PyTorch CharGPT loads as it is (bench/seed_reference.py), against
// tests/python/why_reference.py: the same quantities worked out independently
// in PyTorch (float64, the seed's one module per head, forward hooks for the
// patches), with Debian's python3-torch. Every Python file is the
// repository's; the corpus and the model are made here.
#include <torch/torch.h>

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>

#include "PyTorchRun.h"
#include "TestProgram.h"

#include <algorithm>
#include <cmath>

namespace tst_why_pytorch {

#ifndef CHARGPT_CLI
#error "CHARGPT_CLI must name the chargpt executable"
#endif

using namespace pytorch_run;

namespace {

QJsonObject lastJson(const QString& out) {
    const QStringList lines = out.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    return lines.isEmpty() ? QJsonObject() : QJsonDocument::fromJson(lines.last().toUtf8()).object();
}

// The CLI prints six significant digits; the reference is float64, the CLI's model float32.
bool near(double ours, double theirs, double absolute = 2e-4) {
    return std::abs(ours - theirs) <= absolute + 1e-3 * std::abs(theirs);
}

}  // namespace

class TestWhyPyTorch : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void attributionMatchesPyTorch_data();
    void attributionMatchesPyTorch();
    void patchingMatchesPyTorch();

private:
    QTemporaryDir dir_;
    QString model_;
};

void TestWhyPyTorch::initTestCase() {
    QVERIFY(dir_.isValid());
    const Result torchCheck = python({QStringLiteral("-c"), QStringLiteral("import torch")});
    QVERIFY2(torchCheck.ok,
             qPrintable("PyTorch is missing for /usr/bin/python3 (python3-torch): " + torchCheck.describe()));
    const QString corpus = dir_.filePath(QStringLiteral("corpus.txt"));
    QVERIFY(writeVerseCorpus(corpus));
    model_ = dir_.filePath(QStringLiteral("tiny.pt"));
    const Result train = cli({QStringLiteral("train"), corpus, QStringLiteral("--preset"), QStringLiteral("tiny"),
                              QStringLiteral("--steps"), QStringLiteral("120"), QStringLiteral("--no-record"),
                              QStringLiteral("--out"), model_});
    QVERIFY2(train.ok, qPrintable(train.describe()));
}

void TestWhyPyTorch::attributionMatchesPyTorch_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<int>("position");
    QTest::addColumn<QString>("character");
    QTest::newRow("the top guess") << QStringLiteral("To be, or not to") << 12 << QString();
    QTest::newRow("the first position") << QStringLiteral("The slings") << 0 << QString();
    QTest::newRow("another character") << QStringLiteral("Whether tis nob") << 14 << QStringLiteral("q");
}

void TestWhyPyTorch::attributionMatchesPyTorch() {
    QFETCH(QString, text);
    QFETCH(int, position);
    QFETCH(QString, character);
    QStringList args = {QStringLiteral("--text"), text, QStringLiteral("--position"), QString::number(position)};
    if (!character.isEmpty()) args << QStringLiteral("--char") << character;
    const Result ours = cli(QStringList{QStringLiteral("attribute"), model_, QStringLiteral("--json")} + args);
    QVERIFY2(ours.ok, qPrintable(ours.describe()));
    const Result theirs =
        python(QStringList{source("tests/python/why_reference.py"), QStringLiteral("attribute"), model_} + args);
    QVERIFY2(theirs.ok, qPrintable(theirs.describe()));
    const QJsonObject o = lastJson(ours.out), t = lastJson(theirs.out);
    QCOMPARE(o.value("char").toString(), t.value("char").toString());
    QCOMPARE(o.value("top").toBool(), t.value("top").toBool());
    QCOMPARE(o.value("runner_up").toObject().value("char").toString(),
             t.value("runner_up").toObject().value("char").toString());
    for (const char* key : {"logit", "probability", "margin", "final_norm_scale"})
        QVERIFY2(near(o.value(key).toDouble(), t.value(key).toDouble()),
                 qPrintable(QStringLiteral("%1: %2 against %3").arg(key).arg(o.value(key).toDouble()).arg(t.value(key).toDouble())));
    const QJsonArray ourParts = o.value("parts").toArray(), theirParts = t.value("parts").toArray();
    QCOMPARE(ourParts.size(), theirParts.size());
    double largest = 0.0;
    for (qsizetype i = 0; i < ourParts.size(); ++i) {
        const QJsonObject a = ourParts[i].toObject(), b = theirParts[i].toObject();
        const QString where = QString::fromUtf8(QJsonDocument(a).toJson(QJsonDocument::Compact)) + QStringLiteral(" against ") +
                              QString::fromUtf8(QJsonDocument(b).toJson(QJsonDocument::Compact));
        QVERIFY2(a.value("part") == b.value("part") && a.value("layer") == b.value("layer") &&
                     a.value("head") == b.value("head"),
                 qPrintable(where));
        QVERIFY2(near(a.value("logit").toDouble(), b.value("logit").toDouble()), qPrintable(where));
        QVERIFY2(near(a.value("margin").toDouble(), b.value("margin").toDouble()), qPrintable(where));
        largest = std::max(largest, std::abs(b.value("logit").toDouble()));
    }
    QVERIFY(largest > 0.05);  // the comparison is of numbers that matter
    const QJsonArray ourInputs = o.value("gradient_x_input").toArray(), theirInputs = t.value("gradient_x_input").toArray();
    QCOMPARE(ourInputs.size(), position + 1);
    QCOMPARE(theirInputs.size(), position + 1);
    for (int s = 0; s <= position; ++s)
        QVERIFY2(near(ourInputs[s].toObject().value("value").toDouble(), theirInputs[s].toDouble()),
                 qPrintable(QStringLiteral("gradient x input at %1: %2 against %3")
                                .arg(s)
                                .arg(ourInputs[s].toObject().value("value").toDouble())
                                .arg(theirInputs[s].toDouble())));
}

void TestWhyPyTorch::patchingMatchesPyTorch() {
    const QStringList args = {QStringLiteral("--clean"), QStringLiteral("Whether tis nob"), QStringLiteral("--corrupted"),
                              QStringLiteral("Whether tis sob"), QStringLiteral("--target"), QStringLiteral("l")};
    const Result ours = cli(QStringList{QStringLiteral("patch"), model_, QStringLiteral("--json")} + args);
    QVERIFY2(ours.ok, qPrintable(ours.describe()));
    const Result theirs = python(QStringList{source("tests/python/why_reference.py"), QStringLiteral("patch"), model_} + args);
    QVERIFY2(theirs.ok, qPrintable(theirs.describe()));
    const QJsonObject o = lastJson(ours.out), t = lastJson(theirs.out);
    QCOMPARE(o.value("target").toString(), QStringLiteral("l"));
    QCOMPARE(o.value("wrong").toString(), t.value("wrong").toString());
    for (const char* key : {"clean_difference", "corrupted_difference"})
        QVERIFY2(near(o.value(key).toDouble(), t.value(key).toDouble()), key);
    // Restored shares divide by the difference of the two: a few thousandths.
    for (const char* key : {"residual", "heads", "feed_forward"}) {
        const QJsonArray a = o.value(key).toArray(), b = t.value(key).toArray();
        QCOMPARE(a.size(), b.size());
        QVERIFY(!a.isEmpty());
        for (qsizetype r = 0; r < a.size(); ++r) {
            const QJsonArray ra = a[r].toArray(), rb = b[r].toArray();
            QCOMPARE(ra.size(), rb.size());
            for (qsizetype c = 0; c < ra.size(); ++c)
                QVERIFY2(near(ra[c].toDouble(), rb[c].toDouble(), 2e-3),
                         qPrintable(QStringLiteral("%1[%2][%3]: %4 against %5")
                                        .arg(key).arg(r).arg(c).arg(ra[c].toDouble()).arg(rb[c].toDouble())));
        }
    }
}

CHARGPT_TEST_GUILESS_MAIN(TestWhyPyTorch)
}  // namespace tst_why_pytorch
#include "tst_why_pytorch.moc"
