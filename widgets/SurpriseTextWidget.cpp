// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/SurpriseTextWidget.h"
#include "widgets/PresentationScale.h"

#include <QEvent>
#include <QFontMetricsF>
#include <QHash>
#include <QHelpEvent>
#include <QResizeEvent>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>

#include <algorithm>
#include <cmath>

#include "widgets/AttentionData.h"  // displayCharacter
#include "widgets/PlainToolTip.h"

namespace {

constexpr double kCellPadding = 1.0;
constexpr double kLineGap = 3.0;

QColor unknownColor() { return QColor(0xd8, 0xd8, 0xd8); }
QColor unscoredColor() { return QColor(0xc8, 0xc8, 0xc8); }

// The glyph painted for a character: visible symbols for newline and tab, a
// middle dot for other control characters; a space stays blank.
QString glyphOf(const QString& character) {
    if (character == QLatin1String("\n") || character == QLatin1String("\t"))
        return displayCharacter(character);
    if (character == QLatin1String(" "))
        return QString();
    return displayCharacter(character);
}

}  // namespace

QFont SurpriseTextWidget::textFont(const QFont& base) {
    return scaledFont(base, 1.3);
}

SurpriseTextWidget::SurpriseTextWidget(QWidget* parent) : QWidget(parent) {
    setFont(textFont(font()));
    setMouseTracking(true);
    QSizePolicy policy(QSizePolicy::Expanding, QSizePolicy::Preferred);
    policy.setHeightForWidth(true);
    setSizePolicy(policy);
}

void SurpriseTextWidget::setText(const SurpriseText& text) {
    text_ = text;
    hovered_.reset();
    measure();
    relayout();
}

void SurpriseTextWidget::setPlaceholder(const QString& placeholder) {
    placeholder_ = placeholder;
    update();
}

QVector<double> SurpriseTextWidget::characterWidths(const SurpriseText& text, const QFont& font) {
    const QFontMetricsF metrics(font);
    const double minimum = std::max(4.0, metrics.averageCharWidth() * 0.6);
    const double space = metrics.horizontalAdvance(QLatin1Char(' '));
    QVector<double> widths;
    widths.reserve(text.size());
    // Measuring a glyph is what costs in a layout: each distinct character is
    // measured once (a text of thousands has a few dozen).
    QHash<QString, double> measured;
    for (const SurpriseChar& c : text.characters) {
        double w;
        if (c.character == QLatin1String("\t"))
            w = 4 * std::max(space, minimum);
        else if (c.character == QLatin1String(" "))
            w = std::max(space, minimum);
        else {
            auto found = measured.constFind(c.character);
            if (found == measured.constEnd())
                found = measured.insert(c.character, std::max(metrics.horizontalAdvance(glyphOf(c.character)), minimum));
            w = found.value();
        }
        widths.append(w + 2 * kCellPadding);
    }
    return widths;
}

QVector<QRectF> SurpriseTextWidget::wrapCharacters(const SurpriseText& text, const QVector<double>& widths,
                                                   const QFont& font, double width) {
    const double height = std::ceil(QFontMetricsF(font).height()) + 2 * kCellPadding;
    QVector<QRectF> cells;
    cells.reserve(text.size());
    double x = 0.0, y = 0.0;
    for (int i = 0; i < text.size() && i < widths.size(); ++i) {
        const double w = widths[i];
        if (x > 0.0 && x + w > width) {
            x = 0.0;
            y += height + kLineGap;
        }
        cells.append(QRectF(x, y, w, height));
        x += w;
        if (text.characters[i].character == QLatin1String("\n")) {
            x = 0.0;
            y += height + kLineGap;
        }
    }
    return cells;
}

QVector<QRectF> SurpriseTextWidget::layoutCharacters(const SurpriseText& text, const QFont& font, double width) {
    return wrapCharacters(text, characterWidths(text, font), font, width);
}

double SurpriseTextWidget::paintText(QPainter& painter, const QRectF& target, const SurpriseText& text,
                                     const QFont& font, const QColor& textColor,
                                     std::optional<int> highlighted) {
    const QVector<QRectF> cells = layoutCharacters(text, font, target.width());
    return paintCells(painter, target.topLeft(), cells, text, font, textColor, highlighted, QRectF());
}

