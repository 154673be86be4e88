// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// "Latest request wins", for a view that asks a worker thread for results
// faster than the worker answers (a probe being typed, a model that trains):
// at most one request is in flight; a request made meanwhile waits, and a newer
// one replaces it, so the worker never works through a backlog; every request
// carries a sequence number, and an answer is shown only when it answers the
// request in flight and nothing made it stale since (drop()).

#include <QtGlobal>

#include <functional>
#include <optional>
#include <utility>

template <typename Request>
class LatestRequest {
public:
    // Sends a request to the worker with its sequence number (a queued call).
    using Send = std::function<void(const Request& request, quint64 sequence)>;

    explicit LatestRequest(Send send) : send_(std::move(send)) {}

    // Sends `request` at once when none is in flight; otherwise it waits in
    // place of any request that was waiting.
    void submit(Request request) {
        if (inFlight_) {
            waiting_ = std::move(request);
            return;
        }
        dispatch(std::move(request));
    }

    // An answer (or a failure) for request `sequence` arrived. True when it is
    // the answer to the request in flight and still wanted: show it. The
    // waiting request, if any, goes out.
    bool answered(quint64 sequence) {
        if (!inFlight_ || sequence != sent_)
            return false;  // not the request in flight: stale
        inFlight_ = false;
        const bool wanted = sequence > droppedUpTo_;
        if (waiting_) {
            Request next = std::move(*waiting_);
            waiting_.reset();
            dispatch(std::move(next));
        }
        return wanted;
    }

    // Forgets the waiting request, and the answer of the one in flight will be
    // dropped (what it ran on is gone).
    void drop() {
        waiting_.reset();
        droppedUpTo_ = sent_;
    }

    // Forgets the waiting request only; the answer of the one in flight is
    // still wanted.
    void forgetWaiting() { waiting_.reset(); }

    bool inFlight() const { return inFlight_; }
    bool hasWaiting() const { return waiting_.has_value(); }
    quint64 lastSequence() const { return sent_; }

private:
    void dispatch(Request request) {
        inFlight_ = true;
        send_(request, ++sent_);
    }

    Send send_;
    std::optional<Request> waiting_;
    quint64 sent_ = 0;         // sequence number of the last request sent
    quint64 droppedUpTo_ = 0;  // answers up to this one are stale
    bool inFlight_ = false;
};
