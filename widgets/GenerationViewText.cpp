// SPDX-License-Identifier: GPL-3.0-or-later
// The generation view's text: the output as it streams, and the marks on it and on the prompt.
#include "widgets/GenerationView.h"

#include <QEvent>
#include <QHelpEvent>
#include <QLabel>
#include <QLocale>
#include <QMouseEvent>
#include <QPlainTextEdit>
#include <QTextBlock>
#include <QToolTip>

#include <algorithm>
#include <cmath>

namespace {

const QColor kPromptColor(120, 120, 120);
const QColor kUnknownBackground(255, 200, 200);
const QColor kCopiedBackground(255, 224, 150);
const QColor kCopiedUnderline(200, 110, 0);
// A longer prompt is shown in the output by its end only: laying out a pasted
// megabyte again for every generated character would freeze the window.
constexpr qsizetype kShownPromptChars = 4000;

// The UTF-16 offset of each code point of `text`, plus one past the end.
QVector<int> codePointOffsets(const QString& text) {
    QVector<int> offsets;
    for (int i = 0; i < text.size(); ++i) {
        offsets.append(i);
        if (text.at(i).isHighSurrogate() && i + 1 < text.size() && text.at(i + 1).isLowSurrogate())
            ++i;
    }
    offsets.append(int(text.size()));
    return offsets;
}

}  // namespace

void GenerationView::beginOutput(const QString& prompt) {
    generated_.clear();
    copies_ = CopiedSpans();
    outputEdit_->setExtraSelections({});
    outputEdit_->clear();
    markCopies();
    QTextCharFormat promptFormat;
    promptFormat.setForeground(kPromptColor);
    QTextCursor cursor(outputEdit_->document());
    if (prompt.size() <= kShownPromptChars) {
        cursor.insertText(prompt, promptFormat);
    } else {
        qsizetype from = prompt.size() - kShownPromptChars;
        if (prompt.at(from).isLowSurrogate())
            ++from;  // never half a character
        cursor.insertText(QStringLiteral("\u2026"), promptFormat);
        cursor.insertText(prompt.mid(from), promptFormat);
    }
    generatedStart_ = cursor.position();
}

void GenerationView::appendToOutput(const QString& character) {
    generated_ += character;
    QTextCursor cursor(outputEdit_->document());
    cursor.movePosition(QTextCursor::End);
    cursor.insertText(character, QTextCharFormat());
    outputEdit_->setTextCursor(cursor);
    outputEdit_->ensureCursorVisible();
}

QString GenerationView::outputText() const {
    return outputEdit_->toPlainText();
}

QString GenerationView::generatedText() const {
    return generated_;
}

void GenerationView::showCopies(const CopiedSpans& copies) {
    copies_ = copies;
    markCopies();
}

void GenerationView::markCopies() {
    QList<QTextEdit::ExtraSelection> selections;
    const QVector<int> offsets = codePointOffsets(generated_);
    const int characters = int(offsets.size()) - 1;
    for (qsizetype i = 0; i < std::min(copies_.starts.size(), copies_.lengths.size()); ++i) {
        const int start = copies_.starts[i], length = copies_.lengths[i];
        if (start < 0 || length <= 0 || start >= characters)
            continue;
        QTextEdit::ExtraSelection selection;
        selection.format.setBackground(kCopiedBackground);
        selection.format.setUnderlineStyle(QTextCharFormat::SingleUnderline);
        selection.format.setUnderlineColor(kCopiedUnderline);
        selection.format.setToolTip(tr("found verbatim in the training text"));
        selection.cursor = QTextCursor(outputEdit_->document());
        selection.cursor.setPosition(generatedStart_ + offsets[start]);
        selection.cursor.setPosition(generatedStart_ + offsets[std::min(start + length, characters)],
                                     QTextCursor::KeepAnchor);
        selections.append(selection);
    }
    outputEdit_->setExtraSelections(selections);
    if (!std::isfinite(copies_.share)) {
        copiesLabel_->clear();
        copiesLabel_->hide();
        return;
    }
    copiesLabel_->setText(tr("copied: %1% of the characters (spans of %2 or more found verbatim in the training text)")
                              .arg(QLocale().toString(100.0 * copies_.share, 'f', 0))
                              .arg(copies_.minimumLength));
    copiesLabel_->show();
}

