// SPDX-License-Identifier: GPL-3.0-or-later
#include "GenerationView.h"

#include <QDoubleSpinBox>
#include <QEvent>
#include <QGridLayout>
#include <QHelpEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QMimeData>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QSpinBox>
#include <QSplitter>
#include <QTabWidget>
#include <QTextBlock>
#include <QToolTip>
#include <QVBoxLayout>
#include <qcustomplot.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>

#include "AttentionHeatmap.h"
#include "LogitLensView.h"

namespace {

const QColor kCandidateColor(160, 185, 210);
const QColor kPickedColor(230, 110, 20);
const QColor kPromptColor(120, 120, 120);
const QColor kUnknownBackground(255, 200, 200);
const QColor kCopiedBackground(255, 224, 150);
const QColor kCopiedUnderline(200, 110, 0);
constexpr double kStripCellSize = 18.0;
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
    void insertFromMimeData(const QMimeData* source) override {
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
};

}  // namespace

GenerationView::GenerationView(QWidget* parent) : QWidget(parent) {
    qRegisterMetaType<GenerationOptions>();

    promptLabel_ = new QLabel(this);
    auto* promptEdit = new PromptEdit(this);
    promptEdit->onCut = [this] {
        showMessage(tr("A prompt holds at most %1 characters: only the last %1 of the pasted text were kept.")
                        .arg(QLocale().toString(kMaxPromptChars)));
    };
    promptEdit_ = promptEdit;
    promptEdit_->setObjectName(QStringLiteral("prompt"));
    promptEdit_->setMaximumHeight(80);
    promptMessage_ = new QLabel(this);
    promptMessage_->setObjectName(QStringLiteral("promptMessage"));
    promptMessage_->setWordWrap(true);
    promptMessage_->setStyleSheet(QStringLiteral("color: #b03020;"));
    promptMessage_->hide();

    temperatureLabel_ = new QLabel(this);
    temperatureSpin_ = new QDoubleSpinBox(this);
    temperatureSpin_->setRange(0.0, 5.0);
    temperatureSpin_->setSingleStep(0.1);
    temperatureSpin_->setValue(1.0);
    topKLabel_ = new QLabel(this);
    topKSpin_ = new QSpinBox(this);
    topKSpin_->setRange(0, 10000);
    topPLabel_ = new QLabel(this);
    topPSpin_ = new QDoubleSpinBox(this);
    topPSpin_->setRange(0.01, 1.0);
    topPSpin_->setSingleStep(0.05);
    topPSpin_->setValue(1.0);
    lengthLabel_ = new QLabel(this);
    lengthSpin_ = new QSpinBox(this);
    lengthSpin_->setRange(1, 100000);
    lengthSpin_->setValue(200);
    seedLabel_ = new QLabel(this);
    seedSpin_ = new QSpinBox(this);
    seedSpin_->setRange(0, std::numeric_limits<int>::max());
    seedSpin_->setValue(12046);
    generateButton_ = new QPushButton(this);
    stopButton_ = new QPushButton(this);
    stepButton_ = new QPushButton(this);
    stopButton_->setEnabled(false);

    auto* settings = new QHBoxLayout;
    for (QWidget* widget : std::initializer_list<QWidget*>{
             temperatureLabel_, temperatureSpin_, topKLabel_, topKSpin_, topPLabel_, topPSpin_,
             lengthLabel_, lengthSpin_, seedLabel_, seedSpin_})
        settings->addWidget(widget);
    settings->addStretch(1);
    settings->addWidget(generateButton_);
    settings->addWidget(stepButton_);
    settings->addWidget(stopButton_);

    outputLabel_ = new QLabel(this);
    outputEdit_ = new QPlainTextEdit(this);
    outputEdit_->setReadOnly(true);
    QFont outputFont = outputEdit_->font();
    outputFont.setPointSizeF(outputFont.pointSizeF() * 1.15);
    outputEdit_->setFont(outputFont);
    outputEdit_->viewport()->installEventFilter(this);
    copiesLabel_ = new QLabel(this);
    copiesLabel_->setObjectName(QStringLiteral("copies"));
    copiesLabel_->setWordWrap(true);
    copiesLabel_->hide();

    candidatesLabel_ = new QLabel(this);
    candidatesPlot_ = new QCustomPlot(this);
    candidatesPlot_->setMinimumHeight(170);
    candidateBars_ = new QCPBars(candidatesPlot_->xAxis, candidatesPlot_->yAxis);
    candidateBars_->setBrush(kCandidateColor);
    candidateBars_->setPen(QPen(kCandidateColor.darker(130)));
    candidateBars_->setWidth(0.7);
    pickedBar_ = new QCPBars(candidatesPlot_->xAxis, candidatesPlot_->yAxis);
    pickedBar_->setBrush(kPickedColor);
    pickedBar_->setPen(QPen(kPickedColor.darker(130)));
    pickedBar_->setWidth(0.7);
    candidatesPlot_->yAxis->setRange(0.0, 1.1);
    QFont tickFont = candidatesPlot_->xAxis->tickLabelFont();
    tickFont.setPixelSize(15);
    candidatesPlot_->xAxis->setTickLabelFont(tickFont);
    candidatesPlot_->xAxis->setTicker(QSharedPointer<QCPAxisTickerText>::create());

    attentionLabel_ = new QLabel(this);
    layerSpin_ = new QSpinBox(this);
    attentionQueryLabel_ = new QLabel(this);
    layerSpin_->setRange(0, 0);
    stripsHost_ = new QWidget;
    stripsLayout_ = new QGridLayout(stripsHost_);
    stripsLayout_->setContentsMargins(0, 0, 0, 0);
    stripsLayout_->setVerticalSpacing(1);
    stripsLayout_->setColumnStretch(1, 1);
    auto* stripsScroll = new QScrollArea(this);
    stripsScroll->setWidget(stripsHost_);
    stripsScroll->setWidgetResizable(true);
    stripsScroll->setFrameShape(QFrame::NoFrame);
    stripsScroll->setMinimumHeight(120);

    auto* attentionHeader = new QHBoxLayout;
    attentionHeader->addWidget(attentionLabel_);
    attentionHeader->addWidget(layerSpin_);
    attentionHeader->addWidget(attentionQueryLabel_);
    attentionHeader->addStretch(1);

    // Below the candidates, two pages: the new character's attention, and the
    // logit lens (what each block would have predicted).
    auto* attentionPage = new QWidget;
    auto* attentionLayout = new QVBoxLayout(attentionPage);
    attentionLayout->setContentsMargins(0, 0, 0, 0);
    attentionLayout->addLayout(attentionHeader);
    attentionLayout->addWidget(stripsScroll, 1);
    lensView_ = new LogitLensView;
    stepTabs_ = new QTabWidget(this);
    stepTabs_->addTab(attentionPage, QString());
    stepTabs_->addTab(lensView_, QString());

    auto* stepPanel = new QWidget(this);
    auto* stepLayout = new QVBoxLayout(stepPanel);
    stepLayout->setContentsMargins(0, 0, 0, 0);
    stepLayout->addWidget(candidatesLabel_);
    stepLayout->addWidget(candidatesPlot_, 2);
    stepLayout->addWidget(stepTabs_, 3);

    auto* outputPanel = new QWidget(this);
    auto* outputLayout = new QVBoxLayout(outputPanel);
    outputLayout->setContentsMargins(0, 0, 0, 0);
    outputLayout->addWidget(outputLabel_);
    outputLayout->addWidget(outputEdit_);
    outputLayout->addWidget(copiesLabel_);

    auto* splitter = new QSplitter(Qt::Horizontal, this);
    splitter->addWidget(outputPanel);
    splitter->addWidget(stepPanel);
    splitter->setStretchFactor(0, 2);
    splitter->setStretchFactor(1, 3);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(promptLabel_);
    layout->addWidget(promptEdit_);
    layout->addWidget(promptMessage_);
    layout->addLayout(settings);
    layout->addWidget(splitter, 1);

    connect(generateButton_, &QPushButton::clicked, this, &GenerationView::requestGenerate);
    connect(stepButton_, &QPushButton::clicked, this, &GenerationView::requestStep);
    connect(stopButton_, &QPushButton::clicked, this, &GenerationView::stopRequested);
    connect(layerSpin_, &QSpinBox::valueChanged, this, &GenerationView::attentionLayerChanged);
    connect(promptEdit_, &QPlainTextEdit::textChanged, this, [this] {
        markStepSessionStale();
        if (!unknownPositions_.isEmpty()) {
            // Positions refer to the old prompt; the owner re-checks the new one.
            unknownPositions_.clear();
            promptEdit_->setExtraSelections({});
            promptMessage_->hide();
        }
    });
    for (QDoubleSpinBox* spin : {temperatureSpin_, topPSpin_})
        connect(spin, &QDoubleSpinBox::valueChanged, this, &GenerationView::markStepSessionStale);
    for (QSpinBox* spin : {topKSpin_, lengthSpin_, seedSpin_})
        connect(spin, &QSpinBox::valueChanged, this, &GenerationView::markStepSessionStale);

    retranslateUi();
}