double SurpriseTextWidget::paintCells(QPainter& painter, const QPointF& origin, const QVector<QRectF>& cells,
                                      const SurpriseText& text, const QFont& font, const QColor& textColor,
                                      std::optional<int> highlighted, const QRectF& exposed) {
    painter.save();
    painter.setFont(font);
    painter.translate(origin);
    double bottom = 0.0;
    for (int i = 0; i < cells.size() && i < text.size(); ++i) {
        const QRectF& cell = cells[i];
        bottom = std::max(bottom, cell.bottom());
        // Cells outside the part to repaint are not drawn (a long text in a
        // scroll area shows a few lines of it).
        if (!exposed.isNull() && !exposed.intersects(cell))
            continue;
        const SurpriseChar& c = text.characters[i];
        QColor background, foreground;
        if (!c.known) {
            background = unknownColor();
            foreground = QColor(0x70, 0x70, 0x70);
        } else if (!c.scored()) {
            background = unscoredColor();
            foreground = Qt::black;
        } else {
            background = surpriseCharColor(text, c);
            foreground = surpriseTextColor(background);
        }
        painter.fillRect(cell, background);
        if (!c.known) {
            painter.setPen(QPen(QColor(0x99, 0x99, 0x99), 1.0));
            painter.drawLine(QPointF(cell.left(), cell.center().y()), QPointF(cell.right(), cell.center().y()));
        }
        const QString glyph = glyphOf(c.character);
        if (!glyph.isEmpty()) {
            painter.setPen(foreground);
            painter.drawText(cell, Qt::AlignCenter, glyph);
        }
        if (i == highlighted) {
            painter.setPen(QPen(textColor, 2.0));
            painter.setBrush(Qt::NoBrush);
            painter.drawRect(cell.adjusted(0.5, 0.5, -0.5, -0.5));
        }
    }
    Q_UNUSED(textColor);
    painter.restore();
    return bottom;
}

int SurpriseTextWidget::heightForWidth(int width) const {
    if (text_.isEmpty())
        return fontMetrics().height() * 2;
    // The layout asks several times for the same width while it settles.
    if (width != heightWidth_) {
        const QVector<QRectF> cells = wrapCharacters(text_, widths_, font(), width);
        heightWidth_ = width;
        height_ = cells.isEmpty() ? fontMetrics().height() * 2 : int(std::ceil(cells.constLast().bottom())) + 4;
    }
    return height_;
}

QSize SurpriseTextWidget::sizeHint() const { return QSize(400, heightForWidth(400)); }

QSize SurpriseTextWidget::minimumSizeHint() const { return QSize(80, fontMetrics().height() * 2); }

void SurpriseTextWidget::measure() {
    widths_ = characterWidths(text_, font());
    heightWidth_ = -1;
}

void SurpriseTextWidget::relayout() {
    cells_ = wrapCharacters(text_, widths_, font(), width());
    updateGeometry();
    update();
}

void SurpriseTextWidget::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    if (event->size().width() != event->oldSize().width())
        cells_ = wrapCharacters(text_, widths_, font(), width());
}

std::optional<int> SurpriseTextWidget::characterAt(const QPointF& point) const {
    for (int i = 0; i < cells_.size(); ++i)
        if (cells_[i].contains(point))
            return i;
    return std::nullopt;
}

QRectF SurpriseTextWidget::characterRect(int index) const {
    return index >= 0 && index < cells_.size() ? cells_[index] : QRectF();
}

QString SurpriseTextWidget::toolTipAt(const QPointF& point) const {
    const std::optional<int> index = characterAt(point);
    return index ? surpriseToolTip(text_, *index) : QString();
}

bool SurpriseTextWidget::event(QEvent* event) {
    if (event->type() == QEvent::FontChange) {
        measure();
        relayout();
    }
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        if (const std::optional<int> index = characterAt(help->pos()))
            QToolTip::showText(help->globalPos(), plainToolTip(surpriseToolTip(text_, *index)), this,
                               characterRect(*index).toAlignedRect());
        else
            QToolTip::hideText();
        return true;
    }
    return QWidget::event(event);
}

void SurpriseTextWidget::paintEvent(QPaintEvent* event) {
    QPainter painter(this);
    if (text_.isEmpty()) {
        painter.setPen(palette().color(QPalette::PlaceholderText));
        painter.drawText(rect().adjusted(4, 4, -4, -4), Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap, placeholder_);
        return;
    }
    paintCells(painter, QPointF(0, 0), cells_, text_, font(), palette().color(QPalette::Highlight), hovered_,
               QRectF(event->rect()));
}

void SurpriseTextWidget::mouseMoveEvent(QMouseEvent* event) {
    const std::optional<int> index = characterAt(event->position());
    if (index != hovered_) {
        hovered_ = index;
        update();
    }
    QWidget::mouseMoveEvent(event);
}

void SurpriseTextWidget::mouseReleaseEvent(QMouseEvent* event) {
    const std::optional<int> index =
        event->button() == Qt::LeftButton ? characterAt(event->position()) : std::nullopt;
    if (index) emit characterClicked(*index);
    QWidget::mouseReleaseEvent(event);
}

void SurpriseTextWidget::leaveEvent(QEvent* event) {
    if (hovered_) {
        hovered_.reset();
        update();
    }
    QWidget::leaveEvent(event);
}
