// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <atomic>
#include <cstdint>

namespace chargpt {

// The units of one job (the blocks of a product, the groups of a step's
// attention) handed between the thread that posts it and one helper thread
// that polls for it while it has nothing of its own to do: one sample's step
// takes its second core this way (Decoder::shareWith, NextWindow).
//
// The poster computes the first half of the units, the helper the second
// half if it claims it first (else the poster does). Either thread computes a
// unit by the same operations: what a job computes does not depend on who
// helped. The poster never waits for a helper that is busy elsewhere: it
// waits only for a half the helper claimed, which it is computing.
class SharedWork {
public:
    using Unit = void (*)(const void* job, int64_t unit);

    SharedWork() = default;
    SharedWork(const SharedWork&) = delete;
    SharedWork& operator=(const SharedWork&) = delete;

    // Runs unit(job, u) for u = 0 .. units-1, on this thread and the helper's,
    // and returns when all are done. One thread posts at a time; `job` lives
    // until this returns.
    void run(Unit unit, const void* job, int64_t units);
    // On the helper's thread: computes the second half of the job under
    // way, if any and still unclaimed. Returns whether a job was posted since
    // the last call (the poster is busy, so the helper should keep polling).
    bool help();

private:
    // The job number (high 32 bits), its count of units (16) and whether
    // its second half is claimed (bit 0).
    alignas(64) std::atomic<uint64_t> state_{0};
    alignas(64) std::atomic<Unit> unit_{nullptr};
    std::atomic<const void*> job_{nullptr};
    alignas(64) std::atomic<uint64_t> done_{0};  // the last job whose second half the helper computed
    uint64_t posted_ = 0;                        // the poster's
    uint64_t seen_ = 0;                          // the helper's
};

}  // namespace chargpt
