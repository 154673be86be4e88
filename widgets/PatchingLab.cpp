// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/PatchingLab.h"

#include <QEvent>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

#include "widgets/ValueGrid.h"

namespace {

// A character as a label of the grid: a line break and a space made visible.
QString shown(const QString& character) {
    if (character == QLatin1String("\n")) return QStringLiteral("\u21b5");
    if (character == QLatin1String(" ")) return QStringLiteral("\u2423");
    return character;
}

int codePointCount(const QString& text) { return int(text.toUcs4().size()); }

QString percent(double fraction) { return QString::number(100.0 * fraction, 'f', 0); }

}  // namespace

PatchingLab::PatchingLab(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    intro_ = new QLabel(this);
    intro_->setWordWrap(true);
    layout->addWidget(intro_);
    auto* fields = new QGridLayout;
    cleanLabel_ = new QLabel(this);
    corruptedLabel_ = new QLabel(this);
    targetLabel_ = new QLabel(this);
    clean_ = new QLineEdit(this);
    clean_->setObjectName(QStringLiteral("cleanPrompt"));
    corrupted_ = new QLineEdit(this);
    corrupted_->setObjectName(QStringLiteral("corruptedPrompt"));
    target_ = new QLineEdit(this);
    target_->setObjectName(QStringLiteral("targetCharacter"));
    target_->setMaximumWidth(60);
    fields->addWidget(cleanLabel_, 0, 0);
    fields->addWidget(clean_, 0, 1, 1, 3);
    fields->addWidget(corruptedLabel_, 1, 0);
    fields->addWidget(corrupted_, 1, 1, 1, 3);
    fields->addWidget(targetLabel_, 2, 0);
    fields->addWidget(target_, 2, 1);
    layout->addLayout(fields);
    auto* buttons = new QHBoxLayout;
    presetButton_ = new QPushButton(this);
    presetButton_->setEnabled(false);  // until setPresetSource brings a text
    runButton_ = new QPushButton(this);
    runButton_->setObjectName(QStringLiteral("runPatching"));
    stopButton_ = new QPushButton(this);
    stopButton_->setEnabled(false);
    buttons->addWidget(presetButton_);
    buttons->addStretch(1);
    buttons->addWidget(runButton_);
    buttons->addWidget(stopButton_);
    layout->addLayout(buttons);
    message_ = new QLabel(this);
    message_->setWordWrap(true);
    message_->setTextFormat(Qt::PlainText);
    layout->addWidget(message_);
    residualTitle_ = new QLabel(this);
    residualTitle_->setWordWrap(true);
    residualGrid_ = new ValueGrid(this);
    residualGrid_->setMaximumCellSize(32.0);
    headTitle_ = new QLabel(this);
    headTitle_->setWordWrap(true);
    headGrid_ = new ValueGrid(this);
    headGrid_->setMaximumCellSize(32.0);
    feedForwardTitle_ = new QLabel(this);
    feedForwardTitle_->setWordWrap(true);
    feedForwardGrid_ = new ValueGrid(this);
    feedForwardGrid_->setMaximumCellSize(32.0);
    // The feed-forwards' map under the stream's: the same columns, one per position.
    layout->addWidget(residualTitle_);
    layout->addWidget(residualGrid_);
    layout->addWidget(feedForwardTitle_);
    layout->addWidget(feedForwardGrid_);
    layout->addWidget(headTitle_);
    layout->addWidget(headGrid_);
    layout->addStretch(1);
    connect(presetButton_, &QPushButton::clicked, this, &PatchingLab::applyPreset);
    connect(runButton_, &QPushButton::clicked, this, &PatchingLab::requestRun);
    connect(stopButton_, &QPushButton::clicked, this, &PatchingLab::stopRequested);
    residualGrid_->setToolTipFunction([this](int row, int column) {
        const double v = result_.residual.value(qsizetype(row) * result_.positions() + column, NAN);
        if (!std::isfinite(v)) return QString();
        return tr("The clean run's stream %1 at position %2 ('%3') patched in restores %4% of the difference")
            .arg(row == 0 ? tr("of the embeddings") : tr("after layer %1").arg(row))
            .arg(column + 1)
            .arg(shown(result_.clean.value(column)))
            .arg(percent(v));
    });
    headGrid_->setToolTipFunction([this](int row, int column) {
        const double v = result_.perHead.value(qsizetype(row) * result_.heads + column, NAN);
        if (!std::isfinite(v)) return QString();
        return tr("L%1 H%2's output at every position patched in restores %3% of the difference")
            .arg(row + 1)
            .arg(column + 1)
            .arg(percent(v));
    });
    feedForwardGrid_->setToolTipFunction([this](int row, int column) {
        const double v = result_.feedForward.value(qsizetype(row) * result_.positions() + column, NAN);
        if (!std::isfinite(v)) return QString();
        return tr("Layer %1's feed-forward output at position %2 ('%3') patched in restores %4% of the "
                  "difference")
            .arg(row + 1)
            .arg(column + 1)
            .arg(shown(result_.clean.value(column)))
            .arg(percent(v));
    });
    retranslateUi();
    showGrids();
}

