// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/CorpusNames.h"

#include <QCoreApplication>

// The texts keep the translation context of the corpus panel, which named them first.
QString corpusShownName(const QString& source) {
    if (source == QLatin1String("builtin:tang300"))
        return QCoreApplication::translate("CorpusPanel", "Tang poems (唐诗三百首)");
    if (source == QLatin1String("builtin:song100"))
        return QCoreApplication::translate("CorpusPanel", "Song lyrics (宋词一百首)");
    if (source == QLatin1String("builtin:python"))
        return QCoreApplication::translate("CorpusPanel", "Python standard library");
    return source;
}
