// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/LessonAnswers.h"

#include <QCoreApplication>

#include <algorithm>
#include <cmath>

#include "widgets/AttentionData.h"
#include "widgets/AttributionView.h"
#include "widgets/InsideData.h"
#include "widgets/PatchingData.h"
#include "widgets/SoftmaxMath.h"

namespace {

class LessonWords {
    Q_DECLARE_TR_FUNCTIONS(LessonPane)
};

QString list(const std::vector<double>& values) {
    QStringList parts;
    for (double v : values) parts << QString::number(v, 'f', 3);
    return QStringLiteral("[") + parts.join(QStringLiteral(", ")) + QStringLiteral("]");
}

LessonAnswer needsModel() {
    LessonAnswer a;
    a.text = LessonWords::tr("Train a model or open one first, and let the Attention tab show it: this answer is "
                             "computed from your model.");
    return a;
}

}  // namespace

namespace lesson_answers {

LessonAnswer softmaxTimes1000(const std::vector<double>& x) {
    LessonAnswer a;
    if (x.empty()) return a;
    const auto plain = softmax_math::softmax(x);
    const auto sharp = softmax_math::softmax(softmax_math::scaled(x, 1000.0));
    const double top = *std::max_element(sharp.begin(), sharp.end());
    const double uniform = 1.0 / double(x.size());
    const bool flat = std::all_of(sharp.begin(), sharp.end(), [&](double p) { return std::abs(p - uniform) < 0.01; });
    a.available = true;
    a.key = top > 0.99 ? QStringLiteral("one-hot") : flat ? QStringLiteral("uniform") : QStringLiteral("spread");
    a.text = LessonWords::tr("softmax(x) = %1\nsoftmax(1000 x) = %2\nThe largest score takes %3% of the weight: "
                             "multiplied scores push softmax towards a one-hot vector, so a few large scores "
                             "would decide everything.")
                 .arg(list(plain), list(sharp), QString::number(top * 100.0, 'f', 1));
    return a;
}

LessonAnswer unscaledSpread() {
    const auto small = softmax_math::scoreSpread(4, 16, 8, 1);
    const auto large = softmax_math::scoreSpread(4, 16, 64, 1);
    LessonAnswer a;
    a.available = true;
    a.key = large.unscaledStd > 1.5 * small.unscaledStd ? QStringLiteral("grows") : QStringLiteral("stays");
    a.text = LessonWords::tr("The spread (standard deviation) of q·k for random q and k: %1 at head size 8, %2 at "
                             "head size 64, about √H. Divided by √H: %3 and %4. The scaling keeps softmax's input "
                             "at the same spread whatever the head size.")
                 .arg(QString::number(small.unscaledStd, 'f', 2), QString::number(large.unscaledStd, 'f', 2),
                      QString::number(small.scaledStd, 'f', 2), QString::number(large.scaledStd, 'f', 2));
    return a;
}

LessonAnswer attentionToFuture(const ModelAttention& attention) {
    // Each row's weights on the keys it may see; what is missing from 1 went to later keys.
    double leastSeen = 2.0;
    int rows = 0;
    for (const auto& layer : attention.layers) {
        for (const auto& head : layer.heads) {
            if (!head.isValid()) continue;
            for (int r = 0; r < head.queryCount(); ++r) {
                double sum = 0.0;
                const int last = std::min(head.queryPosition(r), head.keyCount() - 1);
                for (int k = 0; k <= last; ++k) {
                    const float w = head.weight(r, k);
                    if (!std::isnan(w)) sum += w;
                }
                leastSeen = std::min(leastSeen, sum);
                ++rows;
            }
        }
    }
    if (rows == 0) return needsModel();
    LessonAnswer a;
    a.available = true;
    const double future = std::max(0.0, 1.0 - leastSeen);
    // A float sum of a row misses 1 by rounding alone, well under 1e-5.
    a.key = future < 1e-5 ? QStringLiteral("none") : QStringLiteral("some");
    a.text = future < 1e-5
                 ? LessonWords::tr("In all %1 rows of every head of your model, the weights on a character and those "
                                   "before it add up to 1 (to float rounding): the characters after it get nothing. "
                                   "The mask set their scores to −∞, and softmax turns −∞ into exactly 0.")
                       .arg(rows)
                 : LessonWords::tr("In some of the %1 rows of your model's heads, the weights on a character and "
                                   "those before it add up to only %2: %3 went to characters after it. This model "
                                   "was not trained with the causal mask.")
                       .arg(rows)
                       .arg(QString::number(leastSeen, 'f', 4), QString::number(future, 'f', 4));
    return a;
}

LessonAnswer previousCharacterHead(const ModelAttention& attention) {
    double best = -1.0;
    int bestLayer = -1, bestHead = -1;
    for (int l = 0; l < attention.layers.size(); ++l) {
        const auto& heads = attention.layers[l].heads;
        for (int h = 0; h < heads.size(); ++h) {
            if (!heads[h].isValid() || heads[h].queryCount() < 2) continue;
            const double share = summarizeHead(heads[h]).previousTokenShare;
            if (share > best) {
                best = share;
                bestLayer = l;
                bestHead = h;
            }
        }
    }
    if (bestLayer < 0) return needsModel();
    // Layers and heads counted from 1, as every view shows them.
    LessonAnswer a;
    a.available = true;
    a.key = best > 0.5 ? QStringLiteral("yes") : QStringLiteral("no");
    a.text = (best > 0.5 ? LessonWords::tr("Yes: layer %1, head %2 puts %3% of its attention on the previous "
                                           "character, on the probe text. Find it in the Attention tab: a bright "
                                           "line just below the diagonal.")
                         : LessonWords::tr("Not yet: the head that looks most at the previous character, layer %1, "
                                           "head %2, puts %3% of its attention there. Such heads often appear as "
                                           "training goes on."))
                 .arg(bestLayer + 1)
                 .arg(bestHead + 1)
                 .arg(QString::number(best * 100.0, 'f', 1));
    return a;
}

LessonAnswer feedForwardKnockout(const Knockout& knockout) {
    QStringList rises;
    double most = -1.0;
    for (const auto& row : knockout.rows) {
        if (row.kind != KnockoutKind::FeedForward || std::isnan(row.increase)) continue;
        rises << LessonWords::tr("layer %1: %2").arg(row.layer + 1).arg(QString::number(row.increase, 'f', 3));
        most = std::max(most, row.increase);
    }
    LessonAnswer a;
    if (rises.isEmpty()) {
        a.text = LessonWords::tr("Press Knock out in the Inside tab's Knock-out view first: this answer is the "
                                 "loss your model reaches without each part.");
        return a;
    }
    a.available = true;
    a.key = most < 0.05 ? QStringLiteral("little") : most < 0.5 ? QStringLiteral("some") : QStringLiteral("much");
    a.text = LessonWords::tr("The validation loss is %1 nats with every part; without a layer's feed-forward it "
                             "rises by (nats) %2. Attention gathers from other characters; the feed-forward is "
                             "where each position turns that into its guess.")
                 .arg(QString::number(knockout.baselineLoss, 'f', 3), rises.join(QStringLiteral(", ")));
    return a;
}

LessonAnswer topPart(const CharacterAttribution& attribution) {
    LessonAnswer a;
    if (!attribution.isValid()) {
        a.text = LessonWords::tr(
            "Click a character in the Surprise or Generate tab first: this answer is what the "
            "why window finds for it.");
        return a;
    }
    const AttributionBar* top = nullptr;
    int layers = 0;
    for (const AttributionBar& bar : attribution.bars) {
        if (bar.layer) layers = std::max(layers, *bar.layer + 1);
        if (!top || bar.logit > top->logit) top = &bar;
    }
    a.available = true;
    if (top->kind != AttributionBar::Head)
        a.key = QStringLiteral("not-a-head");
    else
        a.key = top->layer && *top->layer + 1 == layers ? QStringLiteral("last-layer-head")
                                                        : QStringLiteral("earlier-head");
    a.text = LessonWords::tr(
                 "For '%1' the part that adds most to its logit is %2: %3 of %4. The why window lists "
                 "the others, and where the heads that add most looked.")
                 .arg(attribution.chosen, AttributionView::partName(*top))
                 .arg(QString::number(top->logit, 'f', 3), QString::number(attribution.logit, 'f', 3));
    return a;
}

LessonAnswer patchingLayer(const PatchingResult& r) {
    LessonAnswer a;
    if (!r.isValid()) {
        a.text =
            LessonWords::tr("Run the patching lab first (Preset, then Run): this answer is what it finds.");
        return a;
    }
    const int T = r.positions(), last = T - 1;
    if (r.clean[last] != r.corrupted.value(last)) {
        a.text = LessonWords::tr(
            "The corrupted prompt changes the last character, which is already at the last "
            "position: change an earlier one and run again.");
        return a;
    }
    int changed = 0;
    while (changed < last && r.clean[changed] == r.corrupted.value(changed)) ++changed;
    QStringList rows;
    int first = -1;
    for (int layer = 1; layer <= r.layers; ++layer) {
        const double v = r.residual[qsizetype(layer) * T + last];
        if (!std::isfinite(v)) continue;
        rows << LessonWords::tr("after layer %1: %2%").arg(layer).arg(QString::number(100.0 * v, 'f', 0));
        if (first < 0 && v >= 0.5) first = layer;
    }
    if (first < 0) {
        a.text = LessonWords::tr(
            "The lab's result has no layer whose stream at the last position restores half of "
            "the difference: run it again to the end.");
        return a;
    }
    a.available = true;
    a.key = first == 1 ? QStringLiteral("first-layer") : QStringLiteral("later-layer");
    a.text = LessonWords::tr(
                 "The stream at the last position, patched alone, restores %1. It first restores half "
                 "or more after layer %2: that layer's attention carried the changed character ('%3' "
                 "at position %4) to the last position.")
                 .arg(rows.join(QStringLiteral(", ")))
                 .arg(first)
                 .arg(r.clean[changed])
                 .arg(changed + 1);
    return a;
}

LessonAnswer lossAgainstFloors(const LossLevels& levels) {
    long long bestStep = -1;
    double best = std::numeric_limits<double>::infinity();
    for (const auto& [step, loss] : levels.validation) {
        if (std::isfinite(loss) && loss < best) {
            best = loss;
            bestStep = step;
        }
    }
    LessonAnswer a;
    if (bestStep < 0 || !std::isfinite(levels.uniform) || !std::isfinite(levels.unigram)) {
        a.text = LessonWords::tr("Press Start and let the model train until its first evaluations: this answer is "
                                 "its validation loss.");
        return a;
    }
    a.available = true;
    a.key = best < levels.unigram   ? QStringLiteral("below-unigram")
            : best < levels.uniform ? QStringLiteral("between")
                                    : QStringLiteral("above-uniform");
    a.text = LessonWords::tr("Your model's lowest validation loss is %1 nats, at step %2. A uniform guess scores "
                             "%3 (ln V); a model that ignores the context cannot go below %4, the unigram entropy "
                             "of the text. Below it, the model uses what came before each character.")
                 .arg(QString::number(best, 'f', 3))
                 .arg(bestStep)
                 .arg(QString::number(levels.uniform, 'f', 3), QString::number(levels.unigram, 'f', 3));
    return a;
}

QString measuredNote(const Measured& measured) {
    if (!measured.step) return QString();
    const long long step = *measured.step;
    QString note =
        measured.run
            ? LessonWords::tr("Measured on your model at step %1 of run %2.").arg(step).arg(*measured.run)
            : LessonWords::tr("Measured on your model at step %1.").arg(step);
    if (measured.newestStep && *measured.newestStep > step)
        note += QLatin1Char(' ') + LessonWords::tr(
                                       "Its newest step is %1, where the answer may differ: move the "
                                       "timeline there and check again.")
                                       .arg(*measured.newestStep);
    return note;
}

namespace {

// The answer with the step and run it measured.
LessonAnswer measuredAt(LessonAnswer answer, std::optional<long long> step, const Inputs& inputs) {
    const QString note = measuredNote({step, inputs.run, inputs.newestStep});
    if (answer.available && !note.isEmpty()) answer.text += QLatin1Char('\n') + note;
    return answer;
}

}  // namespace

// A switch with a case for each id and no default: an id added to the table
// without its computation does not compile.
#pragma GCC diagnostic push
#pragma GCC diagnostic error "-Wswitch"
LessonAnswer compute(chargpt::LessonAnswerId id, const Inputs& inputs) {
    using Id = chargpt::LessonAnswerId;
    switch (id) {
        case Id::LossAgainstFloors:
            return lossAgainstFloors(inputs.loss);
        case Id::FeedForwardKnockout:
            if (inputs.knockout)
                return measuredAt(feedForwardKnockout(*inputs.knockout), inputs.knockout->step, inputs);
            return feedForwardKnockout(Knockout{});
        case Id::TopPart:
            return inputs.attribution && inputs.attribution->isValid()
                       ? measuredAt(topPart(*inputs.attribution), inputs.attribution->step, inputs)
                       : topPart(CharacterAttribution{});
        case Id::PatchingLayer:
            return inputs.patching && inputs.patching->isValid()
                       ? measuredAt(patchingLayer(*inputs.patching), inputs.patching->step, inputs)
                       : patchingLayer(PatchingResult{});
        case Id::SoftmaxTimes1000:
            return softmaxTimes1000(inputs.softmaxVector);
        case Id::UnscaledSpread:
            return unscaledSpread();
        case Id::AttentionToFuture:
            return inputs.attention
                       ? measuredAt(attentionToFuture(*inputs.attention), inputs.attentionStep, inputs)
                       : needsModel();
        case Id::PreviousCharacterHead:
            return inputs.attention
                       ? measuredAt(previousCharacterHead(*inputs.attention), inputs.attentionStep, inputs)
                       : needsModel();
    }
    return {};
}
#pragma GCC diagnostic pop

}  // namespace lesson_answers
