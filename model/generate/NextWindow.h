// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

#include "model/nn/kernels/Decoder.h"

namespace chargpt {

// The window that follows a sample's current one, decoded on a thread of its
// own while the sample's characters come.
//
// Positions are absolute, so when the window moves by half (it is full) every
// cached key is stale and the half it keeps must go through the network again
// at its new positions: a refill of 32 positions for the book's model, which
// one sample waited for every 32 characters (a fifth of its time). Those
// tokens are known one by one before the move: each character of the second
// half of a window is a position of the next. So they are handed to this
// object as they come, and its thread feeds them to a decoder of the same
// weights, half of those still to come at a time (its rows share each read
// of the weights; the last feeds are short, so that the thread is done about
// when the window moves), on the other core while the sample's own steps run
// on theirs. When the window moves the sample takes that cache and gives
// back its own, emptied, for the window after.
//
// Between its feeds the thread helps the sample's own steps: it takes blocks
// of their products and groups of their attention (Decoder::shareWith), so
// that one sample's step runs on both cores while the window refill is rare.
//
// A row of the decoder is computed by the same operations in the same order
// however its positions are fed (Decoder::feed), and whichever thread
// computes its parts, so the sample's scores are the same bits as with a
// refill on one thread.
class NextWindow {
public:
    // Starts the thread; its decoder shares `current`'s weights (one stream)
    // and runs on that thread alone. `length`: the tokens of a window it is
    // handed (all but the window's last, which the sample feeds itself). The
    // thread helps `current`'s passes (Decoder::shareWith) until this object
    // is destroyed; after that `current` runs them alone.
    NextWindow(Decoder& current, int64_t length);
    ~NextWindow();  // waits for the feed under way, if any
    NextWindow(const NextWindow&) = delete;
    NextWindow& operator=(const NextWindow&) = delete;

    // The next window's tokens, in order (the first is its position 0).
    void add(const int64_t* tokens, int64_t n);
    // How many have been added since the window began (read by the thread
    // that adds them, their only writer).
    int64_t added() const { return int64_t(tokens_.size()); }
    // Waits until the tokens handed to the thread are in the next window's
    // cache, then swaps caches with `current` (its one stream): `current`
    // holds the next window, and this object, emptied, the window after.
    // Added tokens the thread was not handed yet are left out: current.length()
    // says where the sample's own feed starts. Throws what feeding them threw.
    void swapInto(Decoder& current);
    // Waits for the feed under way, if any, and empties the next window.
    void restart();

private:
    void run();
    // Polls for tokens to feed, helping the sample's steps meanwhile, until
    // there are some, it is stopped or no step came for a while: then true
    // when there is something to do.
    bool poll();
    // Waits until the thread has fed every token handed to it (mutex_ held),
    // then throws what feeding them threw.
    void waitUntilFed(std::unique_lock<std::mutex>& lock);
    // Forgets the next window (mutex_ held, the thread idle).
    void empty();

    const std::size_t length_;
    std::mutex mutex_;
    std::condition_variable work_, done_;
    Decoder decoder_;                       // the thread's while fed_ < handed_
    std::vector<int64_t> tokens_;           // added since the window began (written under mutex_)
    std::atomic<std::size_t> fed_{0};       // tokens_[0, fed_) are in decoder_'s cache ...
    std::atomic<std::size_t> handed_{0};    // ... and [fed_, handed_) the thread's to feed
    std::exception_ptr failure_;            // under mutex_
    std::atomic<bool> stop_{false};
    bool asleep_ = false;                  // the thread waits on work_ (under mutex_)
    bool wake_ = false;                    // a step came while it slept (under mutex_)
    std::shared_ptr<SharedWork> helping_;  // shared with the sample's decoder, which may move
    std::thread thread_;  // last: it starts once the rest is made
};

}  // namespace chargpt
