// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstdint>
#include <limits>
#include <memory>
#include <vector>

#include "model/nn/CharGPT.h"
#include "model/nn/kernels/DecoderMath.h"
#include "model/nn/kernels/SharedWork.h"
#include "model/runtime/Rendezvous.h"

namespace chargpt {

// The decoding kernel behind generation: on the CPU, one character at a time,
// for one sequence or several decoded together (streams). It computes what
// CharGPT::forward computes with a key/value cache (ForwardOptions::cache):
// LayerNorm, q/k/v, causal attention over the cached keys and values,
// projection, GELU feed-forward, final LayerNorm and head, in plain loops over
// a copy of the weights (DecoderMath.h). The model is defined by
// CharGPT::forward alone; this is its fast path for a few positions, as the
// fused kernels beside it are for training, and tst_sampler and tst_decoder
// check it against the forward. Through LibTorch a position costs about 35
// operator calls per layer, whose overhead made generation about 3.7 times
// slower (docs/ARCHITECTURE.md).
//
// A character costs one read of every weight; streams stepped together share
// that read, so N samples cost far less than N times one. The weights are kept
// in fp32, or in bf16 for a model that trains in bf16 (half the bytes to read;
// the matrix products then multiply in bf16, as autocast's do, and sum in
// fp32: decoding::linear).
class Decoder {
public:
    enum class Weights { Fp32, Bf16 };
    // Where its passes run: on the intra-op threads (two where there are
    // two), or only on the thread that feeds it (a decoder fed from a thread
    // of its own, beside another decoder).
    enum class Threads { Intraop, Caller };

    // True when the model's weights are fp32 on the CPU, it has every part
    // and the book's arithmetic (a rung of the ladder, or a model imported
    // from nanoGPT, minGPT or the lecture, goes through the forward's cached path).
    static bool supports(const CharGPT& model);
    // Copies the weights (later training of `model` does not change this
    // decoder), with a cache for `streams` sequences.
    explicit Decoder(const CharGPT& model, int64_t streams = 1, Weights weights = Weights::Fp32,
                     Threads threads = Threads::Intraop);
    // A decoder of `other`'s weights (shared, not copied: they never change)
    // with a cache of its own for `streams` sequences. Decoders of the same
    // weights may be fed at once from different threads; one decoder is fed
    // from one thread at a time.
    Decoder(const Decoder& other, int64_t streams, Threads threads);

    Weights weights() const { return weights_; }
    int64_t streams() const { return streams_; }
    // Forgets every cached position of one stream.
    void reset(int64_t stream = 0) { lengths_.at(std::size_t(stream)) = 0; }
    // Exchanges every stream's cached positions with `other`, a decoder of the
    // same weights (made from this one, or this one from it) and streams.
    void swapCache(Decoder& other);
    // Positions in a stream's cache.
    int64_t length(int64_t stream = 0) const { return lengths_.at(std::size_t(stream)); }
    int64_t capacity() const { return S_; }
    int64_t vocabSize() const { return V_; }

