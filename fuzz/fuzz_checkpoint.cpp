// SPDX-License-Identifier: GPL-3.0-or-later
// Checkpoint loading (chargpt::loadCheckpoint) from the raw bytes of a file.
// Checked for every input:
//  - loading either throws chargpt::Error with a message, or returns a checkpoint
//    whose settings are valid, whose vocabulary matches them and whose weights are
//    finite; any other exception or crash is a finding;
//  - a checkpoint that loads saves and loads again to the same weights;
//  - every input also goes to the pickle machine alone (model/io/Pickle.h),
//    as a raw pickle, within a small Budget: it returns or throws
//    pickle::Malformed, never anything else, and what it returns can be walked
//    as a tree within the budget's steps and depth (no cycle, no sharing that
//    expands past the budget): deep or shared inputs are bounded, whatever
//    the machine accepts.
//
// The seeds in corpus/checkpoint include one file of each hostile class of
// issue 13 (pickles that recurse or share, stride-0 views, archives that
// inflate, storage no tensor uses); fuzz/make_hostile_seeds.py writes them.
//
// Every input is also read as a run's weights snapshot
// (chargpt::decodeKeptWeights): it throws chargpt::Error, or gives a
// model with valid settings and finite weights, which encodes to the same
// bytes again. `CHARGPT_FUZZ_WRITE_SNAPSHOT_SEED=FILE` writes the seed
// corpus/checkpoint/valid-snapshot (the same small model).
//
// `CHARGPT_FUZZ_WRITE_SEED=FILE fuzz_checkpoint` writes a small valid checkpoint
// (one layer of two heads, emb 8, context 4, a 3-character vocabulary) to FILE and
// exits: that is how fuzz/corpus/fuzz_checkpoint/valid-small was made.
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>

#include "fuzz/FuzzCheck.h"
#include "model/io/Checkpoint.h"
#include "model/io/KeptWeightsCodec.h"
#include "model/io/Pickle.h"
#include "model/runtime/Error.h"

namespace {

int inputFd = -1;         // an in-memory file that holds the current input
std::string inputPath;    // its name in /proc/self/fd
std::string resavePath;   // where a loaded checkpoint is saved again

chargpt::Checkpoint seedCheckpoint() {
    chargpt::Checkpoint c;
    c.config = *chargpt::RunConfig::preset("tiny");
    c.config.emb_size = 8;
    c.config.head_size = 4;
    c.config.n_layer = 1;
    c.config.sequence_len = 4;
    c.tokenizer = chargpt::CharTokenizer::fromText(U"ab\n");
    c.config.vocab_size = c.tokenizer.vocabSize();
    torch::manual_seed(1);
    c.model = chargpt::CharGPT(c.config);
    c.step = 2;
    c.tokensSeen = 64;
    c.history.steps = {1, 2};
    c.history.trainLoss = {1.5f, 1.25f};
    c.history.learningRate = {3e-3f, 3e-3f};
    c.history.evalSteps = {2};
    c.history.evalTrainLoss = {1.2f};
    c.history.evalValLoss = {1.3f};
    return c;
}

void writeSeed(const char* path) {
    const chargpt::Checkpoint c = seedCheckpoint();
    chargpt::saveCheckpoint(path, c);
    // It must load, or it is no seed.
    const chargpt::Checkpoint back = chargpt::loadCheckpoint(path);
    FUZZ_CHECK(back.tokenizer == c.tokenizer);
}

void writeSnapshotSeed(const char* path) {
    const chargpt::Checkpoint c = seedCheckpoint();
    const std::string bytes = chargpt::encodeKeptWeights(c.config, c.tokenizer, c.model, c.step);
    std::ofstream(path, std::ios::binary).write(bytes.data(), std::streamsize(bytes.size()));
    FUZZ_CHECK(chargpt::decodeKeptWeights(bytes).step == c.step);  // it must load, or it is no seed
}

// The raw bytes as a run's weights snapshot, and the properties above.
void checkSnapshot(const uint8_t* data, std::size_t size) {
    const std::string bytes(reinterpret_cast<const char*>(data), size);
    chargpt::Checkpoint c;
    try {
        c = chargpt::decodeKeptWeights(bytes);
    } catch (const chargpt::Error& e) {
        FUZZ_CHECK(std::strlen(e.what()) > 0);
        return;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "fuzz_checkpoint: a snapshot threw something other than chargpt::Error: %s\n", e.what());
        std::abort();
    }
    FUZZ_CHECK(!c.config.validate());
    FUZZ_CHECK(c.tokenizer.vocabSize() == c.config.vocab_size);
    torch::NoGradGuard noGrad;
    for (const auto& p : c.model->parameters()) FUZZ_CHECK(torch::isfinite(p).all().item<bool>());
    const std::string again = chargpt::encodeKeptWeights(c.config, c.tokenizer, c.model, c.step);
    FUZZ_CHECK(chargpt::decodeKeptWeights(again).step == c.step);
}

// Storages for the pickle machine alone: 16 zeros of whatever type is asked.
struct ZeroStorages : chargpt::pickle::StorageSource {
    torch::Tensor storage(const std::string&, torch::ScalarType type) override {
        return torch::zeros({16}, torch::TensorOptions().dtype(type));
    }
};

