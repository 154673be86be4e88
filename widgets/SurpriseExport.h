// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArray>
#include <QFont>
#include <QString>
#include <QVector>

#include "SurpriseData.h"

// Writes `texts` to `path` by its suffix: .png or .svg (the texts painted one
// under the other with the colour scale), .html (a page, each character a
// coloured span with its tooltip as title) or .csv (one row per character).
// `title` heads the picture and the page. Needs a QGuiApplication.
bool exportSurprise(const QString& path, const QVector<SurpriseText>& texts, const QString& title, const QFont& font,
                    QString* error = nullptr);
// The bytes exportSurprise would write to `path` (whose suffix chooses the
// format), for a caller that saves them by its own rules (`chargpt surprise`).
bool renderSurprise(const QString& path, const QVector<SurpriseText>& texts, const QString& title, const QFont& font,
                    QByteArray* bytes, QString* error = nullptr);
