// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/nn/kernels/SharedWork.h"

#include <thread>

#if defined(__x86_64__) && !defined(CHARGPT_PORTABLE)
#include <immintrin.h>
#endif

namespace chargpt {

namespace {
// The state: the job number (high 32 bits), its count of units (16) and
// whether its second half is claimed (bit 0).
constexpr uint64_t kClaimed = 1;
uint64_t unitsOf(uint64_t s) { return (s >> 16) & 0xFFFFu; }
constexpr int kSpins = 4000;  // some tens of microseconds

void pause() {
#if defined(__x86_64__) && !defined(CHARGPT_PORTABLE)
    _mm_pause();
#endif
}
}  // namespace

void SharedWork::run(Unit unit, const void* job, int64_t units) {
    if (units <= 1 || units > 0xFFFF) {
        for (int64_t u = 0; u < units; ++u) unit(job, u);
        return;
    }
    // The job's fields first; the release store of the state publishes them
    // (and the inputs the units read) to a helper that claims the second half.
    // The count of units is in the state itself, so a helper that read the
    // state of the job before and then this job's fields claims nothing: that
    // state has changed.
    unit_.store(unit, std::memory_order_relaxed);
    job_.store(job, std::memory_order_relaxed);
    posted_ = (posted_ + 1) & 0xFFFFFFFFu;
    if (posted_ == 0) posted_ = 1;  // job 0 is "none"
    uint64_t s = posted_ << 32 | uint64_t(units) << 16;
    state_.store(s, std::memory_order_release);
    // The first half here; the second half too unless the helper claimed it.
    // Two claims a job (one each side) rather than one a unit: every claim
    // moves the state's cache line between the cores.
    const int64_t half = units / 2;
    for (int64_t u = 0; u < half; ++u) unit(job, u);
    if (state_.compare_exchange_strong(s, s | kClaimed, std::memory_order_acq_rel,
                                       std::memory_order_acquire)) {
        for (int64_t u = half; u < units; ++u) unit(job, u);
        return;
    }
    // The helper is computing the second half (microseconds). Past that, its
    // thread was preempted by other work on the machine: yield the core to it.
    for (int checks = 0; done_.load(std::memory_order_acquire) != posted_; ++checks) {
        if (checks < kSpins)
            pause();
        else
            std::this_thread::yield();
    }
}

bool SharedWork::help() {
    uint64_t s = state_.load(std::memory_order_acquire);
    const uint64_t number = s >> 32;
    if (number == 0 || number == seen_) return false;
    seen_ = number;
    if (s & kClaimed) return true;
    // Fields of this job, or of a later one if the poster has moved on: then
    // the state has changed and the claim fails.
    const Unit unit = unit_.load(std::memory_order_relaxed);
    const void* job = job_.load(std::memory_order_relaxed);
    if (!state_.compare_exchange_strong(s, s | kClaimed, std::memory_order_acq_rel,
                                        std::memory_order_acquire))
        return true;
    // Claimed while the job was under way (its second half unclaimed): the
    // poster waits for it before it posts another job, so the fields read
    // before the claim are this job's.
    const int64_t units = int64_t(unitsOf(s));
    for (int64_t u = units / 2; u < units; ++u) unit(job, u);
    done_.store(number, std::memory_order_release);
    return true;
}

}  // namespace chargpt
