// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The picture the grid views of the Inside page export (the logit lens, the
// feed-forward and the residual stream): a bold title, the view's explanation
// wrapped to the width, then each grid under its heading, and any closing
// lines below. Saved, or refused, as every export is (ViewExport.h).

#include <QFont>
#include <QString>
#include <QStringList>
#include <QVector>
#include <functional>

#include "widgets/ValueGrid.h"

struct GridPicture {
    struct Part {
        QString heading;  // above the grid; may be empty
        ValueGridData data;
        double cell = 26.0;  // the largest cell side, as the view draws it
    };
    QString title;
    QString caption;
    QVector<Part> parts;
    QStringList notes;  // paragraphs under the grids

    // Writes the picture (.png, .svg, .pdf) or `csv()` (.csv) to `path`;
    // refused, with `error` set, when no part has data.
    bool write(const QString& path, const QFont& font, const std::function<QString()>& csv,
               QString* error = nullptr) const;
};
