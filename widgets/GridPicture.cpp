// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/GridPicture.h"

#include <QFontMetrics>
#include <QPainter>

#include <algorithm>

#include "widgets/ViewExport.h"

bool GridPicture::write(const QString& path, const QFont& font, const std::function<QString()>& csv,
                        QString* error) const {
    const int margin = 12, gap = 8;
    bool any = false;
    int width = 560;
    for (const Part& part : parts)
        if (part.data.isValid()) {
            any = true;
            width = std::max(width, ValueGrid::preferredSize(part.data, font, part.cell).width());
        }
    QFont bold = font;
    bold.setBold(true);
    // The height of a paragraph wrapped to the width.
    auto wrapped = [&](const QString& text, const QFont& f) {
        return text.isEmpty() ? 0
                              : QFontMetrics(f)
                                    .boundingRect(QRect(0, 0, width, 100000), Qt::AlignLeft | Qt::TextWordWrap, text)
                                    .height();
    };
    int height = wrapped(title, bold) + gap + wrapped(caption, font);
    for (const Part& part : parts)
        if (part.data.isValid())
            height += gap + (part.heading.isEmpty() ? 0 : wrapped(part.heading, bold) + 4) +
                      ValueGrid::preferredSize(part.data, font, part.cell).height();
    for (const QString& note : notes) height += gap + wrapped(note, font);
    const QSize size(width + 2 * margin, height + 2 * margin);
    return ViewExport::write(
        path, any ? size : QSize(),
        [&](QPainter& painter, const QRectF& target) {
            const QRectF inner = target.adjusted(margin, margin, -margin, -margin);
            painter.setPen(Qt::black);
            double y = inner.top();
            auto paragraph = [&](const QString& text, const QFont& f) {
                painter.setFont(f);
                const double h = wrapped(text, f);
                painter.drawText(QRectF(inner.left(), y, inner.width(), h), Qt::AlignLeft | Qt::TextWordWrap, text);
                y += h;
            };
            paragraph(title, bold);
            y += gap;
            paragraph(caption, font);
            for (const Part& part : parts) {
                if (!part.data.isValid())
                    continue;
                y += gap;
                if (!part.heading.isEmpty()) {
                    paragraph(part.heading, bold);
                    y += 4;
                }
                const QSize grid = ValueGrid::preferredSize(part.data, font, part.cell);
                painter.setFont(font);
                ValueGrid::paintGrid(painter, QRectF(inner.left(), y, inner.width(), grid.height()), part.data, font,
                                     Qt::black, part.cell);
                y += grid.height();
            }
            for (const QString& note : notes) {
                y += gap;
                paragraph(note, font);
            }
        },
        csv, error);
}