void GenerationView::retranslateUi() {
    promptLabel_->setText(tr("Prompt:"));
    promptEdit_->setPlaceholderText(tr("Type the beginning of a text, or leave empty"));
    temperatureLabel_->setText(tr("Temperature:"));
    temperatureSpin_->setToolTip(tr("0 always picks the likeliest character"));
    topKLabel_->setText(tr("Top-k:"));
    topKSpin_->setSpecialValueText(tr("all"));
    topPLabel_->setText(tr("Top-p:"));
    lengthLabel_->setText(tr("Length:"));
    seedLabel_->setText(tr("Seed:"));
    generateButton_->setText(tr("Generate"));
    stopButton_->setText(tr("Stop"));
    stepButton_->setText(tr("Step"));
    stepButton_->setToolTip(tr("Generate one character and show why it was picked"));
    outputLabel_->setText(tr("Output:"));
    candidatesLabel_->setText(tr("Likeliest next characters (the one picked in orange):"));
    attentionLabel_->setText(tr("Attention of the new character, each head of layer"));
    stepTabs_->setTabText(0, tr("Attention"));
    stepTabs_->setTabText(1, tr("After each block"));
    stepTabs_->setTabToolTip(1, tr("The logit lens: what the model would have predicted had it stopped after each "
                                   "block; the last column is this step"));
    candidatesPlot_->yAxis->setLabel(tr("probability"));
    highlightUnknownCharacters();
    markCopies();
}

