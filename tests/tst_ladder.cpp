// SPDX-License-Identifier: GPL-3.0-or-later
// The architecture ladder trained on a short text this test writes: every rung
// learns (its best validation loss below its loss before the first step), the
// bigram ends above the full model, the floors are those of the validation
// text, and each rung is a run of its own in the run library, whose kept
// weights read back as that rung and generate text.
#include <torch/torch.h>

#include "model/generate/BatchSampler.h"
#include "model/io/ConfigJson.h"
#include "model/record/KeptWeights.h"
#include "model/record/LadderRuns.h"
#include "model/runtime/Error.h"
#include "model/text/Corpus.h"
#include "model/train/Dataset.h"

#include "TestProgram.h"

#include <QTemporaryDir>

#include <cmath>
#include <memory>
#include <string>
#include <vector>

namespace tst_ladder {

using namespace chargpt;

namespace {

// Two sentences over and over: one character back leaves a lot to guess
// (after "t": "h", " ", "."), the context leaves almost nothing.
Corpus shortText() {
    std::string text;
    for (int i = 0; i < 60; ++i) text += "the cat sat on the mat. the dog ate the hat. ";
    return Corpus::fromUtf8(text, "sentences");
}

// A few seconds for all seven rungs: 100 steps of 8, two batches an evaluation.
LadderOptions quickOptions() {
    LadderOptions options;
    options.steps = 100;
    options.batchSize = 8;
    options.evalIters = 2;
    options.seed = 5;
    options.bf16 = false;
    options.source = "sentences";
    return options;
}

}  // namespace

class TestLadder : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void everyRungLearnsAndTheBigramEndsAbove();
    void rungsAreRecordedAsRuns();
    void someRungsInTheOrderGiven();
    void aStopEndsTheLadder();

private:
    QTemporaryDir dir_;
    LadderReport report_;  // the whole ladder, recorded (everyRungLearns...)
    std::shared_ptr<RunLibrary> library_;
};

void TestLadder::initTestCase() {
    QVERIFY(dir_.isValid());
    library_ = RunLibrary::open(dir_.filePath(QStringLiteral("runs.sqlite")).toStdString());
    QVERIFY(library_);
}

void TestLadder::everyRungLearnsAndTheBigramEndsAbove() {
    LadderOptions options = quickOptions();
    options.library = library_;
    int started = 0, ended = 0, steps = 0;
    LadderHooks hooks;
    hooks.started = [&](const LadderReport& r) {
        ++started;
        QCOMPARE(r.rows.size(), std::size_t(0));
        QVERIFY(r.floors.uniform > 0.0);
    };
    hooks.step = [&](const LadderRung&, const StepFigures&) { ++steps; };
    hooks.rungEnds = [&](const LadderRow&) { ++ended; };
    report_ = trainLadder(shortText(), options, hooks);
    QCOMPARE(started, 1);
    QCOMPARE(ended, kLadderRungs);
    QCOMPARE(steps, 100 * kLadderRungs);
    QCOMPARE(report_.rows.size(), std::size_t(kLadderRungs));
    QVERIFY(!report_.stopped);
    for (int n = 1; n <= kLadderRungs; ++n) {
        const LadderRow& row = report_.rows[std::size_t(n - 1)];
        const QByteArray name = row.rung.name;
        QCOMPARE(row.rung.number, n);
        QVERIFY2(row.reason == EndReason::Finished, name);
        QCOMPARE(row.step, int64_t(100));
        QVERIFY2(row.config.sameArchitecture(ladderSettings(n)), name);
        QCOMPARE(row.parameters, row.config.parameterCount());
        // It learns: from about ln V before the first step to well below it.
        QVERIFY2(std::abs(row.firstValLoss - report_.floors.uniform) < 0.2, name);
        QVERIFY2(row.bestValLoss < row.firstValLoss - 0.3, name);
        QVERIFY2(row.bestValLoss < report_.floors.uniform, name);
    }
    // The bigram sees one character: it cannot beat the bigram floor, and the
    // whole model, which sees the context, ends far below it.
    const LadderRow& bigram = report_.rows.front();
    const LadderRow& whole = report_.rows.back();
    QVERIFY(bigram.bestValLoss >= report_.floors.bigram - 0.05);
    QVERIFY2(whole.bestValLoss < bigram.bestValLoss - 0.3,
             qPrintable(QStringLiteral("%1 vs %2").arg(whole.bestValLoss).arg(bigram.bestValLoss)));
    // The floors are the validation text's.
    const Corpus corpus = shortText();
    const CharTokenizer tokenizer = corpus.buildTokenizer();
    const Dataset data(corpus.encode(tokenizer), ladderSettings(1).sequence_len);
    const LossFloors floors = lossFloors(data.tokens(Split::Validation), tokenizer.vocabSize());
    QCOMPARE(report_.floors.uniform, std::log(double(tokenizer.vocabSize())));
    QCOMPARE(report_.floors.unigram, floors.unigram);
    QCOMPARE(report_.floors.bigram, floors.bigram);
    QVERIFY(floors.bigram < floors.unigram && floors.unigram < floors.uniform);
    QCOMPARE(report_.validationTokens, data.size(Split::Validation));
}

