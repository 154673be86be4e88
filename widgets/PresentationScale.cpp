// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/PresentationScale.h"

#include <QApplication>
#include <QEvent>
#include <QLayout>
#include <QPlainTextEdit>
#include <QWidget>

#include <algorithm>
#include <cmath>

#include "widgets/Plot.h"

QFont scaledFont(QFont font, double factor) {
    if (!(factor > 0.0) || !std::isfinite(factor)) return font;
    if (font.pointSizeF() > 0.0)
        font.setPointSizeF(std::max(1.0, font.pointSizeF() * factor));
    else if (font.pixelSize() > 0)
        font.setPixelSize(std::max(1, int(std::lround(font.pixelSize() * factor))));
    return font;
}

namespace {

class LinesLimit : public QObject {
public:
    LinesLimit(QPlainTextEdit* edit, int lines) : QObject(edit), edit_(edit), lines_(lines) { apply(); }
    bool eventFilter(QObject* watched, QEvent* event) override {
        if (watched == edit_ && event->type() == QEvent::FontChange) apply();
        return false;
    }

private:
    // Its least height too: a text box asks 70 pixels of its own, more than
    // three lines at a small type, and would be held below it.
    void apply() { edit_->setFixedHeight(edit_->fontMetrics().lineSpacing() * lines_ + 12); }
    QPlainTextEdit* edit_;
    int lines_;
};

// Sets `object`'s font (read and written by `get` and `set`) to its scaled
// value and returns how to give it back, or nothing once `object` is gone.
template <typename T, typename Get, typename Set>
std::function<void()> scaleOne(T* object, Get get, Set set, double factor) {
    const QFont before = (object->*get)();
    (object->*set)(scaledFont(before, factor));
    return [object = QPointer<T>(object), before, set] {
        if (object) (object.data()->*set)(before);
    };
}

}  // namespace

// Every layout of `window` measured again at the new type: a hidden page's
// layout keeps the sizes it measured last (a hidden widget asks no new layout
// of its parent), and the tab widget that holds it asks the largest of its
// pages' least sizes, so that one measured while presenting would hold the
// window larger after it.
void measureAgain(QWidget* window) {
    if (!window) return;
    for (QLayout* layout : window->findChildren<QLayout*>()) layout->invalidate();
    for (QWidget* widget : window->findChildren<QWidget*>()) widget->updateGeometry();
    if (window->layout()) window->layout()->invalidate();
    window->updateGeometry();
}

void limitToLines(QPlainTextEdit* edit, int lines) {
    if (!edit) return;
    edit->installEventFilter(new LinesLimit(edit, lines));
}

void PresentationScale::apply(QWidget* window, double factor) {
    restore();
    if (!window || !(factor > 0.0)) return;
    factor_ = factor;
    applied_ = true;
    // Fonts set apart from the application's keep their own size when it
    // changes: first those, as they are now, then the application's type.
    for (QWidget* widget : window->findChildren<QWidget*>()) {
        if (!widget->testAttribute(Qt::WA_SetFont) || !(widget->font().resolveMask() & QFont::SizeResolved))
            continue;
        restores_.push_back(scaleOne(widget, &QWidget::font,
                                     static_cast<void (QWidget::*)(const QFont&)>(&QWidget::setFont), factor));
    }
    Plot::setFontScale(factor);  // every plot's type, through the plot itself
    applicationFont_ = QApplication::font();
    QApplication::setFont(scaledFont(*applicationFont_, factor));
    measureAgain(window);
}

PresentationScale::~PresentationScale() {
    if (!applied_) return;
    Plot::setFontScale(1.0);
    if (applicationFont_) QApplication::setFont(*applicationFont_);
}

void PresentationScale::restore() {
    if (!applied_) return;
    if (applicationFont_) QApplication::setFont(*applicationFont_);
    applicationFont_.reset();
    for (auto it = restores_.rbegin(); it != restores_.rend(); ++it) (*it)();
    restores_.clear();
    Plot::setFontScale(1.0);
    applied_ = false;
    factor_ = 1.0;
    for (QWidget* top : QApplication::topLevelWidgets()) measureAgain(top);
}
