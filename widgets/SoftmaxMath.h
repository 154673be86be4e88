// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The numbers behind the softmax lab, in plain C++ so they can be checked
// without a model: softmax with -inf entries, the causal mask, and the spread
// of attention scores with and without the 1/sqrt(H) scaling.

#include <cstddef>
#include <cstdint>
#include <vector>

namespace softmax_math {

// A row-major rows x columns matrix of doubles.
struct Matrix {
    int rows = 0;
    int columns = 0;
    std::vector<double> values;

    Matrix() = default;
    Matrix(int rowCount, int columnCount, double fill = 0.0)
        : rows(rowCount), columns(columnCount), values(std::size_t(rowCount) * columnCount, fill) {}
    double& at(int row, int column) { return values[std::size_t(row) * columns + column]; }
    double at(int row, int column) const { return values[std::size_t(row) * columns + column]; }
};

double negativeInfinity();

// exp(x_i / T) / sum_j exp(x_j / T). Entries of -inf get exactly 0; a row that is
// all -inf gives all 0. Temperature must be > 0.
std::vector<double> softmax(const std::vector<double>& scores, double temperature = 1.0);

// A size x size matrix of N(0, 1) draws from std::mt19937(seed).
Matrix randomScores(int size, uint32_t seed);

// The scores with -inf wherever the column is after the row (tril == 0).
Matrix causallyMasked(const Matrix& scores);

// softmax applied to each row.
Matrix rowSoftmax(const Matrix& scores, double temperature = 1.0);

// An N(0, 1) vector from std::mt19937(seed), e.g. the seed's 8-vector.
std::vector<double> randomVector(int size, uint32_t seed);

// Each entry multiplied by `factor` (for softmax(1000 * x)).
std::vector<double> scaled(const std::vector<double>& values, double factor);

// Sample standard deviation (divides by n - 1, as torch.std does).
double standardDeviation(const std::vector<double>& values);

// Q and K of shape (B, T, H) drawn from N(0, 1); scores Q K^T of shape (B, T, T).
struct ScoreSpread {
    double unscaledStd = 0.0;        // std of Q K^T, about sqrt(H)
    double scaledStd = 0.0;          // std of Q K^T / sqrt(H), about 1
    std::vector<double> unscaled;    // all B*T*T scores, unscaled
};
ScoreSpread scoreSpread(int batch, int sequence, int headSize, uint32_t seed);

// Counts of `values` in `bins` equal bins over [low, high); values outside are
// counted in the first or last bin.
std::vector<double> histogram(const std::vector<double>& values, int bins, double low, double high);

}  // namespace softmax_math
