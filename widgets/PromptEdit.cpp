// SPDX-License-Identifier: GPL-3.0-or-later
// The generation view's prompt box, which keeps a paste or a drop within kMaxPromptChars.
#include "widgets/PromptEdit.h"

#include <QMimeData>

#include <algorithm>

void PromptEdit::insertFromMimeData(const QMimeData* source) {
    if (!source || !source->hasText()) {
        QPlainTextEdit::insertFromMimeData(source);
        return;
    }
    const QString text = source->text();
    const QTextCursor cursor = textCursor();
    const qsizetype kept = document()->characterCount() - 1 - (cursor.selectionEnd() - cursor.selectionStart());
    const qsizetype room = std::max<qsizetype>(0, kMaxPromptChars - kept);
    if (text.size() <= room) {
        QPlainTextEdit::insertFromMimeData(source);
        return;
    }
    qsizetype from = text.size() - room;
    if (from < text.size() && text.at(from).isLowSurrogate())
        ++from;  // never half a character
    insertPlainText(text.mid(from));
    if (onCut)
        onCut();
}
