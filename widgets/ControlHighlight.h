// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QPointer>
#include <QWidget>

// A ring drawn around one control, to say "touch this": a frame over the
// window that follows the control as it moves, resizes, shows or hides, and
// lets every click through to what is under it.
class ControlHighlight : public QWidget {
    Q_OBJECT

public:
    explicit ControlHighlight(QWidget* window);

    // Rings `control` (a widget inside the window); null removes the ring.
    void setTarget(QWidget* control);
    QWidget* target() const { return target_; }

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;
    void paintEvent(QPaintEvent* event) override;

private:
    void follow();
    QPointer<QWidget> target_;
};
