// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The one way the views write their exports (the loss plot and the "inside
// the model" views): a picture (PNG, SVG or PDF, chosen by the file's suffix)
// painted by a function, or a CSV text. Every file is saved as the project
// saves every file (chargpt::writeFileAtomically, model/io/AtomicFile.h): only
// a regular file is replaced (a named pipe, a folder or a file with another
// hard link is refused), through an exclusively created temporary file, so a
// failed export never leaves a half-written file nor replaces the one that was
// there. The command-line tool takes the bytes (renderPicture) and saves them
// the same way.

#include <QByteArray>
#include <QRectF>
#include <QSize>
#include <QString>
#include <functional>

class QCustomPlot;
class QPainter;
class QWidget;

namespace ViewExport {

enum class Format { Png, Svg, Pdf, Csv, Unknown };

// By the suffix of `path`, case-insensitive.
Format formatOf(const QString& path);

using Painting = std::function<void(QPainter&, const QRectF&)>;

// The longest side a picture may have, in pixels: a PNG of 16,384 x 16,384 is
// 1 GB of pixels to paint. A larger `size` is refused before anything is
// painted, saying how large it would be.
constexpr int kMaxPictureSide = 16384;

// Paints with `paint` on white into a `size` picture written to `path` (.png,
// .svg or .pdf, a page of that size). Needs a QGuiApplication, not a window.
bool writePicture(const QString& path, const QSize& size, const Painting& paint, QString* error = nullptr);
// The same picture as the bytes of the file writePicture would write, in `bytes`.
bool renderPicture(const QString& path, const QSize& size, const Painting& paint, QByteArray* bytes,
                   QString* error = nullptr);
// Writes `bytes` to `path` by the project's save rules (above).
bool writeBytes(const QString& path, const QByteArray& bytes, QString* error = nullptr);
// Writes `text` as UTF-8 to `path`.
bool writeText(const QString& path, const QString& text, QString* error = nullptr);
// A picture for .png and .svg, `csv()` for .csv, and for any other suffix the
// message "Choose a file name ending in .png, .svg or .csv."
bool write(const QString& path, const QSize& size, const Painting& paint, const std::function<QString()>& csv,
           QString* error = nullptr);

// A plot's export: a picture of `plot`, at least `minimum` large, for .png,
// .svg and .pdf, `csv()` for .csv; any other suffix refused with the message
// "Unknown file type "x": use .png, .svg, .pdf or .csv."
bool writePlot(const QString& path, QCustomPlot* plot, const QSize& minimum,
               const std::function<QString()>& csv, QString* error = nullptr);
// Shows why an export failed, as plain text, under the button that asked for it.
void showFailureAt(QWidget* button, const QString& error);

// Draws `plot` into `target` as vector graphics (lines and text stay lines
// and text in an SVG file).
void paintPlot(QPainter& painter, const QRectF& target, QCustomPlot* plot);
// Draws `widget` and its children, as it would be on screen, into `target`.
void paintWidget(QPainter& painter, const QRectF& target, QWidget* widget);

// A CSV field, quoted when it holds a comma, a quote or a line break.
QString csvField(const QString& field);
// A number for a CSV cell; empty for NaN.
QString csvNumber(double value, int significant = 6);

// The file dialog's choices of a view's export: PNG, SVG and CSV.
QString pictureFilters();
// Asks for a file name (starting at `suggestedName`, among `filters`, by
// default pictureFilters()) and runs `exportTo` on it; a failure is shown in
// a message box. The dialog's title is `title`.
void chooseAndExport(QWidget* parent, const QString& title, const QString& suggestedName,
                     const std::function<bool(const QString&, QString*)>& exportTo,
                     const QString& filters = QString());

}  // namespace ViewExport
