// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Hand-made data for the views of the model's insides (tst_insideviews,
// tst_insidelayersviews, tst_insideexports): a logit lens, a knock-out table,
// head roles, a characters' map, a feed-forward probe and a residual stream,
// and how to read back what an export wrote.

#include <QFile>
#include <QString>
#include <QStringList>
#include <cmath>

#include "widgets/InsideData.h"
#include "widgets/InsideLayersData.h"

namespace inside_samples {

inline LogitLensCell lensCell(const QString& top, float p, int rank = 0, float trueP = std::nanf("")) {
    LogitLensCell cell;
    cell.top = top;
    cell.topProbability = p;
    cell.trueRank = rank;
    cell.trueProbability = trueP;
    return cell;
}

// The probe "abc" read after the embeddings and two blocks.
inline LogitLens sampleLens() {
    LogitLens lens;
    lens.characters = QStringList{"a", "b", "c"};
    lens.layers = LogitLens::defaultLayerLabels(2);
    lens.step = 40;
    lens.cells = {lensCell("x", 0.10f, 7, 0.01f), lensCell("y", 0.12f, 5, 0.02f),  lensCell("z", 0.2f),
                  lensCell("b", 0.40f, 1, 0.40f), lensCell("x", 0.30f, 2, 0.25f),  lensCell("中", 0.5f),
                  lensCell("b", 0.90f, 1, 0.90f), lensCell("d", 0.60f, 3, 0.125f), lensCell("\n", 0.7f)};
    return lens;
}

inline KnockoutRow knockoutRow(KnockoutKind kind, int layer, std::optional<int> head, double loss,
                               double baseline) {
    KnockoutRow row;
    row.kind = kind;
    row.layer = layer;
    row.head = head;
    row.loss = loss;
    row.increase = loss - baseline;
    return row;
}

// Two layers of two heads; losses around 10 so that sorting them as text
// ("10.2" before "9.5") would be wrong.
inline Knockout sampleKnockout() {
    Knockout k;
    k.baselineLoss = 9.8;
    k.layers = 2;
    k.heads = 2;
    k.step = 300;
    k.rows = {knockoutRow(KnockoutKind::Head, 0, 0, 9.9, 9.8),
              knockoutRow(KnockoutKind::Head, 0, 1, 10.6, 9.8),
              knockoutRow(KnockoutKind::Head, 1, 0, 9.75, 9.8),
              knockoutRow(KnockoutKind::Head, 1, 1, 10.2, 9.8),
              knockoutRow(KnockoutKind::Attention, 0, std::nullopt, 11.5, 9.8),
              knockoutRow(KnockoutKind::FeedForward, 1, std::nullopt, 9.85, 9.8)};
    return k;
}

// Two layers of three heads at steps 0, 100 and 200; score = layer/10 +
// head/100 + frame/4 (previous-token) and half of it (induction).
inline HeadRoles sampleRoles() {
    HeadRoles roles;
    roles.layers = 2;
    roles.heads = 3;
    roles.previousTokenChance = 0.125;
    roles.inductionChance = 0.05;
    for (int f = 0; f < 3; ++f) {
        HeadRolesFrame frame;
        frame.step = 100 * f;
        for (int l = 0; l < 2; ++l)
            for (int h = 0; h < 3; ++h) {
                const float score = 0.1f * l + 0.01f * h + 0.25f * f;
                frame.previousToken << score;
                frame.induction << score / 2;
            }
        roles.frames << frame;
    }
    return roles;
}

// Two frames: the second spreads the characters wider than the first.
inline CharacterMap sampleMap() {
    CharacterMap map;
    const QStringList characters{"a", "7", ",", "中", " "};
    for (int f = 0; f < 2; ++f) {
        CharacterMapFrame frame;
        frame.step = 50 * (f + 1);
        frame.characters = characters;
        const double spread = f == 0 ? 1.0 : 3.0;
        frame.points = {QPointF(-spread, 0), QPointF(spread, 0.5), QPointF(0, spread), QPointF(0.5, -spread),
                        QPointF(0.2, 0.2)};
        frame.explainedX = 0.4;
        frame.explainedY = 0.25;
        for (int i = 0; i < characters.size(); ++i)
            frame.neighbours << QVector<CharacterNeighbour>{{characters[(i + 1) % 5], 0.875f},
                                                            {characters[(i + 2) % 5], 0.5f}};
        frame.positions = 3;
        frame.positionSimilarity = {1, 0.5f, -0.5f, 0.5f, 1, 0, -0.5f, 0, 1};
        map.frames << frame;
    }
    return map;
}

// The records of a CSV text: line breaks inside quoted fields do not end one.
inline QStringList csvRecords(const QString& text) {
    QStringList records;
    QString record;
    bool quoted = false;
    for (const QChar c : text) {
        if (c == QLatin1Char('"')) quoted = !quoted;
        if (c == QLatin1Char('\n') && !quoted) {
            records << record;
            record.clear();
        } else {
            record += c;
        }
    }
    if (!record.isEmpty()) records << record;
    return records;
}

inline QByteArray readAll(const QString& path) {
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

// The probe "abab", 2 layers of 8 neurons, 3 shown per layer.
inline FeedForwardProbeData sampleProbe() {
    FeedForwardProbeData p;
    p.characters = QStringList{QStringLiteral("a"), QStringLiteral("b"), QStringLiteral("a"), QStringLiteral(" ")};
    p.width = 8;
    p.sampleCharacters = 4096;
    for (int l = 0; l < 2; ++l) {
        FeedForwardLayer layer;
        layer.neurons = l == 0 ? QVector<int>{6, 0, 3} : QVector<int>{1, 2, 7};
        for (int t = 0; t < 4; ++t)
            for (int k = 0; k < 3; ++k) layer.activations << float((l + 1) * (3 - k) + t) / 10.0f;
        layer.examples.resize(3);
        layer.examples[0] = {{QStringLiteral("the\nca"), QStringLiteral("t"), 2.5f},
                             {QStringLiteral("a ca"), QStringLiteral("t"), 2.25f}};
        layer.first = 0;
        layer.second = 2;
        layer.inputDistance = 1.234;
        layer.outputDistance = 0.567;
        layer.sameInputDifference = 0.0;
        p.layers << layer;
    }
    p.layers[1].first.reset();  // no character repeats there
    p.layers[1].second.reset();
    return p;
}

// "ab", 2 layers: sizes 1..6; layer 0: attention writes 1 and 3, feed-forward
// 1 and 1 (share 2/3); layer 1: attention nothing, feed-forward 2 and 2.
inline ResidualStreamData sampleStream() {
    ResidualStreamData s;
    s.characters = QStringList{QStringLiteral("a"), QStringLiteral("b")};
    s.layers = 2;
    s.norms = {1, 2, 3, 4, 5, 6};
    s.attentionWrites = {1, 3, 0, 0};
    s.feedForwardWrites = {1, 1, 2, 2};
    return s;
}

}  // namespace inside_samples
