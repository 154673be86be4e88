// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/analysis/EmbeddingMap.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "model/runtime/Error.h"

namespace chargpt {

namespace {

// (N, C) float64 on the CPU, detached.
torch::Tensor asMatrix(const torch::Tensor& embeddings) {
    if (!embeddings.defined() || embeddings.dim() != 2 || !embeddings.is_floating_point())
        throw Error("embeddings must be a matrix of numbers, one row per token.");
    return embeddings.detach().to(torch::kCPU, torch::kFloat64);
}

// Rows scaled to unit length; a zero row stays zero.
torch::Tensor unitRows(const torch::Tensor& m) {
    const torch::Tensor norms = m.norm(2, 1, /*keepdim=*/true);
    return m / norms.clamp_min(1e-300) * (norms > 0);
}

}  // namespace

EmbeddingFrame principalFrame(const torch::Tensor& embeddings) {
    torch::NoGradGuard noGrad;
    const torch::Tensor m = asMatrix(embeddings);
    if (m.size(0) < 2 || m.size(1) < 2)
        throw Error("a map needs at least 2 embeddings of at least 2 dimensions; there are " +
                    std::to_string(m.size(0)) + " of " + std::to_string(m.size(1)) + ".");
    if (!torch::isfinite(m).all().item<bool>()) throw Error("the embeddings hold a value that is not finite.");
    EmbeddingFrame frame;
    frame.mean = m.mean(0);
    const torch::Tensor centred = m - frame.mean;
    const auto [u, s, vh] = torch::linalg::svd(centred, /*full_matrices=*/false, c10::nullopt);
    (void)u;
    frame.axes = vh.slice(0, 0, 2).contiguous();              // (2, C)
    frame.coordinates = centred.matmul(frame.axes.t()).contiguous();  // (N, 2)
    const double rows = double(m.size(0));
    const double total = s.pow(2).sum().item<double>() / rows;
    for (int a = 0; a < 2; ++a) {
        frame.variance[static_cast<std::size_t>(a)] = std::pow(s[a].item<double>(), 2) / rows;
        frame.explained[static_cast<std::size_t>(a)] = total > 0 ? frame.variance[static_cast<std::size_t>(a)] / total : 0.0;
    }
    return frame;
}

EmbeddingFrame alignFrame(const EmbeddingFrame& frame, const EmbeddingFrame& previous) {
    torch::NoGradGuard noGrad;
    if (frame.coordinates.sizes() != previous.coordinates.sizes() || frame.axes.sizes() != previous.axes.sizes())
        throw Error("a frame can only be aligned to a frame of as many points in as many dimensions.");
    // ||X P - Y||^2 = ||X||^2 + ||Y||^2 - 2 tr(P^T X^T Y): the best signed
    // permutation P maximises tr(P^T M), M = X^T Y (2 x 2).
    const torch::Tensor mt = frame.coordinates.t().matmul(previous.coordinates).contiguous();
    const double* m = mt.data_ptr<double>();  // m[a * 2 + b]: axis a of this frame with axis b of the previous
    const double keep = std::abs(m[0]) + std::abs(m[3]);
    const double swap = std::abs(m[1]) + std::abs(m[2]);
    const bool swapped = swap > keep;
    // source[b]: the axis of this frame that becomes axis b; sign[b] its sign.
    const std::array<int, 2> source = swapped ? std::array<int, 2>{1, 0} : std::array<int, 2>{0, 1};
    std::array<double, 2> sign{};
    for (int b = 0; b < 2; ++b) sign[static_cast<std::size_t>(b)] = m[source[static_cast<std::size_t>(b)] * 2 + b] < 0 ? -1.0 : 1.0;

    EmbeddingFrame out;
    out.mean = frame.mean;
    const torch::Tensor signs = torch::tensor({sign[0], sign[1]}, torch::kFloat64);
    const torch::Tensor order = torch::tensor({int64_t(source[0]), int64_t(source[1])}, torch::kInt64);
    out.axes = (frame.axes.index_select(0, order) * signs.unsqueeze(1)).contiguous();
    out.coordinates = (frame.coordinates.index_select(1, order) * signs).contiguous();
    for (std::size_t b = 0; b < 2; ++b) {
        out.variance[b] = frame.variance[static_cast<std::size_t>(source[b])];
        out.explained[b] = frame.explained[static_cast<std::size_t>(source[b])];
    }
    return out;
}

EmbeddingFrame tokenEmbeddingMap(const CharGPT& model, const EmbeddingFrame* previous) {
    EmbeddingFrame frame = principalFrame(model->token_emb->weight);
    return previous ? alignFrame(frame, *previous) : frame;
}

torch::Tensor projectOnFrame(const torch::Tensor& embeddings, const EmbeddingFrame& frame) {
    torch::NoGradGuard noGrad;
    const torch::Tensor m = asMatrix(embeddings);
    if (m.size(1) != frame.axes.size(1))
        throw Error("the embeddings have " + std::to_string(m.size(1)) + " dimensions and the map's plane " +
                    std::to_string(frame.axes.size(1)) + ".");
    if (!torch::isfinite(m).all().item<bool>()) throw Error("the embeddings hold a value that is not finite.");
    return (m - frame.mean).matmul(frame.axes.t()).contiguous();
}

std::vector<Neighbour> nearestByCosine(const torch::Tensor& embeddings, int64_t token, int64_t count) {
    torch::NoGradGuard noGrad;
    const torch::Tensor m = asMatrix(embeddings);
    const int64_t n = m.size(0);
    if (token < 0 || token >= n)
        throw Error("token " + std::to_string(token) + " is not in the vocabulary (ids 0 to " + std::to_string(n - 1) +
                    ").");
    if (count < 0) throw Error("the number of neighbours cannot be negative.");
    if (!torch::isfinite(m).all().item<bool>()) throw Error("the embeddings hold a value that is not finite.");
    const torch::Tensor unit = unitRows(m);
    const torch::Tensor cosines = unit.matmul(unit[token]).contiguous();  // (N)
    const double* c = cosines.data_ptr<double>();
    std::vector<Neighbour> all;
    all.reserve(static_cast<std::size_t>(n));
    for (int64_t i = 0; i < n; ++i)
        if (i != token) all.push_back({i, c[i]});
    const std::size_t keep = std::min(all.size(), static_cast<std::size_t>(count));
    std::partial_sort(all.begin(), all.begin() + static_cast<std::ptrdiff_t>(keep), all.end(),
                      [](const Neighbour& a, const Neighbour& b) {
                          return a.cosine != b.cosine ? a.cosine > b.cosine : a.token < b.token;
                      });
    all.resize(keep);
    return all;
}

std::vector<std::vector<Neighbour>> nearestByCosineAll(const torch::Tensor& embeddings, int64_t count) {
    torch::NoGradGuard noGrad;
    const torch::Tensor m = asMatrix(embeddings);
    const int64_t n = m.size(0);
    if (count < 0) throw Error("the number of neighbours cannot be negative.");
    if (!torch::isfinite(m).all().item<bool>()) throw Error("the embeddings hold a value that is not finite.");
    const torch::Tensor unit = unitRows(m);
    const std::size_t keep = std::min(static_cast<std::size_t>(std::max<int64_t>(n - 1, 0)),
                                      static_cast<std::size_t>(count));
    std::vector<std::vector<Neighbour>> result(static_cast<std::size_t>(n));
    std::vector<Neighbour> row;
    row.reserve(static_cast<std::size_t>(n));
    constexpr int64_t kRows = 256;  // (256, N) cosines at a time, whatever the vocabulary
    for (int64_t first = 0; first < n; first += kRows) {
        const int64_t rows = std::min(kRows, n - first);
        const torch::Tensor cosines = unit.narrow(0, first, rows).matmul(unit.t()).contiguous();  // (rows, N)
        const double* c = cosines.data_ptr<double>();
        for (int64_t r = 0; r < rows; ++r) {
            const int64_t token = first + r;
            row.clear();
            for (int64_t i = 0; i < n; ++i)
                if (i != token) row.push_back({i, c[r * n + i]});
            std::partial_sort(row.begin(), row.begin() + static_cast<std::ptrdiff_t>(keep), row.end(),
                              [](const Neighbour& a, const Neighbour& b) {
                                  return a.cosine != b.cosine ? a.cosine > b.cosine : a.token < b.token;
                              });
            result[static_cast<std::size_t>(token)].assign(row.begin(), row.begin() + static_cast<std::ptrdiff_t>(keep));
        }
    }
    return result;
}

std::vector<Neighbour> nearestTokens(const CharGPT& model, int64_t token, int64_t count) {
    return nearestByCosine(model->token_emb->weight, token, count);
}

torch::Tensor positionSimilarity(const CharGPT& model) {
    torch::NoGradGuard noGrad;
    if (!model->pos_emb) return torch::zeros({0, 0}, torch::kFloat64);  // a rung of the ladder without positions
    const torch::Tensor unit = unitRows(asMatrix(model->pos_emb->weight));
    return unit.matmul(unit.t()).contiguous();
}

}  // namespace chargpt