QString GenerationView::copiesLine() const {
    return copiesLabel_->isHidden() ? QString() : copiesLabel_->text();
}

QList<QTextEdit::ExtraSelection> GenerationView::copyMarks() const {
    return outputEdit_->extraSelections();
}

int GenerationView::outputPositionAt(const QPoint& viewportPosition) const {
    const int position = outputEdit_->cursorForPosition(viewportPosition).position();
    // cursorForPosition gives the nearest gap between characters: the
    // character under the point is the one after it, or before it when the
    // point lies on the right half of that one.
    const QRect caret = outputEdit_->cursorRect(outputEdit_->cursorForPosition(viewportPosition));
    return viewportPosition.x() < caret.x() ? position - 1 : position;
}

int GenerationView::generatedIndexAt(const QPoint& viewportPosition) const {
    const int position = outputPositionAt(viewportPosition);
    if (position < generatedStart_) return -1;
    const QVector<int> offsets = codePointOffsets(generated_);
    const auto found = std::find(offsets.begin(), offsets.end() - 1, position - generatedStart_);
    return found == offsets.end() - 1 ? -1 : int(found - offsets.begin());
}

void GenerationView::askWhyAt(const QPoint& viewportPosition) {
    const int index = generatedIndexAt(viewportPosition);
    if (index < 0 || outputEdit_->textCursor().hasSelection()) return;
    QStringList characters;  // the output as shown, one code point each
    for (const char32_t codePoint : outputText().toUcs4())
        characters.append(QString::fromUcs4(&codePoint, 1));
    const int promptCharacters = int(characters.size()) - int(codePointOffsets(generated_).size() - 1);
    emit characterClicked(characters, promptCharacters + index);
}

QString GenerationView::outputToolTipAt(const QPoint& viewportPosition) const {
    const int character = outputPositionAt(viewportPosition);
    for (const QTextEdit::ExtraSelection& selection : outputEdit_->extraSelections())
        if (character >= selection.cursor.selectionStart() && character < selection.cursor.selectionEnd())
            return selection.format.toolTip();
    return {};
}

bool GenerationView::eventFilter(QObject* watched, QEvent* event) {
    if (watched == outputEdit_->viewport() && event->type() == QEvent::ToolTip) {
        const auto* help = static_cast<QHelpEvent*>(event);
        const QString tip = outputToolTipAt(help->pos());
        if (tip.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(help->globalPos(), tip, outputEdit_->viewport());
        return true;
    }
    if (watched == outputEdit_->viewport() && event->type() == QEvent::MouseButtonRelease &&
        static_cast<QMouseEvent*>(event)->button() == Qt::LeftButton)
        askWhyAt(static_cast<QMouseEvent*>(event)->position().toPoint());
    return QWidget::eventFilter(watched, event);
}

void GenerationView::setUnknownCharacters(const QVector<int>& positions) {
    unknownPositions_ = positions;
    highlightUnknownCharacters();
}

void GenerationView::highlightUnknownCharacters() {
    QList<QTextEdit::ExtraSelection> selections;
    const QString prompt = promptEdit_->toPlainText();
    const QVector<int> offsets = codePointOffsets(prompt);
    QStringList shown;
    for (int position : unknownPositions_) {
        if (position < 0 || position + 1 >= offsets.size())
            continue;
        QTextEdit::ExtraSelection selection;
        selection.format.setBackground(kUnknownBackground);
        selection.format.setUnderlineStyle(QTextCharFormat::WaveUnderline);
        selection.format.setUnderlineColor(Qt::red);
        selection.cursor = QTextCursor(promptEdit_->document());
        selection.cursor.setPosition(offsets[position]);
        selection.cursor.setPosition(offsets[position + 1], QTextCursor::KeepAnchor);
        selections.append(selection);
        const QString character = prompt.mid(offsets[position], offsets[position + 1] - offsets[position]);
        const QString quoted = QStringLiteral("'%1'").arg(displayCharacter(character));
        if (!shown.contains(quoted))
            shown.append(quoted);
    }
    promptEdit_->setExtraSelections(selections);
    if (selections.isEmpty()) {
        promptMessage_->hide();
        return;
    }
    promptMessage_->setText(
        tr("%n character(s) of the prompt are not in the model's vocabulary (highlighted): %1. "
           "Remove or replace them.",
           "", int(selections.size()))
            .arg(shown.join(QStringLiteral(", "))));
    promptMessage_->show();
}
