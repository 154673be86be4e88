// SPDX-License-Identifier: GPL-3.0-or-later
// model/generate/Filmstrip: a sample from every snapshot a run keeps, each the
// one a sample alone gives on that snapshot's weights with the same options; the
// validation loss where the run was evaluated; a damaged snapshot, or one
// holding another step's weights, skipped with its reason; a prompt the
// vocabulary has no character of refused before anything is sampled.
#include <torch/torch.h>

#include <QTemporaryDir>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

#include "model/generate/Filmstrip.h"
#include "model/io/ConfigJson.h"
#include "model/io/KeptWeightsCodec.h"
#include "model/record/RunLibrary.h"
#include "model/runtime/Error.h"
#include "model/runtime/Runtime.h"
#include "model/session/TrainingSession.h"
#include "model/text/Corpus.h"

#include "RunLibraryFixtures.h"
#include "TestProgram.h"

namespace tst_filmstripsampling {

using namespace chargpt;

namespace {

Corpus sentences() { return Corpus::fromUtf8(std::string(40, 'a') + " the cat sat on the mat.\n", "sentences"); }

SamplingOptions someOptions() {
    SamplingOptions options;
    options.maxNewChars = 30;
    options.seed = 11;
    options.temperature = 0.9;
    options.candidates = 0;
    return options;
}

// What one sample gives on the snapshot's weights from `prompt`.
std::string sampledFrom(const std::string& snapshot, const std::u32string& prompt, const SamplingOptions& options) {
    const Checkpoint checkpoint = decodeKeptWeights(snapshot);
    BatchSampler sampler(checkpoint.model, checkpoint.tokenizer, options, 1);
    return sampler.generate(checkpoint.tokenizer.encode(prompt)).front();
}

}  // namespace

class TestFilmstripSampling : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void everySnapshotIsSampledAsTheSamplerDoes();
    void refusalsAndStops();

private:
    QTemporaryDir dir_;
    std::unique_ptr<RunLibrary> library_;
    int64_t run_ = 0;
    std::string at0_, at4_;
};

void TestFilmstripSampling::initTestCase() {
    QVERIFY(initThreads(0) >= 1);
    QVERIFY(dir_.isValid());
    library_ = RunLibrary::open(dir_.filePath("runs.sqlite").toStdString());
    RunConfig config = *RunConfig::preset("tiny");
    config.max_steps = 4;
    SessionOptions options;
    options.onComputeDevice = false;
    TrainingSession session(config, sentences(), options);
    // The run's settings are the session's: its kept weights are checked against them.
    RunStart start = runlibrary_fixtures::someRun("strip");
    start.settingsJson = configToJson(session.config());
    run_ = library_->beginRun(start);
    at0_ = encodeKeptWeights(session.config(), session.tokenizer(), session.model(), 0);
    session.trainer().run();
    at4_ = encodeKeptWeights(session.config(), session.tokenizer(), session.model(), 4);
    library_->addKeptWeights(run_, 0, at0_);
    library_->addKeptWeights(run_, 2, "not a snapshot");
    library_->addKeptWeights(run_, 4, at4_);
    library_->addKeptWeights(run_, 8, at4_);  // step 4's weights kept as step 8's
    RunEvaluation evaluation;
    evaluation.step = 4;
    evaluation.trainLoss = 2.25;
    evaluation.valLoss = 2.5;
    library_->append(run_, {}, {evaluation}, RunFigures());
}

void TestFilmstripSampling::everySnapshotIsSampledAsTheSamplerDoes() {
    const std::u32string prompt = U"the \u0416cat";  // one character the vocabulary lacks
    const SamplingOptions options = someOptions();
    std::vector<std::string> heard;
    FilmstripHooks hooks;
    hooks.started = [&](const FilmstripPrompt& read) {
        heard.push_back("prompt " + read.text + " " + std::to_string(read.unknown.size()));
    };
    hooks.frame = [&](const FilmstripFrame& frame) { heard.push_back("step " + std::to_string(frame.step)); };
    const Filmstrip strip = sampleFilmstrip(*library_, run_, prompt, options, hooks);
    QVERIFY(!strip.stopped);
    QCOMPARE(strip.prompt.text, std::string("the cat"));
    QCOMPARE(strip.prompt.unknown.size(), std::size_t(1));
    QCOMPARE(strip.prompt.unknown[0].position, std::size_t(4));
    QCOMPARE(heard, (std::vector<std::string>{"prompt the cat 1", "step 0", "step 2", "step 4", "step 8"}));
    QCOMPARE(strip.frames.size(), std::size_t(4));
    QCOMPARE(strip.sampledCount(), int64_t(2));

    const FilmstripFrame& first = strip.frames[0];
    QVERIFY(first.sampled());
    QVERIFY(std::isnan(first.valLoss));
    QCOMPARE(first.text, sampledFrom(at0_, prompt, options));
    const FilmstripFrame& damaged = strip.frames[1];
    QVERIFY(!damaged.sampled());
    QVERIFY(damaged.text.empty());
    QVERIFY2(damaged.skipped.find("cannot be read") != std::string::npos, damaged.skipped.c_str());
    const FilmstripFrame& fourth = strip.frames[2];
    QVERIFY2(fourth.sampled(), fourth.skipped.c_str());
    QCOMPARE(fourth.valLoss, 2.5);
    QCOMPARE(fourth.text, sampledFrom(at4_, prompt, options));
    QVERIFY(fourth.text != first.text);
    const FilmstripFrame& misfiled = strip.frames[3];
    QVERIFY(!misfiled.sampled());
    QVERIFY2(misfiled.skipped.find("step 4") != std::string::npos, misfiled.skipped.c_str());

    // The same options give the same strip; another seed another one.
    const Filmstrip again = sampleFilmstrip(*library_, run_, prompt, options);
    QCOMPARE(again.frames[2].text, fourth.text);
    SamplingOptions reseeded = options;
    reseeded.seed = 12;
    QVERIFY(sampleFilmstrip(*library_, run_, prompt, reseeded).frames[2].text != fourth.text);
}

void TestFilmstripSampling::refusalsAndStops() {
    bool started = false;
    FilmstripHooks hooks;
    hooks.started = [&](const FilmstripPrompt&) { started = true; };
    try {
        sampleFilmstrip(*library_, run_, U"\u0416\u0416", someOptions(), hooks);
        QFAIL("a prompt without a known character was sampled");
    } catch (const Error& e) {
        QVERIFY2(std::strstr(e.what(), "no character of the prompt"), e.what());
    }
    QVERIFY(!started);

    QVERIFY(sampleFilmstrip(*library_, run_ + 100, U"", someOptions()).frames.empty());

    // Stopped after the first character: the frame in progress is dropped
    // (unless the model ended its document first), and no other is sampled.
    int asked = 0;
    FilmstripHooks stopping;
    stopping.stop = [&] { return ++asked > 1; };
    const Filmstrip stopped = sampleFilmstrip(*library_, run_, U"the ", someOptions(), stopping);
    QVERIFY(stopped.stopped);
    QVERIFY(stopped.frames.size() <= 1);
}

CHARGPT_TEST_GUILESS_MAIN(TestFilmstripSampling)
}  // namespace tst_filmstripsampling

#include "tst_filmstripsampling.moc"
