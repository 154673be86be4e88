// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The characters' map: the token embeddings (one row of C numbers per token)
// projected to the plane that shows most of their spread, frame after frame
// along a run, with axes that keep their meaning from one frame to the next.
// - principalFrame: PCA. The rows are centred on their mean and the plane is
//   spanned by the top two right singular vectors of the centred matrix (the
//   directions of largest variance); a point's coordinates are its centred row
//   projected on them. Each axis reports its variance (squared singular value
//   / rows) and the fraction of the total variance it explains.
// - alignFrame: an SVD gives each axis up to its sign, and two axes of nearly
//   equal variance may come out in either order, so unaligned frames could
//   flip or swap. A frame is aligned to the frame before by the signed
//   permutation of its two axes (one of the 8: keep or swap, each sign kept or
//   flipped) whose coordinates are closest to the previous frame's in the
//   least-squares sense (orthogonal Procrustes restricted to those 8, so the
//   axes stay principal axes: no other rotation is applied). After a swap,
//   axis 0 may explain less than axis 1: each axis keeps its identity.
// - nearestByCosine: the tokens whose embedding rows point most nearly the
//   same way as a token's.
// - positionSimilarity: the cosine similarity of every pair of position
//   embeddings.
// In double precision on the CPU, without gradients; the model is only read.

#include <torch/torch.h>

#include <array>
#include <cstdint>
#include <vector>

#include "model/nn/CharGPT.h"

namespace chargpt {

struct EmbeddingFrame {
    torch::Tensor mean;         // (C) float64: the centre
    torch::Tensor axes;         // (2, C) float64: orthonormal rows, axis 0 then axis 1
    torch::Tensor coordinates;  // (N, 2) float64: (row - mean) . axis for each row
    std::array<double, 2> variance{};   // of the coordinates along each axis
    std::array<double, 2> explained{};  // variance / the rows' total variance (0 when they have none)
};

// The PCA frame of `embeddings` (N, C), N >= 2 and C >= 2 (float tensors on any
// device). Throws chargpt::Error for another shape or a non-finite value.
EmbeddingFrame principalFrame(const torch::Tensor& embeddings);

// `frame` with its axes signed and ordered to match `previous` (see above):
// axes, coordinates, variance and explained permuted and signed together. Ties
// keep the frame as it is. Throws chargpt::Error unless both frames have the
// same number of rows and of dimensions.
EmbeddingFrame alignFrame(const EmbeddingFrame& frame, const EmbeddingFrame& previous);

// The map of the model's token embeddings, aligned to `previous` when given.
EmbeddingFrame tokenEmbeddingMap(const CharGPT& model, const EmbeddingFrame* previous = nullptr);

// The rows of `embeddings` (N, C) placed in `frame`'s plane: (row - mean) .
// axis for each axis, (N, 2) float64; the frame's own rows give its
// coordinates back. Where another snapshot's rows land in this frame is where
// each character was then, in this frame's terms. Throws chargpt::Error unless
// the rows have the frame's C dimensions and every value is finite.
torch::Tensor projectOnFrame(const torch::Tensor& embeddings, const EmbeddingFrame& frame);

struct Neighbour {
    int64_t token = 0;
    double cosine = 0.0;
};

// The `count` rows nearest to row `token` of `embeddings` (N, C) by cosine,
// nearest first (ties: lower id first), the token itself left out; fewer when
// there are fewer other rows. A zero row has cosine 0 with every row. Throws
// chargpt::Error for a token outside 0 .. N - 1, a negative count or a value
// that is not finite.
std::vector<Neighbour> nearestByCosine(const torch::Tensor& embeddings, int64_t token, int64_t count);

// nearestByCosine of every row at once, in row order: one normalisation and
// the cosines a block of rows at a time, so a vocabulary of thousands costs
// one matrix product, not thousands of passes. The same neighbours, in the same
// order, as nearestByCosine(embeddings, row, count) for each row.
std::vector<std::vector<Neighbour>> nearestByCosineAll(const torch::Tensor& embeddings, int64_t count);

// nearestByCosine of the model's token embeddings.
std::vector<Neighbour> nearestTokens(const CharGPT& model, int64_t token, int64_t count);

// (T, T) float64: cos(pos_emb[i], pos_emb[j]) for every pair of the model's
// sequence_len positions (0 where a row is zero); (0, 0) for a model without
// position embeddings.
torch::Tensor positionSimilarity(const CharGPT& model);

}  // namespace chargpt