void GenerationView::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    QWidget::changeEvent(event);
}

GenerationOptions GenerationView::options() const {
    GenerationOptions options;
    options.prompt = promptEdit_->toPlainText();
    options.temperature = temperatureSpin_->value();
    options.topK = topKSpin_->value();
    options.topP = topPSpin_->value();
    options.length = lengthSpin_->value();
    options.seed = quint64(seedSpin_->value());
    return options;
}

void GenerationView::setOptions(const GenerationOptions& options) {
    promptEdit_->setPlainText(options.prompt.size() > kMaxPromptChars ? options.prompt.right(kMaxPromptChars)
                                                                      : options.prompt);
    temperatureSpin_->setValue(options.temperature);
    topKSpin_->setValue(options.topK);
    topPSpin_->setValue(options.topP);
    lengthSpin_->setValue(options.length);
    seedSpin_->setValue(int(std::min<quint64>(options.seed, quint64(std::numeric_limits<int>::max()))));
}

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

void GenerationView::appendCharacter(const QString& character) {
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

QString GenerationView::outputToolTipAt(const QPoint& viewportPosition) const {
    const int position = outputEdit_->cursorForPosition(viewportPosition).position();
    // cursorForPosition gives the nearest gap between characters: the
    // character under the point is the one after it, or before it when the
    // point lies on the right half of that one.
    const QRect caret = outputEdit_->cursorRect(outputEdit_->cursorForPosition(viewportPosition));
    const int character = viewportPosition.x() < caret.x() ? position - 1 : position;
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

void GenerationView::showMessage(const QString& message) {
    promptMessage_->setText(message);
    promptMessage_->setVisible(!message.isEmpty());
}

void GenerationView::showCandidates(const QStringList& characters,
                                    const QVector<double>& probabilities, int picked) {
    const int count = int(std::min(characters.size(), probabilities.size()));
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    QVector<double> keys, values, pickedKeys, pickedValues;
    for (QCPItemText* label : candidateLabels_)
        candidatesPlot_->removeItem(label);
    candidateLabels_.clear();
    double highest = 0.0;
    for (int i = 0; i < count; ++i) {
        ticker->addTick(i, displayCharacter(characters[i]));
        highest = std::max(highest, probabilities[i]);
        if (i == picked) {
            pickedKeys.append(i);
            pickedValues.append(probabilities[i]);
        } else {
            keys.append(i);
            values.append(probabilities[i]);
        }
        auto* label = new QCPItemText(candidatesPlot_);
        label->position->setCoords(i, probabilities[i]);
        label->setPositionAlignment(Qt::AlignHCenter | Qt::AlignBottom);
        label->setText(QString::number(probabilities[i], 'f', probabilities[i] < 0.01 ? 3 : 2));
        label->setClipToAxisRect(false);
        candidateLabels_.append(label);
    }
    candidatesPlot_->xAxis->setTicker(ticker);
    candidateBars_->setData(keys, values, true);
    pickedBar_->setData(pickedKeys, pickedValues, true);
    candidatesPlot_->xAxis->setRange(-0.6, std::max(count, 1) - 0.4);
    candidatesPlot_->yAxis->setRange(0.0, std::max(0.05, std::min(1.0, highest) * 1.18));
    candidatesPlot_->replot(QCustomPlot::rpQueuedReplot);
}

void GenerationView::showLens(const LogitLens& lens) { lensView_->setLens(lens); }

void GenerationView::setLayerCount(int layers) {
    layerSpin_->setRange(0, std::max(0, layers - 1));
}

int GenerationView::attentionLayer() const {
    return layerSpin_->value();
}

void GenerationView::showAttentionRows(const QVector<AttentionMatrix>& rows) {
    while (strips_.size() > rows.size()) {
        delete strips_.takeLast();
        delete stripLabels_.takeLast();
    }
    while (strips_.size() < rows.size()) {
        const int head = int(strips_.size());
        auto* label = new QLabel(tr("H%1").arg(head), stripsHost_);
        auto* strip = new AttentionHeatmap(stripsHost_);
        strip->setPreferredCellSize(16);
        strip->setMinimumHeight(14);
        strip->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
        stripsLayout_->addWidget(label, head, 0);
        stripsLayout_->addWidget(strip, head, 1);
        stripLabels_.append(label);
        strips_.append(strip);
    }
    for (int head = 0; head < rows.size(); ++head) {
        HeatmapStyle style;
        style.showQueryLabels = false;
        style.showAxisTitles = false;
        // Characters above the first strip only; the others line up beneath it.
        style.showKeyLabels = head == 0;
        style.maximumCellSize = kStripCellSize;
        strips_[head]->setHeatmapStyle(style);
        strips_[head]->setMatrix(rows[head]);
        strips_[head]->setFixedHeight(int(kStripCellSize) + (head == 0 ? 30 : 2));
    }
    if (rows.isEmpty() || rows.first().queryCount() == 0) {
        attentionQueryLabel_->clear();
        return;
    }
    const AttentionMatrix& first = rows.first();
    attentionQueryLabel_->setText(tr("query '%1' (pos %2)")
                                      .arg(displayCharacter(first.queryChars.last()))
                                      .arg(first.queryPosition(first.queryCount() - 1)));
}

void GenerationView::setRunning(bool running) {
    running_ = running;
    generateButton_->setEnabled(!running);
    stepButton_->setEnabled(!running);
    stopButton_->setEnabled(running);
}

void GenerationView::markStepSessionStale() {
    stepSessionActive_ = false;
}

void GenerationView::requestGenerate() {
    const GenerationOptions current = options();
    beginOutput(current.prompt);
    stepSessionActive_ = false;
    setRunning(true);
    emit generateRequested(current);
}

void GenerationView::requestStep() {
    const GenerationOptions current = options();
    const bool restart = !stepSessionActive_;
    if (restart)
        beginOutput(current.prompt);
    stepSessionActive_ = true;
    emit stepRequested(current, restart);
}
