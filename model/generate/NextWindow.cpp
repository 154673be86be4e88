// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/generate/NextWindow.h"

#include <algorithm>
#include <chrono>
#include <utility>

#if defined(__x86_64__) && !defined(CHARGPT_PORTABLE)
#include <immintrin.h>
#endif

namespace chargpt {

namespace {

// Polls `done` for up to `budget`: near a window's end the tokens come a step
// apart (under 0.1 ms), and a thread asleep on a condition variable takes
// about as long again to wake on this kind of virtual machine.
template <typename Done>
bool spinUntil(Done done, std::chrono::microseconds budget) {
    const auto end = std::chrono::steady_clock::now() + budget;
    for (int i = 0;; ++i) {
        if (done()) return true;
        if (i % 64 == 63 && std::chrono::steady_clock::now() >= end) return false;
#if defined(__x86_64__) && !defined(CHARGPT_PORTABLE)
        _mm_pause();
#endif
    }
}

constexpr std::chrono::microseconds kSpin{200};

}  // namespace

NextWindow::NextWindow(Decoder& current, int64_t length)
    : length_(std::size_t(std::max<int64_t>(length, 1))),
      decoder_(current, 1, Decoder::Threads::Caller),
      helping_(std::make_shared<SharedWork>()),
      thread_([this] { run(); }) {
    current.shareWith(helping_);
}

NextWindow::~NextWindow() {
    // The sample's decoder keeps helping_: with no thread to claim a half,
    // it computes every job itself.
    {
        std::lock_guard<std::mutex> lock(mutex_);
        stop_ = true;
    }
    work_.notify_one();
    thread_.join();
}

void NextWindow::add(const int64_t* tokens, int64_t n) {
    if (n <= 0) return;
    bool ready;
    {
        std::lock_guard<std::mutex> lock(mutex_);
        tokens_.insert(tokens_.end(), tokens, tokens + n);
        // Half of what is still to come at a time, down to one: the feed
        // handed with the last token is short, and done about when the
        // window moves.
        const std::size_t handed = handed_.load(std::memory_order_relaxed);
        const std::size_t toCome = length_ > handed ? length_ - handed : 1;
        ready = tokens_.size() - handed >= std::max<std::size_t>(1, toCome / 2);
        if (ready) handed_.store(tokens_.size(), std::memory_order_release);
        // The sample steps again: a sleeping thread wakes to help.
        if (asleep_) ready = wake_ = true;
    }
    if (ready) work_.notify_one();
}

void NextWindow::waitUntilFed(std::unique_lock<std::mutex>& lock) {
    const std::size_t handed = handed_.load(std::memory_order_relaxed);  // only this thread writes it
    lock.unlock();
    spinUntil([&] { return fed_.load(std::memory_order_acquire) == handed; }, kSpin);
    lock.lock();
    done_.wait(lock, [&] { return fed_.load(std::memory_order_relaxed) == handed; });
    const std::exception_ptr failure = std::exchange(failure_, nullptr);
    if (failure) {
        empty();
        std::rethrow_exception(failure);
    }
}

void NextWindow::empty() {
    decoder_.reset();
    tokens_.clear();
    fed_.store(0, std::memory_order_relaxed);
    handed_.store(0, std::memory_order_relaxed);
}

void NextWindow::swapInto(Decoder& current) {
    std::unique_lock<std::mutex> lock(mutex_);
    waitUntilFed(lock);
    current.swapCache(decoder_);
    empty();
}

void NextWindow::restart() {
    std::unique_lock<std::mutex> lock(mutex_);
    waitUntilFed(lock);
    empty();
}

bool NextWindow::poll() {
    auto busy = [&] {
        return stop_.load(std::memory_order_relaxed) ||
               fed_.load(std::memory_order_relaxed) < handed_.load(std::memory_order_acquire);
    };
    // While the sample steps (a job posted since the last look) the thread
    // keeps helping; kSpin after its last step it goes to sleep.
    auto last = std::chrono::steady_clock::now();
    for (int i = 0;; ++i) {
        if (busy()) return true;
        if (helping_->help()) {
            last = std::chrono::steady_clock::now();
            i = 0;
        } else if (i % 64 == 63 && std::chrono::steady_clock::now() - last >= kSpin) {
            return false;
        }
#if defined(__x86_64__) && !defined(CHARGPT_PORTABLE)
        _mm_pause();
#endif
    }
}

void NextWindow::run() {
    for (;;) {
        const bool work = poll();
        std::unique_lock<std::mutex> lock(mutex_);
        if (!work) {
            asleep_ = true;
            work_.wait(lock, [&] {
                return stop_ || wake_ ||
                       fed_.load(std::memory_order_relaxed) < handed_.load(std::memory_order_relaxed);
            });
            asleep_ = wake_ = false;
        }
        if (stop_) return;
        if (fed_.load(std::memory_order_relaxed) == handed_.load(std::memory_order_relaxed))
            continue;  // woken to help
        // All that was handed since the last feed, in one feed (its rows share each read of the weights).
        const std::size_t from = fed_.load(std::memory_order_relaxed), to = handed_.load(std::memory_order_relaxed);
        const std::vector<int64_t> batch(tokens_.begin() + std::ptrdiff_t(from), tokens_.begin() + std::ptrdiff_t(to));
        lock.unlock();
        std::exception_ptr failure;
        try {
            decoder_.feed(0, batch.data(), int64_t(batch.size()));
        } catch (...) {
            failure = std::current_exception();
        }
        lock.lock();
        // Moved, not copied: the exception is then the sample's thread's
        // alone. A copy kept here was dropped after that thread had released
        // it, freeing it there with no order between the two that
        // ThreadSanitizer could see (libstdc++ counts the references in code
        // it does not instrument).
        if (failure && !failure_) failure_ = std::move(failure);
        fed_.store(to, std::memory_order_release);
        lock.unlock();
        done_.notify_all();
    }
}

}  // namespace chargpt
