// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/RunsData.h"

#include <QCoreApplication>
#include <QMap>

#include <algorithm>
#include <cmath>
#include <tuple>

#include "model/train/RunFields.h"

namespace {

// The switches of a layer's parts (chargpt::ModelConfig): a model without
// layers (n_layer 0, a bigram) has none of them, on or off.
bool layerPart(const QString& key) {
    return key == QLatin1String("scaled_attention") || key == QLatin1String("attention_projection") ||
           key == QLatin1String("feed_forward") || key == QLatin1String("residual");
}

}  // namespace

QString RunRow::setting(const QString& key) const {
    if (layerPart(key) && setting(QStringLiteral("n_layer")) == QLatin1String("0")) return QString();
    for (const auto& [k, v] : settings)
        if (k == key)
            return v;
    // A field files keep only when it is not its default (a switch of the
    // network's parts, on unless a rung of the ladder turns it off): absent
    // from known settings, it has its default.
    const chargpt::RunField* field = chargpt::runField(key.toStdString());
    if (field && field->keptOnlyWhenChanged && !settings.isEmpty()) {
        if (field->kind == chargpt::FieldKind::Flag)
            return field->defaultValue() != 0.0 ? QStringLiteral("true") : QStringLiteral("false");
        return QString::number(field->defaultValue());
    }
    return QString();
}

bool sameRun(const RunRow& a, const RunRow& b) {
    const auto rest = [](const RunRow& r) {
        return std::tie(r.id, r.name, r.origin, r.preset, r.corpus, r.corpusHash, r.corpusBytes, r.parameters,
                        r.started, r.ended, r.endReason, r.endReasonText, r.firstStep, r.lastCheckpoint,
                        r.lastCheckpointStep, r.settings);
    };
    return chargpt::sameFigures(a, b) && rest(a) == rest(b);
}

QString RunRow::shape() const {
    QStringList parts;
    const QString layers = setting(QStringLiteral("n_layer")), width = setting(QStringLiteral("emb_size"));
    if (layers == QLatin1String("0") && !width.isEmpty())  // the token embedding and the head alone
        parts << QStringLiteral("bigram, emb %1").arg(width);
    else if (!layers.isEmpty() && !width.isEmpty())
        parts << QStringLiteral("%1 × %2").arg(layers, width);
    if (!setting(QStringLiteral("sequence_len")).isEmpty())
        parts << QStringLiteral("ctx %1").arg(setting(QStringLiteral("sequence_len")));
    if (!setting(QStringLiteral("batch_size")).isEmpty())
        parts << QStringLiteral("batch %1").arg(setting(QStringLiteral("batch_size")));
    if (!setting(QStringLiteral("learning_rate")).isEmpty())
        parts << QStringLiteral("lr %1").arg(setting(QStringLiteral("learning_rate")).toDouble());
    if (setting(QStringLiteral("bf16")) == QLatin1String("true"))
        parts << QStringLiteral("bf16");
    return parts.join(QStringLiteral(", "));
}

QStringList differingSettings(const QVector<RunRow>& runs) {
    QStringList keys;
    if (runs.size() < 2)
        return keys;
    // The fields of the settings table in its order, then any other key.
    QStringList order;
    for (const chargpt::RunField& field : chargpt::runFields())
        order << QString::fromLatin1(field.key);
    for (const RunRow& run : runs)
        for (const auto& field : run.settings)
            if (!order.contains(field.first))
                order << field.first;
    for (const QString& key : order) {
        const QString first = runs.front().setting(key);
        for (const RunRow& run : runs)
            if (run.setting(key) != first) {
                keys << key;
                break;
            }
    }
    return keys;
}

QVector<QVector<int>> seedGroups(const QVector<RunRow>& runs) {
    // The settings but the seed, and the corpus: equal keys, one group.
    QMap<QString, QVector<int>> byKey;
    QStringList order;
    for (int i = 0; i < runs.size(); ++i) {
        QStringList key{runs[i].corpusHash};
        for (const auto& [k, v] : runs[i].settings)
            if (k != QLatin1String("seed"))
                key << k + QLatin1Char('=') + v;
        const QString joined = key.join(QLatin1Char('\n'));
        if (!byKey.contains(joined))
            order << joined;
        byKey[joined] << i;
    }
    QVector<QVector<int>> groups;
    for (const QString& key : order)
        if (byKey[key].size() >= 2 && !runs[byKey[key].front()].settings.isEmpty())
            groups << byKey[key];
    return groups;
}