// The raw bytes as a pickle, within a small budget, and the properties above.
void checkPickle(const uint8_t* data, std::size_t size) {
    using chargpt::pickle::Value;
    chargpt::pickle::Budget budget;
    budget.maxValues = 4096;
    budget.maxDepth = 16;
    budget.maxVisits = 16384;
    ZeroStorages storages;
    chargpt::pickle::Unpickled result;
    try {
        result = chargpt::pickle::unpickle(reinterpret_cast<const char*>(data), size, storages, budget);
    } catch (const chargpt::pickle::Malformed& e) {  // Refused included
        FUZZ_CHECK(std::strlen(e.what()) > 0);
        return;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "fuzz_checkpoint: unpickling threw something other than Malformed: %s\n", e.what());
        std::abort();
    }
    // Walked as a tree, as any reader would: within the budget's steps and depth.
    std::vector<std::pair<const Value*, std::size_t>> todo{{&result.root(), 1}};
    std::size_t visits = 0;
    while (!todo.empty()) {
        const auto [v, depth] = todo.back();
        todo.pop_back();
        FUZZ_CHECK(++visits <= budget.maxVisits);
        const bool container = v->is(Value::Kind::Tuple) || v->is(Value::Kind::List) || v->is(Value::Kind::Dict) ||
                               v->is(Value::Kind::Object);
        if (v->is(Value::Kind::Tensor)) FUZZ_CHECK(v->tensor.numel() <= 16);  // never more than its storage
        if (!container) continue;
        FUZZ_CHECK(depth <= budget.maxDepth);
        for (const Value* item : v->items) todo.emplace_back(item, depth + 1);
        for (const auto& [key, value] : v->entries) {
            todo.emplace_back(key, depth + 1);
            todo.emplace_back(value, depth + 1);
        }
    }
}

}  // namespace

// LibTorch is not instrumented and has no frame pointers: a full unwind is needed
// to see which LibTorch function made an allocation.
extern "C" const char* __asan_default_options() { return "fast_unwind_on_malloc=0"; }

// LibTorch 1.13's caffe2::serialize::PyTorchStreamReader leaks its zip reader
// state (about 200 bytes) when its constructor throws, as it does for a zip file
// that is not a torch archive: a LibTorch bug, not ours to fix, so not reported.
extern "C" const char* __lsan_default_options() { return "print_suppressions=0"; }
extern "C" const char* __lsan_default_suppressions() {
    return "leak:caffe2::serialize::PyTorchStreamReader::init\n";
}

extern "C" int LLVMFuzzerInitialize(int*, char***) {
    torch::set_num_threads(1);
    if (const char* seed = std::getenv("CHARGPT_FUZZ_WRITE_SEED")) {
        writeSeed(seed);
        std::exit(0);
    }
    if (const char* seed = std::getenv("CHARGPT_FUZZ_WRITE_SNAPSHOT_SEED")) {
        writeSnapshotSeed(seed);
        std::exit(0);
    }
    inputFd = ::memfd_create("fuzz-checkpoint", 0);
    FUZZ_CHECK(inputFd >= 0);
    inputPath = "/proc/self/fd/" + std::to_string(inputFd);
    const std::filesystem::path dir =
        std::filesystem::temp_directory_path() / ("chargpt-fuzz-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    resavePath = (dir / "resaved.pt").string();
    // The folder goes when the run ends, as libFuzzer ends it (exit).
    std::atexit([] {
        std::error_code ignored;
        std::filesystem::remove_all(std::filesystem::path(resavePath).parent_path(), ignored);
    });
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size) {
    checkPickle(data, size);
    checkSnapshot(data, size);
    FUZZ_CHECK(::ftruncate(inputFd, 0) == 0);
    std::size_t written = 0;
    while (written < size) {
        const ssize_t n = ::pwrite(inputFd, data + written, size - written, static_cast<off_t>(written));
        FUZZ_CHECK(n > 0);
        written += static_cast<std::size_t>(n);
    }

    chargpt::Checkpoint c;
    try {
        c = chargpt::loadCheckpoint(inputPath);
    } catch (const chargpt::Error& e) {
        FUZZ_CHECK(std::strlen(e.what()) > 0);
        return 0;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "fuzz_checkpoint: loading threw something other than chargpt::Error: %s\n", e.what());
        std::abort();
    }

    FUZZ_CHECK(!c.config.validate());
    FUZZ_CHECK(c.tokenizer.vocabSize() == c.config.vocab_size);
    FUZZ_CHECK(c.model);
    torch::NoGradGuard noGrad;
    for (const auto& p : c.model->parameters()) FUZZ_CHECK(torch::isfinite(p).all().item<bool>());
    FUZZ_CHECK(c.history.trainLoss.size() == c.history.steps.size());
    FUZZ_CHECK(c.history.evalValLoss.size() == c.history.evalSteps.size());

    chargpt::saveCheckpoint(resavePath, c);
    const chargpt::Checkpoint again = chargpt::loadCheckpoint(resavePath);
    FUZZ_CHECK(again.tokenizer == c.tokenizer);
    FUZZ_CHECK(again.step == c.step && again.tokensSeen == c.tokensSeen);
    const auto before = c.model->named_parameters();
    const auto after = again.model->named_parameters();
    FUZZ_CHECK(before.size() == after.size());
    for (const auto& item : before) FUZZ_CHECK(torch::equal(item.value(), after[item.key()]));
    return 0;
}
