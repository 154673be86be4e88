// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <atomic>
#include <chrono>
#include <thread>

#if defined(__x86_64__) && !defined(CHARGPT_PORTABLE)
#include <immintrin.h>
#endif

namespace chargpt {

// Where the threads of one pass meet between its steps: wait() returns once
// all `threads` have called it, and everything a thread wrote before its
// wait() is seen by every thread after theirs. Cheaper than an OpenMP region
// per step (3 us each on 2 cores). A waiting thread spins some microseconds,
// then gives up its core at each check (a busy machine, where another thread
// of the pass is not running), then sleeps in short naps.
class Rendezvous {
public:
    explicit Rendezvous(int threads) : threads_(threads) {}
    Rendezvous(const Rendezvous&) = delete;
    Rendezvous& operator=(const Rendezvous&) = delete;

    void wait() {
        const unsigned round = round_.load(std::memory_order_relaxed);
        if (arrived_.fetch_add(1, std::memory_order_acq_rel) + 1 == threads_) {
            arrived_.store(0, std::memory_order_relaxed);
            round_.store(round + 1, std::memory_order_release);
            return;
        }
        for (long checks = 0; round_.load(std::memory_order_acquire) == round; ++checks) {
            if (checks < kSpins) {
#if defined(__x86_64__) && !defined(CHARGPT_PORTABLE)
                _mm_pause();
#endif
            } else if (checks < kSpins + kYields) {
                std::this_thread::yield();
            } else {
                std::this_thread::sleep_for(std::chrono::microseconds(50));
            }
        }
    }

private:
    static constexpr long kSpins = 20000;  // some tens of microseconds
    static constexpr long kYields = 1000;
    const int threads_;
    alignas(64) std::atomic<int> arrived_{0};
    alignas(64) std::atomic<unsigned> round_{0};
};

}  // namespace chargpt
