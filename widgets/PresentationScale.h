// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QFont>
#include <QPointer>

#include <functional>
#include <optional>
#include <vector>

class QPlainTextEdit;
class QWidget;

// `font` `factor` times as large, whether its size is set in points or in
// pixels (a pixel-sized font has no point size: scaling -1 points is what
// logged "Point size <= 0"), and never below one point or pixel.
QFont scaledFont(QFont font, double factor);

// Keeps `edit` `lines` lines tall at whatever size its type is: its height
// follows its font (presentation mode's larger type asked more than a height
// fixed at the usual size, and the edit was squeezed).
void limitToLines(QPlainTextEdit* edit, int lines);

// Every layout of `window` measured again at the type it has now (hidden pages
// included, which keep the sizes they measured last otherwise).
void measureAgain(QWidget* window);

// Presentation mode's one scale: the application's type, every font a window
// set apart from it (labels given a size of their own) and every plot's type
// (one call, Plot::setFontScale) made `factor` times as large, and each given
// back exactly as it was.
class PresentationScale {
public:
    PresentationScale() = default;
    PresentationScale(const PresentationScale&) = delete;
    PresentationScale& operator=(const PresentationScale&) = delete;
    // The application's type back as it was: it outlives the window.
    ~PresentationScale();

    // Scales `window`'s fonts by `factor`; a scale already applied is given
    // back first.
    void apply(QWidget* window, double factor);
    // Gives every font back as it was before apply; nothing when none applied.
    void restore();
    bool isApplied() const { return applied_; }
    double factor() const { return factor_; }

private:
    bool applied_ = false;
    double factor_ = 1.0;
    std::optional<QFont> applicationFont_;
    std::vector<std::function<void()>> restores_;  // in the order applied
};
