// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <functional>
#include <vector>

#include <QList>
#include <QSize>

class QWidget;

// Presentation mode on a narrow screen: pages laid out again to fit the
// width of `room` at the larger type. On each page that asks for more, the
// widest part that asks for more is changed, and again until the page fits or
// nothing is left to change: a side-by-side splitter (the loss plot beside the
// health panel) stacks its parts, a row of controls (Generate's settings)
// wraps its second half onto a row below it. Then a page taller than the
// room (the height it asks at the room's width) sets the parts of a vertical
// splitter side by side where they fit (the runs' curves beside what differs).
// Each change is given back, in the reverse order, by restore().
class PresentationReflow {
public:
    PresentationReflow() = default;
    PresentationReflow(const PresentationReflow&) = delete;
    PresentationReflow& operator=(const PresentationReflow&) = delete;

    // A reflow already applied is given back first.
    // A change that would make a page taller than `room` is not made.
    void apply(const QList<QWidget*>& pages, QSize room);
    void restore();
    bool isApplied() const { return !undo_.empty(); }

private:
    std::vector<std::function<void()>> undo_;  // in the order applied
};
