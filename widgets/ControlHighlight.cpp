// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/ControlHighlight.h"

#include <QEvent>
#include <QPainter>
#include <QPen>

namespace {
constexpr int kMargin = 4;
}

ControlHighlight::ControlHighlight(QWidget* window) : QWidget(window) {
    setObjectName(QStringLiteral("controlHighlight"));
    setAttribute(Qt::WA_TransparentForMouseEvents);
    setAttribute(Qt::WA_NoSystemBackground);
    setFocusPolicy(Qt::NoFocus);
    hide();
}

void ControlHighlight::setTarget(QWidget* control) {
    if (target_) {
        // Every widget between the old control and the window, as follow() watched them.
        for (QWidget* w = target_; w && w != parentWidget(); w = w->parentWidget()) w->removeEventFilter(this);
    }
    if (target_) disconnect(target_, &QObject::destroyed, this, nullptr);
    target_ = control;
    if (target_) {
        for (QWidget* w = target_; w && w != parentWidget(); w = w->parentWidget()) w->installEventFilter(this);
        connect(target_, &QObject::destroyed, this, &QWidget::hide);
    }
    follow();
}

bool ControlHighlight::eventFilter(QObject* watched, QEvent* event) {
    switch (event->type()) {
        case QEvent::Move:
        case QEvent::Resize:
        case QEvent::Show:
        case QEvent::Hide:
            follow();
            break;
        default:
            break;
    }
    return QWidget::eventFilter(watched, event);
}

void ControlHighlight::follow() {
    if (!target_ || !target_->isVisible() || !parentWidget()) {
        hide();
        return;
    }
    // Only the part of the control that the widgets around it show (a scroll
    // area's viewport clips what it holds); none: no ring.
    QWidget* window = parentWidget();
    QRect shown(target_->mapTo(window, QPoint(0, 0)), target_->size());
    for (QWidget* w = target_->parentWidget(); w && w != window; w = w->parentWidget())
        shown &= QRect(w->mapTo(window, QPoint(0, 0)), w->size());
    if (shown.isEmpty()) {
        hide();
        return;
    }
    setGeometry(shown.adjusted(-kMargin, -kMargin, kMargin, kMargin));
    show();
    raise();
}

void ControlHighlight::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing);
    QPen pen(QColor(230, 120, 0));
    pen.setWidth(3);
    painter.setPen(pen);
    painter.setBrush(Qt::NoBrush);
    painter.drawRoundedRect(QRectF(rect()).adjusted(1.5, 1.5, -1.5, -1.5), 6, 6);
}