namespace {

// The points of the first curve that every curve has, at the same step and
// with a finite `loss`, found in one pass
// over each curve (a curve of 10,000 steps, three seeds, in well under a
// millisecond). `take(at)` gets each one's index in every curve.
template <typename Point, typename Take>
void forSharedPoints(const QVector<const std::vector<Point>*>& curves, double Point::*loss, Take take) {
    std::vector<std::size_t> at(std::size_t(curves.size()), 0);
    for (const Point& first : *curves.front()) {
        bool everywhere = true;
        for (qsizetype c = 0; c < curves.size() && everywhere; ++c) {
            const std::vector<Point>& points = *curves[c];
            std::size_t& j = at[std::size_t(c)];
            while (j < points.size() && points[j].step < first.step)
                ++j;
            everywhere = j < points.size() && points[j].step == first.step && std::isfinite(points[j].*loss);
        }
        if (everywhere)
            take(at);
    }
}

// The mean of `field` over the curves' points at `at`.
template <typename Point, typename Field>
double meanAt(const QVector<const std::vector<Point>*>& curves, const std::vector<std::size_t>& at,
              Field Point::*field) {
    double sum = 0.0;
    for (qsizetype c = 0; c < curves.size(); ++c)
        sum += double((*curves[c])[at[std::size_t(c)]].*field);
    return sum / double(curves.size());
}

}  // namespace

SeedMean seedMean(const QVector<const chargpt::LossCurve*>& curves) {
    using chargpt::LossCurve;
    SeedMean result;
    if (curves.isEmpty())
        return result;
    QVector<const std::vector<LossCurve::Step>*> steps;
    QVector<const std::vector<LossCurve::Evaluation>*> evaluations;
    for (const LossCurve* curve : curves) {
        steps << &curve->steps;
        evaluations << &curve->evaluations;
    }
    const auto count = [](double tokens) { return std::isfinite(tokens) ? int64_t(std::llround(tokens)) : -1; };
    result.mean.steps.reserve(steps.front()->size());
    forSharedPoints(steps, &LossCurve::Step::loss, [&](const std::vector<std::size_t>& at) {
        using Step = LossCurve::Step;
        result.mean.addStep((*steps.front())[at.front()].step, count(meanAt(steps, at, &Step::tokens)),
                            meanAt(steps, at, &Step::seconds), meanAt(steps, at, &Step::loss),
                            meanAt(steps, at, &Step::learningRate));
    });
    forSharedPoints(evaluations, &LossCurve::Evaluation::valLoss, [&](const std::vector<std::size_t>& at) {
        using Evaluation = LossCurve::Evaluation;
        double low = std::numeric_limits<double>::infinity(), high = -low;
        for (qsizetype c = 0; c < evaluations.size(); ++c) {
            const double v = (*evaluations[c])[at[std::size_t(c)]].valLoss;
            low = std::min(low, v);
            high = std::max(high, v);
        }
        result.mean.addEvaluation((*evaluations.front())[at.front()].step,
                                  count(meanAt(evaluations, at, &Evaluation::tokens)),
                                  meanAt(evaluations, at, &Evaluation::seconds),
                                  meanAt(evaluations, at, &Evaluation::trainLoss),
                                  meanAt(evaluations, at, &Evaluation::valLoss));
        result.valLow << low;
        result.valHigh << high;
    });
    return result;
}

QString libraryNoteText(const LibraryNote& note) {
    switch (note.kind) {
    case LibraryNote::NoDataFolder:
        return QCoreApplication::translate("RunsPage", "There is no data folder, so runs are not kept.");
    case LibraryNote::Unusable:
        return QCoreApplication::translate("RunsPage", "The run library cannot be used: %1").arg(note.detail);
    case LibraryNote::Kept:
        break;
    }
    return QCoreApplication::translate("RunsPage", "The run library: %1").arg(note.detail);
}
