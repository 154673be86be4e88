// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/FilmstripExport.h"

#include <QFileInfo>

#include <cmath>

namespace {

QString lossText(double valLoss) {
    return std::isfinite(valLoss) ? QString::number(valLoss, 'f', 4) : QStringLiteral("-");
}

QString shownPrompt(const QString& prompt) {
    if (prompt.isEmpty()) return QStringLiteral("none (the start of a document)");
    QString quoted = prompt;
    quoted.replace(QLatin1Char('\\'), QLatin1String("\\\\")).replace(QLatin1Char('\n'), QLatin1String("\\n"));
    return QLatin1Char('"') + quoted + QLatin1Char('"');
}

}  // namespace

QString filmstripRowHeading(const FilmstripRow& row) {
    const QString step = QStringLiteral("step %1").arg(row.step);
    if (!row.sampled()) return step + QStringLiteral("   skipped: ") + row.skipped;
    return step + QStringLiteral("   val loss ") + lossText(row.valLoss);
}

QString filmstripHeading(const FilmstripSamples& samples) {
    QString run = QStringLiteral("run %1").arg(samples.run);
    if (!samples.runName.isEmpty()) run += QStringLiteral(" (%1)").arg(samples.runName);
    // One pass of arg(): a %N in the prompt or the run's name stays as it is.
    return QStringLiteral("Filmstrip of %1: prompt %2, seed %3, temperature %4, up to %5 characters, %6 step(s)")
        .arg(run, shownPrompt(samples.prompt), QString::number(samples.seed), QString::number(samples.temperature),
             QString::number(samples.chars), QString::number(samples.rows.size()));
}

QString filmstripTextBlock(const FilmstripRow& row, const QString& prompt) {
    QString block = filmstripRowHeading(row) + QLatin1Char('\n');
    if (row.sampled()) block += prompt + row.text + QLatin1Char('\n');
    return block + QLatin1Char('\n');
}

QString filmstripText(const FilmstripSamples& samples) {
    QString text = filmstripHeading(samples) + QStringLiteral("\n\n");
    for (const FilmstripRow& row : samples.rows) text += filmstripTextBlock(row, samples.prompt);
    return text;
}

QString filmstripHtml(const FilmstripSamples& samples) {
    QString html = QStringLiteral(
        "<!DOCTYPE html>\n<html>\n<head>\n<meta charset=\"utf-8\">\n<title>%1</title>\n<style>\n"
        "body { font-family: sans-serif; margin: 1.5em; }\n"
        "table { border-collapse: collapse; width: 100%; }\n"
        "th, td { border-bottom: 1px solid #ddd; padding: 0.4em 0.6em; text-align: left; vertical-align: top; }\n"
        "td.step, td.loss { white-space: nowrap; font-variant-numeric: tabular-nums; }\n"
        "td.sample { font-family: monospace; white-space: pre-wrap; overflow-wrap: anywhere; }\n"
        "td.skipped { color: #a33; font-style: italic; }\n"
        "span.prompt { color: #888; }\n"
        "</style>\n</head>\n<body>\n<h1>%1</h1>\n<p>%2</p>\n<table>\n"
        "<tr><th>step</th><th>val loss</th><th>sample</th></tr>\n")
                       .arg(QStringLiteral("Filmstrip of run %1").arg(samples.run).toHtmlEscaped(),
                            filmstripHeading(samples).toHtmlEscaped());
    // Each sample after its prompt, in grey: a row reads as the model wrote it.
    const QString prompt = samples.prompt.isEmpty()
                               ? QString()
                               : QStringLiteral("<span class=\"prompt\">%1</span>").arg(samples.prompt.toHtmlEscaped());
    for (const FilmstripRow& row : samples.rows) {
        html += QStringLiteral("<tr><td class=\"step\">%1</td><td class=\"loss\">%2</td>")
                    .arg(row.step)
                    .arg(row.sampled() ? lossText(row.valLoss) : QStringLiteral("-"));
        if (row.sampled())
            html += QStringLiteral("<td class=\"sample\">%1%2</td></tr>\n").arg(prompt, row.text.toHtmlEscaped());
        else
            html += QStringLiteral("<td class=\"skipped\">skipped: %1</td></tr>\n").arg(row.skipped.toHtmlEscaped());
    }
    return html + QStringLiteral("</table>\n</body>\n</html>\n");
}

bool renderFilmstrip(const QString& path, const FilmstripSamples& samples, QByteArray* bytes, QString* error) {
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == QLatin1String("html") || suffix == QLatin1String("htm")) {
        *bytes = filmstripHtml(samples).toUtf8();
        return true;
    }
    if (suffix == QLatin1String("txt")) {
        *bytes = filmstripText(samples).toUtf8();
        return true;
    }
    if (error) *error = QStringLiteral("choose a file name ending in .html or .txt, not '%1'.").arg(path);
    return false;
}
