// SPDX-License-Identifier: GPL-3.0-or-later
// The run library's reader (model/record/RunLibrary.h) from the raw bytes of a
// SQLite file put where the library lives. Checked for every input:
//  - opening either throws chargpt::Error with a message, or returns a library
//    (the file used as it is, or set aside with a sentence that says so and a
//    new one started);
//  - the listing, each listed run, its points and evaluations and the fields of
//    its settings are read within the library's budgets: at most
//    kMaxListedRuns runs and kMaxListedBytes of their text, at most
//    kMaxReadPoints points and evaluations, every step in 0..kMaxStep, every
//    point's loss finite, each step once and increasing; any read may throw chargpt::Error
//    (a damaged page), nothing else;
//  - any other exception, a crash, a leak, a sanitizer report or an input that
//    takes past -timeout or -rss_limit_mb is a finding.
//
// The seeds in corpus/runlibrary are small libraries (512-byte pages) written
// by fuzz/make_runlibrary_seeds.py from the schema in RunLibrarySchema.cpp: an
// empty one, one with runs, and hostile ones (a CHECK constraint, a generated
// column, steps and losses out of range, our id without a version), and
// found-* inputs that once failed a check.
#include <unistd.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "fuzz/FuzzCheck.h"
#include "model/record/RunLibrary.h"
#include "model/runtime/Error.h"

namespace {

namespace fs = std::filesystem;

// A folder of this process's own, in memory where there is /dev/shm.
const fs::path& folder() {
    static const fs::path made = [] {
        std::string base = fs::is_directory("/dev/shm") ? "/dev/shm" : fs::temp_directory_path().string();
        std::string pattern = base + "/fuzz_runlibrary-XXXXXX";
        if (!::mkdtemp(pattern.data())) std::abort();
        return fs::path(pattern);
    }();
    return made;
}

void readEverything(chargpt::RunLibrary& library) {
    using chargpt::RunLibrary;
    std::string leftOut;
    const auto runs = library.runs(&leftOut);
    FUZZ_CHECK(runs.size() <= std::size_t(RunLibrary::kMaxListedRuns));
    int64_t bytes = 0;
    for (const auto& r : runs) {
        bytes += int64_t(r.start.settingsJson.size() + r.start.name.size());
        FUZZ_CHECK(r.figures.step >= 0 && r.figures.step <= RunLibrary::kMaxStep);
        FUZZ_CHECK(!r.figures.bestStep || (*r.figures.bestStep >= 0 && *r.figures.bestStep <= RunLibrary::kMaxStep));
        FUZZ_CHECK(!std::isinf(r.figures.elapsedSeconds) && !std::isinf(r.figures.lastTrainLoss));
        (void)chargpt::settingsFields(r.start.settingsJson);
    }
    FUZZ_CHECK(bytes <= RunLibrary::kMaxListedBytes);
    std::size_t looked = 0;
    for (const auto& r : runs) {
        if (++looked > 8) break;
        (void)library.run(r.id);
        const auto points = library.points(r.id);
        FUZZ_CHECK(int64_t(points.size()) <= RunLibrary::kMaxReadPoints);
        for (std::size_t i = 0; i < points.size(); ++i) {
            FUZZ_CHECK(points[i].step >= 0 && points[i].step <= RunLibrary::kMaxStep);
            FUZZ_CHECK(std::isfinite(points[i].loss));
            FUZZ_CHECK(i == 0 || points[i].step > points[i - 1].step);
        }
        const auto evaluations = library.evaluations(r.id);
        FUZZ_CHECK(int64_t(evaluations.size()) <= RunLibrary::kMaxReadPoints);
        for (std::size_t i = 0; i < evaluations.size(); ++i) {
            FUZZ_CHECK(evaluations[i].step >= 0 && evaluations[i].step <= RunLibrary::kMaxStep);
            FUZZ_CHECK(i == 0 || evaluations[i].step > evaluations[i - 1].step);
        }
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const fs::path file = folder() / "runs.sqlite";
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(folder(), ec)) fs::remove(entry.path(), ec);
    {
        std::ofstream out(file, std::ios::binary);
        out.write(reinterpret_cast<const char*>(data), std::streamsize(size));
        if (!out) std::abort();
    }
    try {
        std::string setAside;
        auto library = chargpt::RunLibrary::open(file.string(), &setAside);
        FUZZ_CHECK(library);
        readEverything(*library);
    } catch (const chargpt::Error& e) {
        FUZZ_CHECK(e.what()[0] != '\0');
    }
    return 0;
}
