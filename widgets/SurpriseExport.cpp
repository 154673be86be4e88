// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/SurpriseExport.h"

#include <QCoreApplication>
#include <QFileInfo>
#include <QFontMetricsF>
#include <QPainter>

#include <algorithm>
#include <cmath>

#include "widgets/SurpriseLegend.h"
#include "widgets/SurpriseTextWidget.h"
#include "widgets/ViewExport.h"

namespace {

constexpr double kExportWidth = 1000.0;
constexpr double kMargin = 16.0;

}  // namespace

QSize surprisePictureSize(const QVector<SurpriseText>& texts, const QFont& font) {
    const QFontMetricsF metrics(font);
    const QFont textFont = SurpriseTextWidget::textFont(font);
    const double line = std::ceil(metrics.lineSpacing());
    const double textWidth = kExportWidth - 2 * kMargin;
    const double legendHeight = line * 2 + 12;
    const int colourLines = surpriseComparison(texts) ? 2 : 1;
    double height = kMargin + line * (1 + colourLines) + legendHeight + 8;
    for (const SurpriseText& text : texts) {
        const QVector<QRectF> cells = SurpriseTextWidget::layoutCharacters(text, textFont, textWidth);
        height += line * 2 + 4 + (cells.isEmpty() ? line : cells.constLast().bottom()) + 16;
    }
    height += kMargin;
    // Past what an int holds the picture is refused anyway.
    return QSize(int(kExportWidth), int(std::min(std::ceil(height), 2e9)));
}

bool exportSurprise(const QString& path, const QVector<SurpriseText>& texts, const QString& title, const QFont& font,
                    QString* error) {
    QByteArray bytes;
    return renderSurprise(path, texts, title, font, &bytes, error) && ViewExport::writeBytes(path, bytes, error);
}

bool renderSurprise(const QString& path, const QVector<SurpriseText>& texts, const QString& title, const QFont& font,
                    QByteArray* bytes, QString* error) {
    auto fail = [&](const QString& message) {
        if (error)
            *error = message;
        return false;
    };
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == QLatin1String("html") || suffix == QLatin1String("htm") || suffix == QLatin1String("csv")) {
        const QString content = suffix == QLatin1String("csv") ? surpriseCsv(texts) : surpriseHtml(texts, title);
        *bytes = content.toUtf8();
        return true;
    }
    if (suffix != QLatin1String("png") && suffix != QLatin1String("svg"))
        return fail(QCoreApplication::translate("SurpriseView", "Choose a file name ending in .png, .svg, .html or .csv."));

    const QSize size = surprisePictureSize(texts, font);
    if (size.height() > ViewExport::kMaxPictureSide)
        return fail(
            QCoreApplication::translate("SurpriseView",
                                        "The picture would be %1 x %2 pixels; a picture is at most %3 pixels "
                                        "tall. Export a shorter text, or as HTML or CSV.")
                .arg(size.width())
                .arg(size.height())
                .arg(ViewExport::kMaxPictureSide));
    // The page: the title, the colour scale, then each text under its heading.
    const QFontMetricsF metrics(font);
    QFont headingFont = font;
    headingFont.setBold(true);
    const QFont textFont = SurpriseTextWidget::textFont(font);
    const double margin = kMargin, line = std::ceil(metrics.lineSpacing());
    const double textWidth = kExportWidth - 2 * margin;
    const double legendHeight = line * 2 + 12;
    const SurpriseText* compared = surpriseComparison(texts);
    const QString colours = !compared ? QCoreApplication::translate("SurpriseView",
                                                                    "Colour: bits of surprise, dark = expected, "
                                                                    "bright = surprising; grey: not scored")
                                      : surpriseComparisonText(*compared);
    const int colourLines = compared ? 2 : 1;
    int maximumVocabulary = 0;
    for (const SurpriseText& text : texts)
        maximumVocabulary = std::max(maximumVocabulary, text.vocabularySize);
    return ViewExport::renderPicture(
        path, size,
        [&](QPainter& painter, const QRectF& target) {
            double y = target.top() + margin;
            painter.setPen(Qt::black);
            painter.setFont(headingFont);
            painter.drawText(QPointF(margin, y + metrics.ascent()), title);
            y += line;
            painter.setFont(font);
            painter.drawText(QRectF(margin, y, textWidth, line * colourLines),
                             Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap, colours);
            y += line * colourLines;
            const QRectF legend(margin, y + 4, std::min(textWidth, 480.0), legendHeight - 8);
            if (!compared)
                SurpriseLegend::paintLegend(painter, legend, surpriseScaleMaximum(maximumVocabulary), font, Qt::black);
            else
                SurpriseLegend::paintDifferenceLegend(painter, legend, font, Qt::black);
            y += legendHeight + 8;
            for (const SurpriseText& text : texts) {
                painter.setPen(Qt::black);
                painter.setFont(headingFont);
                painter.drawText(QPointF(margin, y + metrics.ascent()), text.label);
                y += line;
                painter.setFont(font);
                painter.drawText(QPointF(margin, y + metrics.ascent()), surpriseMeanText(text));
                y += line + 4;
                const double used = SurpriseTextWidget::paintText(painter, QRectF(margin, y, textWidth, 1e6), text,
                                                                  textFont, Qt::black);
                y += (text.isEmpty() ? line : used) + 16;
            }
        },
        bytes, error);
}
