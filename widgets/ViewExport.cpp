// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/ViewExport.h"

#include <QBuffer>
#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QImage>
#include <QMessageBox>
#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>
#include <QPicture>
#include <QSvgGenerator>
#include <QToolTip>
#include <QWidget>
#include <algorithm>
#include <cmath>
#include <exception>
#include <string_view>

#include "model/io/AtomicFile.h"
#include "qcustomplot.h"
#include "widgets/PlainToolTip.h"

namespace ViewExport {

namespace {

bool fail(QString* error, const QString& message) {
    if (error) *error = message;
    return false;
}

QString cannotWrite(const QString& path, const QString& reason) {
    return QCoreApplication::translate("ViewExport", "Cannot write %1: %2")
        .arg(QDir::toNativeSeparators(path), reason);
}

}  // namespace

Format formatOf(const QString& path) {
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == QLatin1String("png")) return Format::Png;
    if (suffix == QLatin1String("svg")) return Format::Svg;
    if (suffix == QLatin1String("pdf")) return Format::Pdf;
    if (suffix == QLatin1String("csv")) return Format::Csv;
    return Format::Unknown;
}

bool renderPicture(const QString& path, const QSize& size, const Painting& paint, QByteArray* bytes,
                   QString* error) {
    const Format format = formatOf(path);
    if (format != Format::Png && format != Format::Svg && format != Format::Pdf)
        return fail(error,
                    QCoreApplication::translate("ViewExport", "Choose a file name ending in .png or .svg."));
    if (!size.isValid() || size.isEmpty())
        return fail(error, QCoreApplication::translate("ViewExport", "There is nothing to draw yet."));
    if (size.width() > kMaxPictureSide || size.height() > kMaxPictureSide)
        return fail(error, QCoreApplication::translate("ViewExport",
                                                       "This picture would be %1 x %2 pixels; a picture is at most "
                                                       "%3 pixels a side: show fewer characters.")
                               .arg(size.width())
                               .arg(size.height())
                               .arg(kMaxPictureSide));
    const QRectF target(QPointF(0, 0), QSizeF(size));

    bytes->clear();
    QBuffer file(bytes);
    file.open(QIODevice::WriteOnly);
    if (format == Format::Svg) {
        QSvgGenerator generator;
        generator.setOutputDevice(&file);
        generator.setSize(size);
        generator.setViewBox(QRect(QPoint(0, 0), size));
        // The resolution of a PNG (and of the recorded plots): text and
        // plots come out the same size in both formats.
        generator.setResolution(QImage(1, 1, QImage::Format_RGB32).logicalDpiX());
        generator.setTitle(QStringLiteral("CharGPT Studio"));
        QPainter painter;
        if (!painter.begin(&generator)) return fail(error, cannotWrite(path, file.errorString()));
        painter.fillRect(target, Qt::white);
        paint(painter, target);
        painter.end();
    } else if (format == Format::Pdf) {
        // One page the size of the picture: pixels at the screen's resolution.
        const int dpi = QImage(1, 1, QImage::Format_RGB32).logicalDpiX();
        QPdfWriter writer(&file);
        writer.setResolution(dpi);
        writer.setPageSize(QPageSize(QSizeF(size) * 72.0 / dpi, QPageSize::Point));
        writer.setPageMargins(QMarginsF(0, 0, 0, 0));
        writer.setTitle(QStringLiteral("CharGPT Studio"));
        writer.setCreator(QStringLiteral("CharGPT Studio"));
        QPainter painter;
        if (!painter.begin(&writer)) return fail(error, cannotWrite(path, file.errorString()));
        painter.fillRect(target, Qt::white);
        paint(painter, target);
        painter.end();
    } else {
        QImage image(size, QImage::Format_ARGB32_Premultiplied);
        image.fill(Qt::white);
        {
            QPainter painter(&image);
            paint(painter, target);
        }
        if (!image.save(&file, "PNG")) return fail(error, cannotWrite(path, file.errorString()));
    }
    file.close();
    if (bytes->isEmpty()) return fail(error, cannotWrite(path, file.errorString()));
    return true;
}