void PatchingLab::setPresetSource(const QString& text) {
    presetSource_ = text;
    presetButton_->setEnabled(!text.isEmpty());
}

void PatchingLab::setContext(int characters) { context_ = std::max(2, characters); }

void PatchingLab::setPrompts(const PatchingPrompts& prompts) {
    clean_->setText(prompts.clean);
    corrupted_->setText(prompts.corrupted);
    target_->setText(prompts.target);
}

PatchingPrompts PatchingLab::prompts() const { return {clean_->text(), corrupted_->text(), target_->text()}; }

void PatchingLab::applyPreset() {
    const PatchingPrompts preset =
        PatchingPrompts::presetFrom(presetSource_, std::min(context_, 24), presetSeed_++);
    if (preset.clean.isEmpty()) {
        showProblem(tr("The corpus's sample is too short for a preset: write the prompts yourself."));
        return;
    }
    setPrompts(preset);
}

void PatchingLab::prepareFrom(const QString& prompt, const QString& target) {
    const PatchingPrompts prepared =
        PatchingPrompts::corruptedFrom(prompt, target, presetSource_.isEmpty() ? prompt : presetSource_, 0);
    setPrompts(prepared.clean.isEmpty() ? PatchingPrompts{prompt, prompt, target} : prepared);
}

void PatchingLab::requestRun() {
    const PatchingPrompts p = prompts();
    const int length = codePointCount(p.clean);
    if (length == 0 || codePointCount(p.corrupted) != length) {
        showProblem(
            tr("The clean and the corrupted prompt must have the same number of characters (now %1 and %2).")
                .arg(length)
                .arg(codePointCount(p.corrupted)));
        return;
    }
    if (length > context_) {
        showProblem(
            tr("The prompts have %1 characters; the model reads at most %2.").arg(length).arg(context_));
        return;
    }
    if (codePointCount(p.target) != 1) {
        showProblem(
            tr("Write one character as the target: the one the clean prompt should make the model write."));
        return;
    }
    if (p.clean == p.corrupted) {
        showProblem(tr("The prompts are the same: change a character of the corrupted one."));
        return;
    }
    problem_.clear();
    emit runRequested(p);
}

void PatchingLab::setRunning(bool running) {
    running_ = running;
    done_ = total_ = 0;
    if (running) problem_.clear();
    runButton_->setEnabled(!running);
    stopButton_->setEnabled(running);
    retranslateUi();
}

void PatchingLab::setProgress(int done, int total) {
    done_ = done;
    total_ = total;
    message_->setText(message());
}

void PatchingLab::setResult(const PatchingResult& result) {
    result_ = result;
    problem_ = result.problem;
    showGrids();
    retranslateUi();
}

void PatchingLab::showProblem(const QString& message) {
    problem_ = message;
    message_->setText(this->message());
}

void PatchingLab::showGrids() {
    const PatchingResult& r = result_;
    const bool valid = r.isValid();
    residualTitle_->setVisible(valid);
    residualGrid_->setVisible(valid);
    headTitle_->setVisible(valid && r.heads > 0);
    headGrid_->setVisible(valid && r.heads > 0);
    feedForwardTitle_->setVisible(valid && !r.feedForward.isEmpty());
    feedForwardGrid_->setVisible(valid && !r.feedForward.isEmpty());
    if (!valid) return;
    double largest = 1.0;
    for (const double v : r.residual + r.perHead + r.feedForward)
        if (std::isfinite(v)) largest = std::max(largest, std::abs(v));
    ValueGridData residual;
    residual.rowLabels.append(tr("embeddings"));
    for (int layer = 1; layer <= r.layers; ++layer) residual.rowLabels.append(tr("after L%1").arg(layer));
    for (int t = 0; t < r.positions(); ++t) {
        const QString corrupted = r.corrupted.value(t);
        residual.columnLabels.append(corrupted == r.clean[t]
                                         ? shown(r.clean[t])
                                         : shown(r.clean[t]) + QLatin1Char('/') + shown(corrupted));
    }
    residual.values = r.residual;
    for (const double v : r.residual) residual.cellTexts.append(std::isfinite(v) ? percent(v) : QString());
    residual.minimum = -largest;
    residual.maximum = largest;
    residual.diverging = true;
    residual.scaleTitle = tr("share of the clean logit difference restored (1 = all)");
    residualGrid_->setData(residual);
    ValueGridData heads = residual;
    heads.rowLabels.clear();
    heads.columnLabels.clear();
    heads.cellTexts.clear();
    for (int layer = 1; layer <= r.layers; ++layer) heads.rowLabels.append(tr("L%1").arg(layer));
    for (int head = 1; head <= r.heads; ++head) heads.columnLabels.append(tr("H%1").arg(head));
    heads.values = r.perHead;
    for (const double v : r.perHead) heads.cellTexts.append(std::isfinite(v) ? percent(v) : QString());
    headGrid_->setData(heads);
    ValueGridData feedForward = residual;
    feedForward.rowLabels.clear();
    feedForward.cellTexts.clear();
    for (int layer = 1; layer <= r.layers; ++layer) feedForward.rowLabels.append(tr("L%1 FF").arg(layer));
    feedForward.values = r.feedForward;
    for (const double v : r.feedForward)
        feedForward.cellTexts.append(std::isfinite(v) ? percent(v) : QString());
    feedForwardGrid_->setData(feedForward);
    // Cells large enough to read their percentages; the why window scrolls the rest.
    for (ValueGrid* grid : {residualGrid_, headGrid_, feedForwardGrid_})
        grid->setMinimumHeight(ValueGrid::preferredSize(grid->data(), font(), 24.0).height());
}