    // Tokens for one stream's next positions.
    struct Feed {
        int64_t stream = 0;
        const int64_t* tokens = nullptr;
        int64_t n = 0;  // >= 1, with length(stream) + n <= capacity()
    };
    // Feeds each stream its tokens (every stream at most once) and returns,
    // for each feed in order, the logits of the character after its last
    // token: count rows of vocabSize() floats, valid until the next call. The
    // streams share each read of the weights (two halves of them on two
    // threads where there are two), and each row equals bit for bit what that
    // stream alone gets, whether its positions come in one feed or several.
    // Refilling a cache after its window moves costs far less than its
    // tokens fed one by one.
    const float* feed(const Feed* feeds, int64_t count);
    // One stream: feed(&Feed{stream, tokens, n}, 1).
    const float* feed(int64_t stream, const int64_t* tokens, int64_t n);
    const float* feed(const int64_t* tokens, int64_t n) { return feed(0, tokens, n); }
    const float* step(int64_t token) { return feed(0, &token, 1); }
    // A thread that helps this decoder's passes (Threads::Caller) with their
    // products and attention while it has nothing else to do (SharedWork),
    // or none (nullptr). A row is computed by the same operations whoever
    // computes its parts, so the logits are the same bits.
    void shareWith(std::shared_ptr<SharedWork> helper) { helper_ = std::move(helper); }
    // One feed of at least this many positions is shared by two threads
    // where there are two, each taking part of its rows through the network.
    static constexpr int64_t kRowsToShare = 8;

private:
    struct Row {
        int64_t stream, position, token;
    };
    std::vector<Row> rowsOf(const Feed* feeds, int64_t count) const;
    struct Layer {
        std::vector<float> ln1w, ln1b, ln2w, ln2b;
        decoding::PackedLinear qkv, proj, ff1, ff2;
    };
    // What the model's weights become, read-only once made.
    struct Network {
        std::vector<float> tokenEmb, posEmb, lnw, lnb;
        decoding::PackedLinear lm;
        std::vector<Layer> layers;
    };
    // A layer's cache: (streams, heads, H, padded(S)): the keys transposed,
    // the values as (padded(S), H) rows, as attendMany reads them; in bf16
    // (rounded as a bf16 product's results are) for Weights::Bf16.
    struct LayerCache {
        std::vector<float> keys, values;
        std::vector<uint16_t> keys16, values16;
    };
    // Every layer's cache for streams_ sequences, empty.
    void makeCache();
    // Buffers for the rows of one pass.
    struct Scratch {
        std::vector<float> x, h, qkv, att, hidden, scores, logits;
        void reserve(int64_t rows, int64_t Cp, int64_t C3p, int64_t C4p, int64_t Vp, int64_t Sp);
    };
    // A thread's share of a pass: rows [first, last) of it, and where it
    // meets the other threads of the pass (none: the pass is its alone).
    struct Share {
        int64_t first = 0, last = 0;
        Rendezvous* rendezvous = nullptr;
        // Every row of the pass, alone.
        static Share whole() { return {0, std::numeric_limits<int64_t>::max(), nullptr}; }
        void meet() const {
            if (rendezvous) rendezvous->wait();
        }
    };
    // Runs the tokens of some feeds through the network, rows of a stream in
    // order; the logits after each feed's last token go to logitsOut (count *
    // vocabSize() floats). The threads of one pass share `scratch`, each
    // writing its own rows, and each has its own scores in `own`.
    void runFeeds(const Feed* feeds, int64_t count, Scratch& scratch, Scratch& own, const Share& share,
                  float* logitsOut);
    // Where one feed of many rows is split between two threads: the first
    // part's rows, about half of its work.
    int64_t splitOf(const Feed& feed) const;
    // decoding::linear for M rows, its blocks shared with helper_ in a pass of one thread.
    void product(const decoding::PackedLinear& layer, const float* X, int64_t ldx, float* Y, int64_t ldy,
                 int64_t M, bool alone) const;
    // decoding::attendMany of n items, their groups shared likewise.
    template <typename E>
    void attend(const decoding::Attend<E>* items, int64_t n, float* scores, bool alone) const;
    void checkToken(int64_t token) const;

    Weights weights_ = Weights::Fp32;
    Threads threads_ = Threads::Intraop;
    int64_t C_ = 0, H_ = 0, nh_ = 0, S_ = 0, V_ = 0, streams_ = 1;
    int64_t Cp_ = 0, C3p_ = 0, C4p_ = 0, Vp_ = 0, Sp_ = 0;  // padded widths
    float scale_ = 1.0f;
    std::shared_ptr<const Network> net_;
    std::shared_ptr<SharedWork> helper_;
    std::vector<LayerCache> caches_;  // one per layer
    std::vector<int64_t> lengths_;
    Scratch parts_[2];  // one per half of the streams stepped together
    std::vector<float> logits_;
};

}  // namespace chargpt
