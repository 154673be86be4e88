// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/RunsData.h"

#include <QMap>

#include <algorithm>
#include <cmath>

#include "model/train/RunFields.h"

QString RunRow::setting(const QString& key) const {
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
    const auto same = [](double x, double y) { return x == y || (std::isnan(x) && std::isnan(y)); };
    return a.id == b.id && a.name == b.name && a.origin == b.origin && a.preset == b.preset && a.corpus == b.corpus &&
           a.corpusHash == b.corpusHash && a.corpusBytes == b.corpusBytes && a.parameters == b.parameters &&
           a.started == b.started && a.ended == b.ended && a.endReason == b.endReason &&
           a.endReasonText == b.endReasonText && a.firstStep == b.firstStep && a.steps == b.steps &&
           a.tokens == b.tokens && same(a.seconds, b.seconds) && same(a.tokensPerSecond, b.tokensPerSecond) &&
           same(a.lastValLoss, b.lastValLoss) && a.bestStep == b.bestStep && same(a.bestValLoss, b.bestValLoss) &&
           a.lastCheckpoint == b.lastCheckpoint && a.settings == b.settings;
}

QString RunRow::shape() const {
    QStringList parts;
    const QString layers = setting(QStringLiteral("n_layer")), width = setting(QStringLiteral("emb_size"));
    if (!layers.isEmpty() && !width.isEmpty())
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

MeanBand meanBand(const QVector<QVector<double>>& xs, const QVector<QVector<double>>& ys) {
    MeanBand band;
    if (xs.isEmpty() || xs.size() != ys.size())
        return band;
    // The x values of the first curve that every other one has too.
    QVector<int> at(xs.size(), 0);
    for (int i = 0; i < xs[0].size() && i < ys[0].size(); ++i) {
        const double x = xs[0][i];
        double sum = 0, low = std::numeric_limits<double>::infinity(), high = -low;
        bool everywhere = true;
        for (int c = 0; c < xs.size() && everywhere; ++c) {
            const QVector<double>& cx = xs[c];
            int& j = at[c];
            while (j < cx.size() && cx[j] < x)
                ++j;
            if (j >= cx.size() || cx[j] != x || j >= ys[c].size() || !std::isfinite(ys[c][j])) {
                everywhere = false;
                break;
            }
            const double y = ys[c][j];
            sum += y;
            low = std::min(low, y);
            high = std::max(high, y);
        }
        if (!everywhere)
            continue;
        band.x << x;
        band.mean << sum / xs.size();
        band.low << low;
        band.high << high;
    }
    return band;
}

namespace {

// Each curve's points, as the x values and the losses meanBand averages.
template <typename Point>
MeanBand meanOf(const QVector<const std::vector<Point>*>& points, double Point::*loss) {
    QVector<QVector<double>> xs, ys;
    for (const std::vector<Point>* list : points) {
        QVector<double> x, y;
        for (const Point& p : *list) {
            x << double(p.step);
            y << p.*loss;
        }
        xs << x;
        ys << y;
    }
    return meanBand(xs, ys);
}

// The mean of `field` over the curves' points at `step` (each curve has one).
template <typename Point, typename Field>
double meanAt(const QVector<const std::vector<Point>*>& points, int64_t step, Field Point::*field) {
    double sum = 0.0;
    for (const std::vector<Point>* list : points) {
        const auto at = std::lower_bound(list->begin(), list->end(), step,
                                         [](const Point& p, int64_t s) { return p.step < s; });
        sum += at != list->end() && at->step == step ? double((*at).*field) : std::nan("");
    }
    return sum / double(points.size());
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
    const MeanBand train = meanOf(steps, &LossCurve::Step::loss);
    for (int i = 0; i < train.x.size(); ++i) {
        const int64_t step = int64_t(train.x[i]);
        result.mean.addStep(step, count(meanAt(steps, step, &LossCurve::Step::tokens)),
                            meanAt(steps, step, &LossCurve::Step::seconds), train.mean[i],
                            meanAt(steps, step, &LossCurve::Step::learningRate));
    }
    const MeanBand val = meanOf(evaluations, &LossCurve::Evaluation::valLoss);
    for (int i = 0; i < val.x.size(); ++i) {
        const int64_t step = int64_t(val.x[i]);
        result.mean.addEvaluation(step, count(meanAt(evaluations, step, &LossCurve::Evaluation::tokens)),
                                  meanAt(evaluations, step, &LossCurve::Evaluation::seconds),
                                  meanAt(evaluations, step, &LossCurve::Evaluation::trainLoss), val.mean[i]);
        result.valLow << val.low[i];
        result.valHigh << val.high[i];
    }
    return result;
}
