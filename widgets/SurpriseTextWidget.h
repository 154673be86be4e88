// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QFont>
#include <QRectF>
#include <QString>
#include <QVector>
#include <QWidget>

#include <optional>

#include "widgets/SurpriseData.h"

class QPainter;

// One scored text painted character by character, each on the colour of its
// bits; it wraps to its width (a wide character takes the room its font
// gives it, a newline ends the line, a tab takes four spaces) and tells, on
// hover, the model's guesses there; a click asks why (characterClicked).
class SurpriseTextWidget : public QWidget {
    Q_OBJECT

public:
    explicit SurpriseTextWidget(QWidget* parent = nullptr);

    void setText(const SurpriseText& text);
    const SurpriseText& text() const { return text_; }
    // Shown instead of the characters while there are none.
    void setPlaceholder(const QString& placeholder);

    // The index of the character at `point` (widget coordinates), or none.
    std::optional<int> characterAt(const QPointF& point) const;
    // Where character `index` is painted, or an empty rectangle.
    QRectF characterRect(int index) const;
    QString toolTipAt(const QPointF& point) const;

    bool hasHeightForWidth() const override { return true; }
    int heightForWidth(int width) const override;
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

    // The font the characters are painted in: `base`, larger.
    static QFont textFont(const QFont& base);
    // Lays out `text` in lines of `width` pixels with `font`: one rectangle per
    // character, from (0, 0).
    static QVector<QRectF> layoutCharacters(const SurpriseText& text, const QFont& font, double width);
    // The same in two parts: the width of each character's cell (measuring
    // glyphs, the costly part), then the lines those widths make in `width`.
    static QVector<double> characterWidths(const SurpriseText& text, const QFont& font);
    static QVector<QRectF> wrapCharacters(const SurpriseText& text, const QVector<double>& widths, const QFont& font,
                                          double width);
    // Paints `text` laid out from target's top left within its width; returns
    // the height used. `textColor` is for the placeholder and the unknown characters.
    static double paintText(QPainter& painter, const QRectF& target, const SurpriseText& text,
                            const QFont& font, const QColor& textColor,
                            std::optional<int> highlighted = std::nullopt);

signals:
    // A left click on character `index` of the text.
    void characterClicked(int index);

protected:
    bool event(QEvent* event) override;
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void leaveEvent(QEvent* event) override;

private:
    // Cells laid out from `origin`, those meeting `exposed` painted (all when it is null).
    static double paintCells(QPainter& painter, const QPointF& origin, const QVector<QRectF>& cells,
                             const SurpriseText& text, const QFont& font, const QColor& textColor,
                             std::optional<int> highlighted, const QRectF& exposed);
    void measure();  // the characters' widths, once per text and font
    void relayout();

    SurpriseText text_;
    QString placeholder_;
    QVector<double> widths_;
    QVector<QRectF> cells_;
    mutable int heightWidth_ = -1;  // the width heightForWidth last answered for, and its answer
    mutable int height_ = 0;
    std::optional<int> hovered_;  // the character under the mouse
};
