// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// What the "inside the model" views show (logit lens, head knock-out, head
// roles over training, the characters' map; the feed-forward's and the
// residual stream's are in InsideLayersData.h), as plain Qt values: no
// tensors. app/ fills them from the model's computations on the inspector
// thread (docs/ARCHITECTURE.md, "Adding a view"). Layers and heads are
// counted from 0 here and shown from 1 ("L1 H2" is layer 0, head 1).

#include <QColor>
#include <QList>
#include <QMetaType>
#include <QPointF>
#include <QRectF>
#include <QString>
#include <QStringList>
#include <QVector>
#include <cmath>
#include <limits>
#include <optional>

#include "widgets/InsideLayersData.h"

// --- a step to compare with -----------------------------------------------------
// A step whose weights the run library keeps (the timeline's A): the Surprise
// tab and the characters' map compare the model shown with it.
struct KeptStep {
    qint64 run = 0;
    qint64 step = 0;
};

// --- logit lens ---------------------------------------------------------------

// What the lens reads at one layer and position of the probe text.
struct LogitLensCell {
    QString top;               // the likeliest next character read at this layer (one code point)
    float topProbability = 0;  // its probability, 0..1
    // The true next character (LogitLens::nextCharacter): its rank among the
    // guesses (1 = the likeliest) and its probability. Rank 0 and NaN where
    // the next character is not known.
    int trueRank = 0;
    float trueProbability = std::numeric_limits<float>::quiet_NaN();
};

// The final LayerNorm and the language-model head applied to the residual
// stream after each block: what the model would predict if it stopped there.
struct LogitLens {
    QStringList characters;  // the text read, one code point per position (T)
    // The character that follows the last position (the probe's last; in Step
    // mode the one picked), or empty when none is known.
    QString following;
    // One label per row: "embeddings", "block 1" .. "block L" (see
    // defaultLayerLabels); the last row is the model's own prediction.
    QStringList layers;
    QVector<LogitLensCell> cells;  // row-major layers.size() x characters.size()
    std::optional<qint64> step;    // of the model that was read; none when unknown

    int layerCount() const { return int(layers.size()); }
    int positionCount() const { return int(characters.size()); }
    bool isValid() const {
        return layerCount() > 0 && positionCount() > 0 &&
               cells.size() == qsizetype(layerCount()) * positionCount();
    }
    const LogitLensCell& cell(int layer, int position) const {
        return cells[qsizetype(layer) * positionCount() + position];
    }
    // The character the model should predict at `position` (empty: unknown).
    QString nextCharacter(int position) const {
        return position + 1 < positionCount() ? characters[position + 1] : following;
    }
    // "embeddings", "block 1" .. "block `blocks`", in the window's language.
    static QStringList defaultLayerLabels(int blocks);
};

// --- knock-out ------------------------------------------------------------------

// What one knock-out zeroed: one head's output, a layer's attention (all its
// heads) or a layer's feed-forward block.
enum class KnockoutKind { Head, Attention, FeedForward };

// One part of the model that can be knocked out.
struct KnockoutPart {
    KnockoutKind kind = KnockoutKind::Head;
    int layer = 0;  // from 0
    std::optional<int> head;  // from 0 when kind is Head, none otherwise

    bool operator==(const KnockoutPart& other) const {
        return kind == other.kind && layer == other.layer && head == other.head;
    }
    // Every part of a model of `layers` layers of `heads` heads, in the
    // knock-out table's order: each head, each layer's attention, each
    // layer's feed-forward.
    static QVector<KnockoutPart> allOf(int layers, int heads);
};

// A row of the knock-out table: a part and the loss without it.
struct KnockoutRow : KnockoutPart {
    double loss = std::numeric_limits<double>::quiet_NaN();      // validation loss without it, nats
    double increase = std::numeric_limits<double>::quiet_NaN();  // loss - baseline; negative: it hurt
};

// The validation loss on the fixed evaluation batches with and without parts
// of the model.
struct Knockout {
    double baselineLoss = std::numeric_limits<double>::quiet_NaN();  // nothing knocked out, nats
    QVector<KnockoutRow> rows;
    int layers = 0;    // of the model
    int heads = 0;     // per layer
    std::optional<qint64> step;  // of the model; none when unknown

    bool isEmpty() const { return rows.isEmpty(); }
    // The increase of head (layer, head) knocked out alone; NaN when no row has it.
    double headIncrease(int layer, int head) const;
};

// "L1 H2", "L1 attention", "L1 feed-forward", in the window's language.
QString knockoutPartName(const KnockoutPart& part);
// The part an English name of knockoutPartName's names ("L1 H2", "L1
// attention", "L1 feed-forward"; any case, with or without the space, a "-"
// or "_" for it), layers and heads from 1; nothing for anything else.
std::optional<KnockoutPart> knockoutPartNamed(const QString& name);

// --- head roles ---------------------------------------------------------------------

enum class HeadRole {
    // Mean attention of a position to the one just before it.
    PreviousToken,
    // On a random sequence repeated twice: the mean attention from a position
    // of the second copy to the position after its first occurrence (Olsson et
    // al. 2022).
    Induction,
};

