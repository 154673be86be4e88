// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/nn/kernels/Decoder.h"

#include <ATen/Parallel.h>

#include <algorithm>
#include <cmath>

#include "model/runtime/Error.h"

namespace chargpt {

namespace {

using decoding::padded;
using decoding::PackedLinear;

std::vector<float> copyOf(const torch::Tensor& t) {
    auto c = t.detach().to(torch::kCPU, torch::kFloat32).contiguous();
    return std::vector<float>(c.data_ptr<float>(), c.data_ptr<float>() + c.numel());
}

PackedLinear packedOf(const torch::nn::Linear& linear, bool bf16) {
    // Packed straight from the model's own fp32 weights (no copy of them first).
    const auto w = linear->weight.detach().to(torch::kCPU, torch::kFloat32).contiguous();
    const auto b = linear->bias.defined() ? linear->bias.detach().to(torch::kCPU, torch::kFloat32).contiguous()
                                          : torch::Tensor();
    return PackedLinear::pack(w.data_ptr<float>(), b.defined() ? b.data_ptr<float>() : nullptr, w.size(0), w.size(1),
                              bf16);
}

}  // namespace

bool Decoder::supports(const CharGPT& model) {
    const auto& w = model->token_emb->weight;
    // A rung of the ladder, or an imported model whose arithmetic is not the
    // book's (ModelConfig::isBookArithmetic): the forward's cached path decodes it.
    if (!model->config().isFull() || !model->config().isBookArithmetic()) return false;
    return w.device().is_cpu() && w.scalar_type() == torch::kFloat32;
}

Decoder::Decoder(const CharGPT& model, int64_t streams, Weights weights, Threads threads)
    : weights_(weights), threads_(threads) {
    if (!supports(model)) throw Error("the decoder needs an fp32 model on the CPU.");
    if (streams < 1) throw Error("the decoder needs at least one stream.");
    const ModelConfig& c = model->config();
    const bool bf16 = weights == Weights::Bf16;
    C_ = c.emb_size;
    H_ = c.head_size;
    nh_ = c.n_head();
    S_ = c.sequence_len;
    V_ = c.vocab_size;
    streams_ = streams;
    Cp_ = padded(C_);
    C3p_ = padded(3 * C_);
    C4p_ = padded(4 * C_);
    Vp_ = padded(V_);
    Sp_ = padded(S_);
    scale_ = static_cast<float>(1.0 / std::sqrt(double(H_)));
    auto net = std::make_shared<Network>();
    net->tokenEmb = copyOf(model->token_emb->weight);
    net->posEmb = copyOf(model->pos_emb->weight);
    net->lnw = copyOf(model->l->weight);
    net->lnb = copyOf(model->l->bias);
    net->lm = packedOf(model->lm, bf16);
    for (const auto& module : *model->blocks) {
        const auto* block = module->as<BlockImpl>();
        Layer layer;
        layer.ln1w = copyOf(block->l1->weight);
        layer.ln1b = copyOf(block->l1->bias);
        layer.qkv = packedOf(block->mha->qkv, bf16);
        layer.proj = packedOf(block->mha->proj, bf16);
        layer.ln2w = copyOf(block->l2->weight);
        layer.ln2b = copyOf(block->l2->bias);
        layer.ff1 = packedOf(block->ff->ln1, bf16);
        layer.ff2 = packedOf(block->ff->ln2, bf16);
        net->layers.push_back(std::move(layer));
    }
    net_ = std::move(net);
    makeCache();
}

Decoder::Decoder(const Decoder& other, int64_t streams, Threads threads)
    : weights_(other.weights_), threads_(threads), C_(other.C_), H_(other.H_), nh_(other.nh_), S_(other.S_),
      V_(other.V_), streams_(streams), Cp_(other.Cp_), C3p_(other.C3p_), C4p_(other.C4p_), Vp_(other.Vp_),
      Sp_(other.Sp_), scale_(other.scale_), net_(other.net_) {
    if (streams < 1) throw Error("the decoder needs at least one stream.");
    makeCache();
}

void Decoder::makeCache() {
    const std::size_t cache = std::size_t(streams_ * nh_ * H_ * Sp_);
    caches_.assign(net_->layers.size(), LayerCache{});
    for (LayerCache& layer : caches_) {
        if (weights_ == Weights::Bf16) {
            layer.keys16.assign(cache, 0);
            layer.values16.assign(cache, 0);
        } else {
            layer.keys.assign(cache, 0.0f);
            layer.values.assign(cache, 0.0f);
        }
    }
    lengths_.assign(std::size_t(streams_), 0);
}

void Decoder::swapCache(Decoder& other) {
    if (other.net_ != net_ || other.streams_ != streams_)
        throw Error("a decoder's cache can only go to a decoder of the same weights and streams.");
    caches_.swap(other.caches_);
    lengths_.swap(other.lengths_);
}

void Decoder::Scratch::reserve(int64_t rows, int64_t Cp, int64_t C3p, int64_t C4p, int64_t Vp, int64_t Sp) {
    if (int64_t(x.size()) >= rows * Cp) return;
    x.assign(std::size_t(rows * Cp), 0.0f);
    h.assign(std::size_t(rows * Cp), 0.0f);
    att.assign(std::size_t(rows * Cp), 0.0f);
    qkv.assign(std::size_t(rows * C3p), 0.0f);
    hidden.assign(std::size_t(rows * C4p), 0.0f);
    logits.assign(std::size_t(rows * Vp), 0.0f);
    scores.assign(std::size_t(decoding::kAttendTogether * Sp), 0.0f);
}

const float* Decoder::feed(int64_t stream, const int64_t* tokens, int64_t n) {
    const Feed one{stream, tokens, n};
    return feed(&one, 1);
}

const float* Decoder::feed(const Feed* feeds, int64_t count) {
    if (count < 1) throw Error("the decoder was fed no characters.");
    std::vector<bool> seen(std::size_t(streams_), false);
    int64_t rows = 0;
    for (int64_t i = 0; i < count; ++i) {
        const Feed& f = feeds[i];
        if (f.stream < 0 || f.stream >= streams_ || seen[std::size_t(f.stream)])
            throw Error("the decoder has no such stream.");
        seen[std::size_t(f.stream)] = true;
        if (f.n < 1) throw Error("the decoder was fed no characters.");
        if (lengths_[std::size_t(f.stream)] + f.n > S_) throw Error("the decoder's context is full.");
        for (int64_t t = 0; t < f.n; ++t) checkToken(f.tokens[t]);
        rows += f.n;
    }
    logits_.resize(std::size_t(count * V_));
    const bool twoThreads = threads_ == Threads::Intraop && at::get_num_threads() >= 2;
    if (count == 1 && twoThreads && feeds[0].n >= kRowsToShare) {
        // One feed of many positions (a refill; the exact window refills its
        // whole window at every character): each of two threads takes part
        // of the rows through the network. They meet once a layer, when every
        // row's keys and values are in the cache, for the attention reads
        // the earlier rows; the rest of a row's work is its own.
        Rendezvous meet(2);
        const int64_t split = splitOf(feeds[0]);
        parts_[0].reserve(rows, Cp_, C3p_, C4p_, Vp_, Sp_);
        parts_[1].reserve(rows, Cp_, C3p_, C4p_, Vp_, Sp_);
        at::parallel_for(0, 2, 1, [&](int64_t begin, int64_t end) {
            // Inside another parallel region one thread gets both halves: the whole pass, alone.
            const Share share = end - begin == 2 ? Share::whole()
                                                 : begin == 0 ? Share{0, split, &meet} : Share{split, rows, &meet};
            runFeeds(feeds, count, parts_[0], parts_[std::size_t(begin)], share, logits_.data());
        });
        return logits_.data();
    }
    if (count < 2 || !twoThreads) {
        // One step of one feed on one thread: split between two intra-op
        // threads that met 37 times a step, its pass took a fifth longer on
        // a 2-core machine (docs/PERFORMANCE.md). A helper thread that is
        // idle anyway (shareWith) takes half of each product and attention
        // when it is free, and the pass never waits for it otherwise.
        runFeeds(feeds, count, parts_[0], parts_[0], Share::whole(), logits_.data());
        return logits_.data();
    }
    // The streams are independent: two parts of about as many rows go
    // through the network at once, on two threads.
    int64_t split = 0;
    for (int64_t acc = 0; split < count && 2 * (acc + feeds[split].n) <= rows; ++split) acc += feeds[split].n;
    split = std::max<int64_t>(split, 1);
    at::parallel_for(0, 2, 1, [&](int64_t begin, int64_t end) {
        for (int64_t part = begin; part < end; ++part) {
            const int64_t first = part == 0 ? 0 : split, n = part == 0 ? split : count - split;
            if (n > 0)
                runFeeds(feeds + first, n, parts_[std::size_t(part)], parts_[std::size_t(part)], Share::whole(),
                         logits_.data() + first * V_);
        }
    });
    return logits_.data();
}

int64_t Decoder::splitOf(const Feed& feed) const {
    // Parts of about equal work: a row's attention reads every earlier
    // position, so later rows cost more. Profiled on the book's model (16
    // heads of 8), a position's attention costs about 2 / C of the rest of a
    // row.
    const int64_t before = lengths_[std::size_t(feed.stream)];
    auto cost = [&](int64_t r) { return double(C_) + 2.0 * double(before + r + 1); };
    double total = 0.0;
    for (int64_t r = 0; r < feed.n; ++r) total += cost(r);
    int64_t split = 0;
    for (double sum = 0.0; split < feed.n - 1 && 2.0 * (sum + cost(split)) <= total; ++split) sum += cost(split);
    return std::max<int64_t>(split, 1);
}

namespace {

// A product's blocks, and a step's attention in groups, as units of SharedWork.
struct ProductJob {
    const PackedLinear* layer;
    const float* X;
    int64_t ldx;
    float* Y;
    int64_t ldy, M;
};
void productUnit(const void* job, int64_t unit) {
    const auto& p = *static_cast<const ProductJob*>(job);
    const int64_t begin = unit * decoding::kBlockOutputs;
    const int64_t end = std::min(begin + decoding::kBlockOutputs, p.layer->Np);
    decoding::linear(*p.layer, p.X, p.ldx, p.Y, p.ldy, p.M, begin, end);
}

template <typename E>
struct AttendJob {
    const decoding::Attend<E>* items;
    int64_t n, H, stride;
};
template <typename E>
void attendUnit(const void* job, int64_t unit) {
    const auto& a = *static_cast<const AttendJob<E>*>(job);
    thread_local std::vector<float> scores;  // each thread's own
    scores.resize(std::size_t(decoding::kAttendTogether * a.stride));
    const int64_t first = unit * decoding::kAttendTogether;
    decoding::attendMany(a.items + first, std::min<int64_t>(decoding::kAttendTogether, a.n - first), a.H,
                         a.stride, scores.data());
}

}  // namespace

void Decoder::product(const PackedLinear& layer, const float* X, int64_t ldx, float* Y, int64_t ldy,
                      int64_t M, bool alone) const {
    if (!alone || !helper_ || M < 1) {
        decoding::linear(layer, X, ldx, Y, ldy, M);
        return;
    }
    const ProductJob job{&layer, X, ldx, Y, ldy, M};
    helper_->run(productUnit, &job, (layer.Np + decoding::kBlockOutputs - 1) / decoding::kBlockOutputs);
}

template <typename E>
void Decoder::attend(const decoding::Attend<E>* items, int64_t n, float* scores, bool alone) const {
    if (!alone || !helper_ || n <= decoding::kAttendTogether) {
        decoding::attendMany(items, n, H_, Sp_, scores);
        return;
    }
    const AttendJob<E> job{items, n, H_, Sp_};
    helper_->run(attendUnit<E>, &job, (n + decoding::kAttendTogether - 1) / decoding::kAttendTogether);
}

std::vector<Decoder::Row> Decoder::rowsOf(const Feed* feeds, int64_t count) const {
    std::vector<Row> rows;
    for (int64_t i = 0; i < count; ++i)
        for (int64_t t = 0; t < feeds[i].n; ++t)
            rows.push_back({feeds[i].stream, lengths_[std::size_t(feeds[i].stream)] + t, feeds[i].tokens[t]});
    return rows;
}

void Decoder::checkToken(int64_t token) const {
    if (token < 0 || token >= V_) throw Error("a token outside the vocabulary was fed to the decoder.");
}

void Decoder::runFeeds(const Feed* feeds, int64_t count, Scratch& scratch, Scratch& own, const Share& share,
                       float* logitsOut) {
    const std::vector<Row> rowList = rowsOf(feeds, count);
    const Row* rows = rowList.data();
    const int64_t R = int64_t(rowList.size());
    if (!share.rendezvous) scratch.reserve(R, Cp_, C3p_, C4p_, Vp_, Sp_);  // a team's is reserved for it
    // This thread's rows [r0, r1) of the shared buffers.
    const int64_t r0 = std::min(share.first, R), r1 = std::min(share.last, R), mine = r1 - r0;
    // The thread with the last row finishes the pass (the logits are after it).
    const bool finishes = r1 == R;
    float* x = scratch.x.data();
    float* h = scratch.h.data();
    float* qkv = scratch.qkv.data();
    float* att = scratch.att.data();
    float* hidden = scratch.hidden.data();
    for (int64_t r = r0; r < r1; ++r) {
        const float* te = net_->tokenEmb.data() + rows[r].token * C_;
        const float* pe = net_->posEmb.data() + rows[r].position * C_;
        for (int64_t i = 0; i < C_; ++i) x[r * Cp_ + i] = te[i] + pe[i];
    }
    const int64_t headCache = H_ * Sp_, streamCache = nh_ * headCache;
    const bool bf16 = weights_ == Weights::Bf16;
    // A pass of this thread alone, whose products and attention a helper
    // thread may share (shareWith).
    const bool alone = !share.rendezvous;

    // Rows whose attention and feed-forward a layer computes: all of them but
    // in the last layer, where only each feed's last row is read afterwards
    // (its logits); the other rows' keys and values still go to the cache.
    // There the Q = count rows are moved to the front: row f is feed f's last.
    // A team's rows of the layer's rest: its own, or in the last layer the
    // finishing thread's rows 0 .. Q.
    int64_t Q = R, q0 = r0, q1 = r1;
    for (std::size_t layer = 0; layer < caches_.size(); ++layer) {
        const Layer& L = net_->layers[layer];
        LayerCache& cache = caches_[layer];
        const bool onlyLast = layer + 1 == caches_.size() && R > count;
        // Attention: x += proj(concat_h softmax(q_h K_h^T / sqrt(H)) V_h).
        for (int64_t r = r0; r < r1; ++r)
            decoding::layerNorm(x + r * Cp_, L.ln1w.data(), L.ln1b.data(), h + r * Cp_, C_);
        product(L.qkv, h + r0 * Cp_, Cp_, qkv + r0 * C3p_, C3p_, mine, alone);
        for (int64_t r = r0; r < r1; ++r)  // the queries times 1/sqrt(H), once for all their keys
            for (int64_t i = 0; i < C_; ++i) qkv[r * C3p_ + i] *= scale_;
        // Each row's keys and values into the cache (in bf16: rounded a row
        // at a time), the keys transposed.
        thread_local std::vector<uint16_t> rounded;
        if (bf16) rounded.resize(std::size_t(2 * C_));
        for (int64_t r = r0; r < r1; ++r) {
            const float* row = qkv + r * C3p_ + C_;  // its keys, then its values
            if (bf16) decoding::roundToBf16(row, 2 * C_, rounded.data());
            const int64_t p = rows[r].position;
            for (int64_t head = 0; head < nh_; ++head) {
                const int64_t at = rows[r].stream * streamCache + head * headCache;
                if (bf16) {
                    const uint16_t* k = rounded.data() + head * H_;
                    for (int64_t d = 0; d < H_; ++d) cache.keys16[std::size_t(at + d * Sp_ + p)] = k[d];
                    std::copy_n(k + C_, H_, cache.values16.data() + at + p * H_);
                } else {
                    const float* k = row + head * H_;
                    for (int64_t d = 0; d < H_; ++d) cache.keys[std::size_t(at + d * Sp_ + p)] = k[d];
                    std::copy_n(k + C_, H_, cache.values.data() + at + p * H_);
                }
            }
        }
        // Head by head within each feed: the feed's queries read a head's
        // keys and values while they are in the L1 cache.
        auto attendHeads = [&](float* scores) {
            // bf16: a head's keys and values widened once for all the queries
            // of a feed of several; one query reads them as they are.
            thread_local std::vector<float> widened;
            thread_local std::vector<decoding::Attend<float>> many;
            thread_local std::vector<decoding::Attend<uint16_t>> ones16;
            many.clear();
            ones16.clear();
            for (int64_t f = 0, first = 0; f < count; first += feeds[f].n, ++f) {
                // This thread's rows of the feed.
                const int64_t from = std::max(first, r0), to = std::min(first + feeds[f].n, r1);
                if (onlyLast || (bf16 && feeds[f].n == 1)) {  // one query: the cache read as it is
                    const int64_t r = first + feeds[f].n - 1, out = onlyLast ? f : r;
                    if (r < r0 || r >= r1) continue;
                    for (int64_t head = 0; head < nh_; ++head) {
                        const int64_t at = feeds[f].stream * streamCache + head * headCache;
                        const float* q = qkv + r * C3p_ + head * H_;
                        float* o = att + out * Cp_ + head * H_;
                        if (bf16)
                            ones16.push_back({q, cache.keys16.data() + at, cache.values16.data() + at, rows[r].position + 1, o});
                        else
                            many.push_back({q, cache.keys.data() + at, cache.values.data() + at, rows[r].position + 1, o});
                    }
                    continue;
                }
                for (int64_t head = 0; head < nh_; ++head) {
                    const int64_t at = feeds[f].stream * streamCache + head * headCache;
                    const float* keys = cache.keys.data() + at;
                    const float* values = cache.values.data() + at;
                    if (bf16) {
                        if (from >= to) break;
                        const int64_t used = rows[to - 1].position + 1;  // positions these rows read
                        widened.resize(std::size_t(2 * headCache));
                        for (int64_t d = 0; d < H_; ++d)
                            decoding::widenBf16(cache.keys16.data() + at + d * Sp_, used, widened.data() + d * Sp_);
                        decoding::widenBf16(cache.values16.data() + at, used * H_, widened.data() + headCache);
                        keys = widened.data();
                        values = widened.data() + headCache;
                    }
                    for (int64_t r = from; r < to; ++r)
                        many.push_back({qkv + r * C3p_ + head * H_, keys, values, rows[r].position + 1,
                                        att + r * Cp_ + head * H_});
                    if (bf16) {  // the widened head is overwritten by the next one
                        decoding::attendMany(many.data(), int64_t(many.size()), H_, Sp_, scores);
                        many.clear();
                    }
                }
            }
            attend(ones16.data(), int64_t(ones16.size()), scores, alone);
            attend(many.data(), int64_t(many.size()), scores, alone);
        };
        share.meet();  // every row's keys and values in the cache; every row's LayerNorm read
        if (onlyLast) {
            Q = count;
            q0 = 0;
            q1 = finishes ? Q : 0;
            if (finishes)
                for (int64_t f = 0, last = -1; f < count; ++f) {  // x row f = feed f's last (never one not yet read)
                    last += feeds[f].n;
                    std::copy_n(x + last * Cp_, Cp_, x + f * Cp_);
                }
        }
        attendHeads(own.scores.data());
        const int64_t n = q1 - q0;
        product(L.proj, att + q0 * Cp_, Cp_, h + q0 * Cp_, Cp_, n, alone);
        for (int64_t i = q0 * Cp_; i < q1 * Cp_; ++i) x[i] += h[i];

        // Feed-forward: x += W2 gelu(W1 LN(x) + b1) + b2.
        for (int64_t r = q0; r < q1; ++r)
            decoding::layerNorm(x + r * Cp_, L.ln2w.data(), L.ln2b.data(), h + r * Cp_, C_);
        product(L.ff1, h + q0 * Cp_, Cp_, hidden + q0 * C4p_, C4p_, n, alone);
        decoding::gelu(hidden + q0 * C4p_, n * C4p_);
        product(L.ff2, hidden + q0 * C4p_, C4p_, h + q0 * Cp_, Cp_, n, alone);
        for (int64_t i = q0 * Cp_; i < q1 * Cp_; ++i) x[i] += h[i];
    }
    if (!finishes) return;
    // Only the logits after each feed's last token are asked for.
    for (int64_t i = 0, last = -1; i < count; ++i) {
        last += feeds[i].n;
        decoding::layerNorm(x + (Q == count ? i : last) * Cp_, net_->lnw.data(), net_->lnb.data(), h + i * Cp_, C_);
    }
    product(net_->lm, h, Cp_, scratch.logits.data(), Vp_, count, alone);
    for (int64_t i = 0; i < count; ++i) std::copy_n(scratch.logits.data() + i * Vp_, V_, logitsOut + i * V_);
    for (int64_t r = 0; r < R; ++r) {
        int64_t& length = lengths_[std::size_t(rows[r].stream)];
        length = std::max(length, rows[r].position + 1);
    }
}

}  // namespace chargpt