void TestLadder::rungsAreRecordedAsRuns() {
    QCOMPARE(report_.rows.size(), std::size_t(kLadderRungs));
    for (const LadderRow& row : report_.rows) {
        const QByteArray name = row.rung.name;
        QVERIFY2(row.runId && row.bestStep, name);
        QVERIFY2(row.recordingProblem.empty(), row.recordingProblem.c_str());
        const std::optional<RunRecord> run = library_->run(*row.runId);
        QVERIFY(run.has_value());
        QCOMPARE(run->start.preset, std::string(row.rung.name));
        QVERIFY(run->start.origin == RunOrigin::Cli);
        QVERIFY(run->endReason == EndReason::Finished);
        QCOMPARE(run->start.parameters, row.parameters);
        QVERIFY2(configFromJson(run->start.settingsJson).sameArchitecture(row.config), name);
        QCOMPARE(run->figures.bestValLoss, row.bestValLoss);
        // Its kept weights read back as that rung, and generate text.
        Checkpoint kept = readKeptWeights(*library_, *row.runId, *row.bestStep);
        QVERIFY2(kept.config.sameArchitecture(row.config), name);
        SamplingOptions sampling;
        sampling.maxNewChars = 20;
        BatchSampler sampler(kept.model, kept.tokenizer, sampling, 1);
        const std::string text = sampler.generate(kept.tokenizer.encode(U"the ")).front();
        QVERIFY2(text.size() >= 4, name);
    }
}

void TestLadder::someRungsInTheOrderGiven() {
    LadderOptions options = quickOptions();
    options.rungs = {7, 1};
    options.steps = 10;
    const LadderReport report = trainLadder(shortText(), options);
    QCOMPARE(report.rows.size(), std::size_t(2));
    QCOMPARE(report.rows[0].rung.number, 7);
    QCOMPARE(report.rows[1].rung.number, 1);
    QVERIFY(!report.rows[0].runId);  // no library: not recorded
    options.rungs = {8};
    QVERIFY_THROWS_EXCEPTION(Error, trainLadder(shortText(), options));
}

void TestLadder::aStopEndsTheLadder() {
    // A stop ends the rung that trains, and no rung after it starts.
    LadderOptions options = quickOptions();
    options.session.control = std::make_shared<TrainerControl>();
    LadderHooks hooks;
    hooks.step = [&](const LadderRung& rung, const StepFigures& s) {
        if (rung.number == 2 && s.step == 5) options.session.control->stop();
    };
    const LadderReport report = trainLadder(shortText(), options, hooks);
    QVERIFY(report.stopped);
    QCOMPARE(report.rows.size(), std::size_t(2));
    QVERIFY(report.rows[1].reason == EndReason::Stopped);
    QCOMPARE(report.rows[1].step, int64_t(5));
}

CHARGPT_TEST_GUILESS_MAIN(TestLadder)
}  // namespace tst_ladder
#include "tst_ladder.moc"
