// SPDX-License-Identifier: GPL-3.0-or-later
// The generation view's prompt box, which keeps a paste or a drop within kMaxPromptChars.
#pragma once

#include <QPlainTextEdit>

#include <functional>

class QMimeData;

// The most characters the prompt box holds. A model reads at most its context
// (4,096 at most here); a pasted megabyte on one line would take minutes to lay
// out (measured: 136 s for 1 MiB), with the window frozen meanwhile.
constexpr qsizetype kMaxPromptChars = 10000;

// A prompt box that keeps a paste or a drop within kMaxPromptChars: of a longer
// text, the end is kept (the part a model reads), and `onCut` is told.
class PromptEdit : public QPlainTextEdit {
public:
    using QPlainTextEdit::QPlainTextEdit;
    std::function<void()> onCut;

protected:
    void insertFromMimeData(const QMimeData* source) override;
};
