// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/AttributionExport.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QPainter>

#include <algorithm>

#include "widgets/AttributionView.h"
#include "widgets/ViewExport.h"

namespace {

// The CLI's names of the parts (app/cli/CliWhy.cpp), so that both files read alike.
QString partKey(AttributionBar::Kind kind) {
    switch (kind) {
        case AttributionBar::TokenEmbedding:
            return QStringLiteral("token_embedding");
        case AttributionBar::PositionEmbedding:
            return QStringLiteral("position_embedding");
        case AttributionBar::Head:
            return QStringLiteral("head");
        case AttributionBar::ProjectionBias:
            return QStringLiteral("projection_bias");
        case AttributionBar::FeedForward:
            return QStringLiteral("feed_forward");
        case AttributionBar::FeedForwardBias:
            return QStringLiteral("feed_forward_bias");
        case AttributionBar::FinalNormBias:
            return QStringLiteral("final_norm_bias");
        case AttributionBar::HeadBias:
            return QStringLiteral("head_bias");
    }
    return QString();
}

QString counted(std::optional<int> zeroBased) {
    return zeroBased ? QString::number(*zeroBased + 1) : QString();
}

QString headName(int layer, int head) {
    AttributionBar bar;
    bar.kind = AttributionBar::Head;
    bar.layer = layer;
    bar.head = head;
    return AttributionView::partName(bar);
}

}  // namespace

QString attributionCsv(const CharacterAttribution& a) {
    using ViewExport::csvField;
    using ViewExport::csvNumber;
    QString csv = QStringLiteral("part,layer,head,position,character,value,margin\n");
    for (const AttributionBar& bar : a.bars)
        csv += QStringLiteral("%1,%2,%3,,,%4,%5\n")
                   .arg(csvField(AttributionView::partName(bar)), counted(bar.layer), counted(bar.head),
                        csvNumber(bar.logit), csvNumber(bar.margin));
    for (int i = 0; i < a.characters.size() && i < a.gradientTimesInput.size(); ++i)
        csv += QStringLiteral("gradient x input,,,%1,%2,%3,\n")
                   .arg(i + 1)
                   .arg(csvField(a.characters[i]), csvNumber(a.gradientTimesInput[i]));
    for (const AttentionPath& path : a.paths)
        for (int i = 0; i < a.characters.size() && i < path.weights.size(); ++i)
            csv += QStringLiteral("%1,%2,%3,%4,%5,%6,\n")
                       .arg(csvField(QStringLiteral("attention ") + headName(path.layer, path.head)),
                            counted(path.layer), counted(path.head), QString::number(i + 1),
                            csvField(a.characters[i]), csvNumber(path.weights[i]));
    return csv;
}

QByteArray attributionJson(const CharacterAttribution& a) {
    if (!a.isValid()) return {};
    QJsonObject out;
    out[QStringLiteral("step")] = a.step.value_or(-1);  // -1 in the file when unknown, as always
    out[QStringLiteral("text")] = a.characters.join(QString());
    out[QStringLiteral("char")] = a.chosen;
    out[QStringLiteral("top")] = a.chosenIsTop;
    out[QStringLiteral("logit")] = a.logit;
    out[QStringLiteral("probability")] = a.probability;
    out[QStringLiteral("runner_up")] =
        QJsonObject{{QStringLiteral("char"), a.runnerUp}, {QStringLiteral("logit"), a.logit - a.margin}};
    out[QStringLiteral("margin")] = a.margin;
    QJsonArray parts;
    for (const AttributionBar& bar : a.bars) {
        QJsonObject entry{{QStringLiteral("part"), partKey(bar.kind)}};
        if (bar.layer) entry[QStringLiteral("layer")] = *bar.layer + 1;
        if (bar.head) entry[QStringLiteral("head")] = *bar.head + 1;
        entry[QStringLiteral("logit")] = bar.logit;
        entry[QStringLiteral("margin")] = bar.margin;
        parts.append(entry);
    }
    out[QStringLiteral("parts")] = parts;
    out[QStringLiteral("gap_logit")] = a.gap;
    QJsonArray inputs;
    for (int i = 0; i < a.characters.size() && i < a.gradientTimesInput.size(); ++i)
        inputs.append(QJsonObject{{QStringLiteral("position"), i},
                                  {QStringLiteral("char"), a.characters[i]},
                                  {QStringLiteral("value"), a.gradientTimesInput[i]}});
    out[QStringLiteral("gradient_x_input")] = inputs;
    QJsonArray paths;
    for (const AttentionPath& path : a.paths) {
        QJsonArray weights;
        for (const double w : path.weights) weights.append(w);
        paths.append(QJsonObject{{QStringLiteral("layer"), path.layer + 1},
                                 {QStringLiteral("head"), path.head + 1},
                                 {QStringLiteral("logit"), path.logit},
                                 {QStringLiteral("weights"), weights}});
    }
    out[QStringLiteral("attention_paths")] = paths;
    return QJsonDocument(out).toJson(QJsonDocument::Indented);
}

bool exportAttribution(const QString& path, AttributionView* view, QString* error) {
    const CharacterAttribution& a = view->attribution();
    const auto fail = [error](const QString& message) {
        if (error) *error = message;
        return false;
    };
    if (!a.isValid())
        return fail(QCoreApplication::translate("AttributionExport",
                                                "There is no attribution to export yet: "
                                                "click a character first."));
    if (QFileInfo(path).suffix().compare(QLatin1String("json"), Qt::CaseInsensitive) == 0)
        return ViewExport::writeBytes(path, attributionJson(a), error);
    const ViewExport::Format format = ViewExport::formatOf(path);
    if (format != ViewExport::Format::Png && format != ViewExport::Format::Svg &&
        format != ViewExport::Format::Csv)
        return fail(
            QCoreApplication::translate("AttributionExport",
                                        "Unknown file type \u201c%1\u201d: use .png, .svg, .csv or .json.")
                .arg(QFileInfo(path).suffix()));
    if (!view->isVisible()) view->adjustSize();  // laid out as it would be shown
    const QSize size = view->size();
    return ViewExport::write(
        path, size,
        [view](QPainter& painter, const QRectF& target) { ViewExport::paintWidget(painter, target, view); },
        [&a] { return attributionCsv(a); }, error);
}