bool writeBytes(const QString& path, const QByteArray& bytes, QString* error) {
    try {
        chargpt::writeFileAtomically(QFile::encodeName(path).toStdString(),
                                     std::string_view(bytes.constData(), std::size_t(bytes.size())));
    } catch (const std::exception& e) {
        // "cannot save to PATH: why": the why, after this view's own words.
        const QString message = QString::fromLocal8Bit(e.what());
        const QString prefix = QStringLiteral("cannot save to ") + QString::fromLocal8Bit(QFile::encodeName(path)) +
                               QStringLiteral(": ");
        return fail(error, cannotWrite(path, message.startsWith(prefix) ? message.mid(prefix.size()) : message));
    }
    return true;
}

bool writePicture(const QString& path, const QSize& size, const Painting& paint, QString* error) {
    QByteArray bytes;
    return renderPicture(path, size, paint, &bytes, error) && writeBytes(path, bytes, error);
}

bool writeText(const QString& path, const QString& text, QString* error) {
    return writeBytes(path, text.toUtf8(), error);
}

bool write(const QString& path, const QSize& size, const Painting& paint, const std::function<QString()>& csv,
           QString* error) {
    switch (formatOf(path)) {
        case Format::Png:
        case Format::Svg:
        case Format::Pdf:
            return writePicture(path, size, paint, error);
        case Format::Csv:
            return writeText(path, csv(), error);
        case Format::Unknown:
            break;
    }
    return fail(
        error, QCoreApplication::translate("ViewExport", "Choose a file name ending in .png, .svg or .csv."));
}

bool writePlot(const QString& path, QCustomPlot* plot, const QSize& minimum,
               const std::function<QString()>& csv, QString* error) {
    if (formatOf(path) == Format::Unknown)
        return fail(error, QCoreApplication::translate(
                               "ViewExport", "Unknown file type “%1”: use .png, .svg, .pdf or .csv.")
                               .arg(QFileInfo(path).suffix()));
    const QSize size(std::max(plot->width(), minimum.width()), std::max(plot->height(), minimum.height()));
    return write(
        path, size, [plot](QPainter& painter, const QRectF& target) { paintPlot(painter, target, plot); },
        csv, error);
}

void showFailureAt(QWidget* button, const QString& error) {
    QToolTip::showText(button->mapToGlobal(QPoint(0, button->height())), plainToolTip(error), button);
}

void paintPlot(QPainter& painter, const QRectF& target, QCustomPlot* plot) {
    const int width = std::max(1, int(target.width())), height = std::max(1, int(target.height()));
    // QCustomPlot paints only into its own painter class: record it as a
    // picture, which replays as lines and text on any device.
    QPicture picture;
    {
        QCPPainter recorder(&picture);
        plot->toPainter(&recorder, width, height);
    }
    painter.save();
    painter.translate(target.topLeft());
    painter.drawPicture(QPointF(0, 0), picture);
    painter.restore();
}

void paintWidget(QPainter& painter, const QRectF& target, QWidget* widget) {
    const QSize size = widget->size();
    if (size.isEmpty()) return;
    painter.save();
    painter.translate(target.topLeft());
    const double scale = std::min(target.width() / size.width(), target.height() / size.height());
    if (scale < 1.0) painter.scale(scale, scale);
    widget->render(&painter, QPoint(), QRegion(), QWidget::DrawChildren);
    painter.restore();
}

QString csvField(const QString& field) {
    if (!field.contains(QLatin1Char(',')) && !field.contains(QLatin1Char('"')) &&
        !field.contains(QLatin1Char('\n')) && !field.contains(QLatin1Char('\r')))
        return field;
    QString escaped = field;
    escaped.replace(QLatin1String("\""), QLatin1String("\"\""));
    return QLatin1Char('"') + escaped + QLatin1Char('"');
}

QString csvNumber(double value, int significant) {
    return std::isfinite(value) ? QString::number(value, 'g', significant) : QString();
}

QString pictureFilters() {
    return QCoreApplication::translate("ViewExport", "PNG image (*.png);;SVG image (*.svg);;CSV table (*.csv)");
}

void chooseAndExport(QWidget* parent, const QString& title, const QString& suggestedName,
                     const std::function<bool(const QString&, QString*)>& exportTo, const QString& filters) {
    const QString path =
        QFileDialog::getSaveFileName(parent, title, suggestedName, filters.isEmpty() ? pictureFilters() : filters);
    if (path.isEmpty()) return;
    QString error;
    if (exportTo(path, &error)) return;
    QMessageBox box(QMessageBox::Warning, title, error, QMessageBox::Ok, parent);
    box.setTextFormat(Qt::PlainText);  // the message names the file: never markup
    box.exec();
}

}  // namespace ViewExport