// Both scores of every head at one snapshot, row-major layers x heads.
struct HeadRolesFrame {
    qint64 step = 0;
    QVector<float> previousToken;
    QVector<float> induction;
};

struct HeadRoles {
    int layers = 0;
    int heads = 0;
    QVector<HeadRolesFrame> frames;  // by increasing step
    // What each score is for a head that attends uniformly to what it may see:
    // the dashed line of the plot.
    double previousTokenChance = std::numeric_limits<double>::quiet_NaN();
    double inductionChance = std::numeric_limits<double>::quiet_NaN();

    bool isEmpty() const { return frames.isEmpty() || layers <= 0 || heads <= 0; }
    // The score of head (layer, head) in frame `frame`; NaN when missing.
    double score(HeadRole role, int frame, int layer, int head) const;
    double chance(HeadRole role) const {
        return role == HeadRole::Induction ? inductionChance : previousTokenChance;
    }
    // The frame of the last step at or before `step` (the first frame when
    // `step` is earlier than all); -1 when there are none.
    int frameAt(qint64 step) const;
};

QString headRoleName(HeadRole role);    // "Previous-token score", translated
QString headName(int layer, int head);  // "L1 H2" for layer 0, head 1

// --- the characters' map ---------------------------------------------------------------

// The kind of a character, for the colours of the map.
enum class CharacterKind { Letter, Digit, Punctuation, Cjk, Space, Other };

// From the Unicode category and script of the character's first code point:
// Han, Hiragana, Katakana and Hangul are Cjk (before Letter); whitespace,
// newline included, is Space; punctuation and symbols are Punctuation.
CharacterKind characterKind(const QString& character);
QString characterKindName(CharacterKind kind);  // translated: "letter", "CJK"...
QColor characterKindColor(CharacterKind kind);
QList<CharacterKind> allCharacterKinds();

struct CharacterNeighbour {
    QString character;
    float cosine = 0;  // of the two token embeddings, -1..1
};

// The embeddings of one snapshot.
struct CharacterMapFrame {
    qint64 step = 0;
    QStringList characters;  // the vocabulary shown, one code point each
    // Token embeddings projected on the two first principal axes, one point
    // per character; the model side aligns each frame's axes to the frame
    // before (sign and order), so the same character moves smoothly.
    QVector<QPointF> points;
    double explainedX = std::numeric_limits<double>::quiet_NaN();  // share of the variance on x, 0..1
    double explainedY = std::numeric_limits<double>::quiet_NaN();  // on y
    // Per character (same order), its nearest other characters by cosine of
    // the embeddings, nearest first (a few; may be empty).
    QVector<QVector<CharacterNeighbour>> neighbours;
    // Cosine similarity of the position embeddings, row-major positions x positions.
    int positions = 0;
    QVector<float> positionSimilarity;
    // Where each character (same order) was at step A (comparedStep), placed
    // in this frame's plane; empty when nothing is compared.
    std::optional<qint64> comparedStep;  // none when nothing is compared
    QVector<QPointF> comparedPoints;

    bool hasPositions() const {
        return positions > 0 && positionSimilarity.size() == qsizetype(positions) * positions;
    }
};

struct CharacterMap {
    QVector<CharacterMapFrame> frames;  // by increasing step

    bool isEmpty() const { return frames.isEmpty(); }
    // The rectangle holding every point of every frame, and where its
    // characters were at step A (empty when no point).
    QRectF bounds() const;
    // As HeadRoles::frameAt.
    int frameAt(qint64 step) const;
};

// --- one snapshot for the Inside page ---------------------------------------------
// What the inspector reads from one snapshot of the model for the Inside page:
// the lens of the probe, every head's two scores and the characters' map. The
// page shows the one of the timeline's step and adds `roles` to the head roles'
// lines; parts that could not be computed are empty and `gaps` (the parts a
// model or probe cannot have) and `problem` (what failed, as the model's code
// worded it) say why.
enum class InsideGap { ProbeTooShort, NoPositions, NoLayers, NoTextForHeads };
// The reason for `gap` in the reader's language.
QString insideGapText(InsideGap gap);

struct InsideFrame {
    qint64 step = -1;
    LogitLens lens;
    int layers = 0, heads = 0;
    HeadRolesFrame roles;
    double previousTokenChance = std::numeric_limits<double>::quiet_NaN();
    double inductionChance = std::numeric_limits<double>::quiet_NaN();
    CharacterMapFrame map;
    FeedForwardProbeData feedForward;  // the probe through each layer's feed-forward
    ResidualStreamData residual;       // the probe's residual stream
    QVector<InsideGap> gaps;
    QString problem;
};

Q_DECLARE_METATYPE(LogitLens)
Q_DECLARE_METATYPE(Knockout)
Q_DECLARE_METATYPE(HeadRoles)
Q_DECLARE_METATYPE(CharacterMap)
Q_DECLARE_METATYPE(InsideFrame)
