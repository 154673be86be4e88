// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// What the Inside page's feed-forward and residual-stream views show, as plain
// Qt values (no tensors): app/InsideLayersBridge fills them from
// model/analysis/FeedForwardProbe and ResidualStream on the inspector thread.
// Layers and neurons are counted from 0 here and shown from 1.

#include <QString>
#include <QStringList>
#include <QVector>
#include <cmath>
#include <limits>
#include <optional>

// --- the feed-forward -------------------------------------------------------------

// Where a text fires one neuron: the character there and a few before it.
struct NeuronExample {
    QString before;     // up to a few characters before it, in text order
    QString character;  // the character at that position
    float activation = 0;
};

// One layer's feed-forward on the probe.
struct FeedForwardLayer {
    // The neurons shown, by their largest activation on the probe, largest
    // first (a few of the layer's 4C).
    QVector<int> neurons;
    QVector<float> activations;  // row-major positions x neurons.size(), after the GELU
    // Per neuron shown (same order): where the sample text fires it most.
    QVector<QVector<NeuronExample>> examples;
    // The same character at two positions of the probe (none: no character
    // repeats): how far apart the feed-forward's two inputs and two outputs
    // are, and the largest difference of the outputs when both positions are
    // given the first one's input (0 up to rounding).
    std::optional<int> first, second;  // both or neither
    double inputDistance = 0, outputDistance = 0;
    double sameInputDifference = std::numeric_limits<double>::quiet_NaN();
};

struct FeedForwardProbeData {
    QStringList characters;  // the probe read, one per position (T)
    int width = 0;           // neurons per layer (4C)
    int sampleCharacters = 0;  // how many characters of the validation text the examples come from
    QVector<FeedForwardLayer> layers;

    int positionCount() const { return int(characters.size()); }
    bool isValid() const {
        if (characters.isEmpty() || layers.isEmpty()) return false;
        for (const FeedForwardLayer& l : layers)
            if (l.activations.size() != qsizetype(l.neurons.size()) * characters.size() ||
                l.examples.size() != l.neurons.size())
                return false;
        return true;
    }
};

// --- the residual stream ------------------------------------------------------------

struct ResidualStreamData {
    QStringList characters;  // the probe read (T)
    int layers = 0;
    QVector<double> norms;              // (layers + 1) x T: after the embeddings, after each block
    QVector<double> attentionWrites;    // layers x T: the size of what each attention adds
    QVector<double> feedForwardWrites;  // layers x T: of what each feed-forward adds

    int positionCount() const { return int(characters.size()); }
    bool isValid() const {
        const qsizetype t = characters.size();
        return t > 0 && layers > 0 && norms.size() == (layers + 1) * t && attentionWrites.size() == layers * t &&
               feedForwardWrites.size() == layers * t;
    }
    // The attention's share of what layer `layer` writes over all positions,
    // 0..1; NaN when the layer writes nothing.
    double attentionShare(int layer) const {
        double a = 0, f = 0;
        for (int p = 0; p < positionCount(); ++p) {
            a += attentionWrites[qsizetype(layer) * positionCount() + p];
            f += feedForwardWrites[qsizetype(layer) * positionCount() + p];
        }
        return a + f > 0 ? a / (a + f) : std::numeric_limits<double>::quiet_NaN();
    }
};
