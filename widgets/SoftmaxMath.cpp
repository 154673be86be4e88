// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/SoftmaxMath.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>

namespace softmax_math {

double negativeInfinity() {
    return -std::numeric_limits<double>::infinity();
}

std::vector<double> softmax(const std::vector<double>& scores, double temperature) {
    std::vector<double> result(scores.size(), 0.0);
    double maximum = negativeInfinity();
    for (double score : scores)
        maximum = std::max(maximum, score / temperature);
    if (!std::isfinite(maximum))
        return result;
    double sum = 0.0;
    for (size_t i = 0; i < scores.size(); ++i) {
        // Subtracting the maximum keeps exp() from overflowing at large scales.
        result[i] = std::isinf(scores[i]) && scores[i] < 0 ? 0.0
                                                           : std::exp(scores[i] / temperature - maximum);
        sum += result[i];
    }
    for (double& value : result)
        value /= sum;
    return result;
}

Matrix randomScores(int size, uint32_t seed) {
    std::mt19937 generator(seed);
    std::normal_distribution<double> normal(0.0, 1.0);
    Matrix scores(size, size);
    for (double& value : scores.values)
        value = normal(generator);
    return scores;
}

Matrix causallyMasked(const Matrix& scores) {
    Matrix masked = scores;
    for (int row = 0; row < masked.rows; ++row)
        for (int column = row + 1; column < masked.columns; ++column)
            masked.at(row, column) = negativeInfinity();
    return masked;
}

Matrix rowSoftmax(const Matrix& scores, double temperature) {
    Matrix weights(scores.rows, scores.columns);
    for (int row = 0; row < scores.rows; ++row) {
        const auto first = scores.values.begin() + std::ptrdiff_t(row) * scores.columns;
        const std::vector<double> rowWeights =
            softmax(std::vector<double>(first, first + scores.columns), temperature);
        std::copy(rowWeights.begin(), rowWeights.end(),
                  weights.values.begin() + std::ptrdiff_t(row) * scores.columns);
    }
    return weights;
}

std::vector<double> randomVector(int size, uint32_t seed) {
    std::mt19937 generator(seed);
    std::normal_distribution<double> normal(0.0, 1.0);
    std::vector<double> values(std::size_t(std::max(size, 0)));
    for (double& value : values)
        value = normal(generator);
    return values;
}

std::vector<double> scaled(const std::vector<double>& values, double factor) {
    std::vector<double> result(values);
    for (double& value : result)
        value *= factor;
    return result;
}

double standardDeviation(const std::vector<double>& values) {
    if (values.size() < 2)
        return 0.0;
    double mean = 0.0;
    for (double value : values)
        mean += value;
    mean /= double(values.size());
    double squares = 0.0;
    for (double value : values)
        squares += (value - mean) * (value - mean);
    return std::sqrt(squares / double(values.size() - 1));
}

ScoreSpread scoreSpread(int batch, int sequence, int headSize, uint32_t seed) {
    ScoreSpread spread;
    if (batch <= 0 || sequence <= 0 || headSize <= 0)
        return spread;
    std::mt19937 generator(seed);
    std::normal_distribution<double> normal(0.0, 1.0);
    const size_t perBatch = std::size_t(sequence) * headSize;
    std::vector<double> queries(std::size_t(batch) * perBatch), keys(std::size_t(batch) * perBatch);
    for (double& value : queries)
        value = normal(generator);
    for (double& value : keys)
        value = normal(generator);

    spread.unscaled.resize(std::size_t(batch) * sequence * sequence);
    for (int b = 0; b < batch; ++b) {
        const double* q = queries.data() + b * perBatch;
        const double* k = keys.data() + b * perBatch;
        double* scores = spread.unscaled.data() + std::size_t(b) * sequence * sequence;
        for (int i = 0; i < sequence; ++i)
            for (int j = 0; j < sequence; ++j) {
                double dot = 0.0;
                for (int h = 0; h < headSize; ++h)
                    dot += q[std::size_t(i) * headSize + h] * k[std::size_t(j) * headSize + h];
                scores[std::size_t(i) * sequence + j] = dot;
            }
    }
    spread.unscaledStd = standardDeviation(spread.unscaled);
    // Dividing every score by sqrt(H) divides their spread by the same factor.
    spread.scaledStd = spread.unscaledStd / std::sqrt(double(headSize));
    return spread;
}

std::vector<double> histogram(const std::vector<double>& values, int bins, double low, double high) {
    std::vector<double> counts(std::size_t(std::max(bins, 1)), 0.0);
    if (!(high > low))
        return counts;
    const double width = (high - low) / bins;
    for (double value : values) {
        const int bin = std::clamp(int(std::floor((value - low) / width)), 0, bins - 1);
        counts[std::size_t(bin)] += 1.0;
    }
    return counts;
}

}  // namespace softmax_math
