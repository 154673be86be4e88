// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <QFont>
#include <QSize>
#include <QString>
#include <QVector>

#include "widgets/SurpriseData.h"
#include "widgets/ViewExport.h"

// The size of the picture of `texts` (.png or .svg) in pixels.
QSize surprisePictureSize(const QVector<SurpriseText>& texts, const QFont& font);

// Writes `texts` to `path` by its suffix: .png or .svg (the texts painted one
// under the other with the colour scale, 1,000 pixels wide; refused past
// ViewExport::kMaxPictureSide tall, 64 MB of pixels, about 55,000 characters
// of running text, fewer with many line breaks), .html (a page, each character a coloured span
// with its tooltip as title) or .csv (one row per character).
// `title` heads the picture and the page. Needs a QGuiApplication.
bool exportSurprise(const QString& path, const QVector<SurpriseText>& texts, const QString& title, const QFont& font,
                    QString* error = nullptr);
// The bytes exportSurprise would write to `path` (whose suffix chooses the
// format), for a caller that saves them by its own rules (`chargpt surprise`).
bool renderSurprise(const QString& path, const QVector<SurpriseText>& texts, const QString& title, const QFont& font,
                    QByteArray* bytes, QString* error = nullptr);