QString PatchingLab::finding() const {
    const PatchingResult& r = result_;
    if (!r.isValid()) return QString();
    // The changed characters' embeddings and the last layer's last position
    // carry the whole difference by construction: the finding is elsewhere.
    const auto trivial = [&r](int i) {
        const int row = i / r.positions(), column = i % r.positions();
        return (row == 0 && r.clean[column] != r.corrupted.value(column)) ||
               (row == r.layers && column == r.positions() - 1);
    };
    int best = -1;
    for (int i = 0; i < r.residual.size(); ++i)
        if (std::isfinite(r.residual[i]) && !trivial(i) && (best < 0 || r.residual[i] > r.residual[best]))
            best = i;
    int bestHead = -1;
    for (int i = 0; i < r.perHead.size(); ++i)
        if (std::isfinite(r.perHead[i]) && (bestHead < 0 || r.perHead[i] > r.perHead[bestHead])) bestHead = i;
    int bestFeedForward = -1;
    for (int i = 0; i < r.feedForward.size(); ++i)
        if (std::isfinite(r.feedForward[i]) &&
            (bestFeedForward < 0 || r.feedForward[i] > r.feedForward[bestFeedForward]))
            bestFeedForward = i;
    QString text =
        tr("Measured: logit of '%1' minus that of '%2' at the last position, %3 in the clean run and %4 "
           "in the corrupted one.")
            .arg(shown(r.target), shown(r.wrong))
            .arg(r.cleanDifference, 0, 'f', 3)
            .arg(r.corruptedDifference, 0, 'f', 3);
    if (best >= 0) {
        const int row = best / r.positions(), column = best % r.positions();
        text +=
            QLatin1Char(' ') + tr("Besides the changed characters' embeddings and the last layer's last "
                                  "position, which carry all of it by construction, position %1 ('%2') %3 "
                                  "restores most: %4%.")
                                   .arg(column + 1)
                                   .arg(shown(r.clean[column]))
                                   .arg(row == 0 ? tr("in the embeddings") : tr("after layer %1").arg(row))
                                   .arg(percent(r.residual[best]));
    }
    // Of the parts that write into the stream, the one that restores most:
    // a feed-forward when it beats every head.
    if (bestFeedForward >= 0 && (bestHead < 0 || r.feedForward[bestFeedForward] > r.perHead[bestHead])) {
        const int row = bestFeedForward / r.positions(), column = bestFeedForward % r.positions();
        text += QLatin1Char(' ') +
                tr("Of the heads and feed-forwards, layer %1's feed-forward at position %2 ('%3') restores "
                   "most: %4%.")
                    .arg(row + 1)
                    .arg(column + 1)
                    .arg(shown(r.clean[column]))
                    .arg(percent(r.feedForward[bestFeedForward]));
    } else if (bestHead >= 0)
        text += QLatin1Char(' ') + tr("Of the heads, L%1 H%2 restores most: %3%.")
                                       .arg(bestHead / r.heads + 1)
                                       .arg(bestHead % r.heads + 1)
                                       .arg(percent(r.perHead[bestHead]));
    return text;
}

QString PatchingLab::message() const {
    if (!problem_.isEmpty()) return problem_;
    if (running_)
        return total_ > 0 ? tr("Patching: %1 of %2 patches measured…").arg(done_).arg(total_)
                          : tr("Patching…");
    return finding();
}

void PatchingLab::retranslateUi() {
    intro_->setText(
        tr("Activation patching: run a clean and a corrupted prompt of the same length, copy one part "
           "of the clean run into the corrupted run, and see how much of the clean logit difference "
           "comes back."));
    cleanLabel_->setText(tr("Clean prompt:"));
    corruptedLabel_->setText(tr("Corrupted prompt:"));
    targetLabel_->setText(tr("Target character:"));
    presetButton_->setText(tr("Preset"));
    presetButton_->setToolTip(
        tr("A prompt from the corpus's sample and the same with one character changed"));
    runButton_->setText(tr("Run"));
    stopButton_->setText(tr("Stop"));
    residualTitle_->setText(
        tr("The residual stream patched at one layer and position (columns: clean/corrupted "
           "character)"));
    headTitle_->setText(tr("Each head's output patched at every position"));
    feedForwardTitle_->setText(tr("Each feed-forward's output patched at one layer and position"));
    message_->setText(message());
    showGrids();
}

void PatchingLab::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange) retranslateUi();
    QWidget::changeEvent(event);
}
