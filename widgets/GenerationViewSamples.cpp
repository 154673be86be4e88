// SPDX-License-Identifier: GPL-3.0-or-later
// The generation view's other samples: with Samples above 1, samples 2 and on
// below the output, each under a line naming it and its seed, growing as the
// samples are generated together (sample 1 streams into the output itself).
#include "widgets/GenerationView.h"

#include <QLabel>
#include <QPlainTextEdit>
#include <QScrollArea>
#include <QScrollBar>
#include <QTextCharFormat>
#include <QTextCursor>
#include <QVBoxLayout>

namespace {
// Of a long prompt, each sample shows the end only.
constexpr qsizetype kShownPromptEnd = 200;
}  // namespace

void GenerationView::buildOtherSamples() {
    othersPanel_ = new QWidget(this);
    othersPanel_->setObjectName(QStringLiteral("otherSamples"));
    auto* layout = new QVBoxLayout(othersPanel_);
    layout->setContentsMargins(0, 0, 0, 0);
    othersLabel_ = new QLabel(othersPanel_);
    othersLabel_->setWordWrap(true);
    othersHost_ = new QWidget;
    auto* hostLayout = new QVBoxLayout(othersHost_);
    hostLayout->setContentsMargins(0, 0, 0, 0);
    hostLayout->addStretch(0);  // the samples share the height; this takes what none of them has
    auto* scroll = new QScrollArea(othersPanel_);
    scroll->setWidget(othersHost_);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    layout->addWidget(othersLabel_);
    layout->addWidget(scroll, 1);
    othersPanel_->hide();
}

void GenerationView::beginOtherSamples(int samples, quint64 seed, const QString& prompt) {
    for (QLabel* header : otherHeaders_) header->deleteLater();
    for (QPlainTextEdit* edit : otherEdits_) edit->deleteLater();
    otherHeaders_.clear();
    otherEdits_.clear();
    othersSeed_ = seed;
    QString shownPrompt = prompt;
    if (prompt.size() > kShownPromptEnd) {
        shownPrompt = prompt.right(kShownPromptEnd);
        if (shownPrompt.front().isLowSurrogate())
            shownPrompt.remove(0, 1);  // never half a character
        shownPrompt.prepend(QChar(0x2026));
    }
    otherPromptLength_ = shownPrompt.size();
    othersPanel_->setVisible(samples > 1);
    // Step shows one sample: while several are generated, its panel would
    // stand empty, and the samples take the width it had.
    stepPanel_->setVisible(samples <= 1);
    auto* hostLayout = static_cast<QVBoxLayout*>(othersHost_->layout());
    const QFont font = outputEdit_->font();
    for (int sample = 2; sample <= samples; ++sample) {
        auto* header = new QLabel(othersHost_);
        header->setTextFormat(Qt::PlainText);
        auto* edit = new QPlainTextEdit(othersHost_);
        edit->setObjectName(QStringLiteral("sample%1").arg(sample));
        edit->setReadOnly(true);
        edit->setFont(font);
        edit->setMinimumHeight(edit->fontMetrics().lineSpacing() * 4 + 12);
        // The prompt's end, dimmed as in the output, before the sample's characters.
        QTextCharFormat dimmed;
        dimmed.setForeground(QColor(120, 120, 120));
        QTextCursor cursor(edit->document());
        cursor.insertText(shownPrompt, dimmed);
        cursor.setCharFormat(QTextCharFormat());
        hostLayout->insertWidget(hostLayout->count() - 1, header);
        hostLayout->insertWidget(hostLayout->count() - 1, edit, 1);
        otherHeaders_.append(header);
        otherEdits_.append(edit);
    }
    retranslateOtherSamples();
}

void GenerationView::retranslateOtherSamples() {
    othersLabel_->setText(tr("The other samples, generated together with the first (in the output above):"));
    for (int i = 0; i < otherHeaders_.size(); ++i)
        otherHeaders_[i]->setText(tr("Sample %1 · seed %2").arg(i + 2).arg(othersSeed_ + quint64(i) + 1));
}

void GenerationView::appendSamples(const QVector<int>& samples, const QStringList& characters) {
    for (int i = 0; i < samples.size() && i < characters.size(); ++i) {
        if (samples[i] == 1) {
            appendToOutput(characters[i]);
            continue;
        }
        const int index = samples[i] - 2;
        if (index < 0 || index >= otherEdits_.size())
            continue;
        QPlainTextEdit* edit = otherEdits_[index];
        QTextCursor cursor(edit->document());
        cursor.movePosition(QTextCursor::End);
        cursor.insertText(characters[i], QTextCharFormat());  // plain text: model output is never markup
    }
}

QString GenerationView::otherSampleText(int sample) const {
    const int index = sample - 2;
    if (index < 0 || index >= otherEdits_.size())
        return QString();
    return otherEdits_[index]->toPlainText().mid(otherPromptLength_);
}

bool GenerationView::otherSamplesShown() const { return !othersPanel_->isHidden(); }
