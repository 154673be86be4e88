// SPDX-License-Identifier: GPL-3.0-or-later
// The generation view: its prompt, settings, panels and texts, and the requests it emits.
#include "widgets/GenerationView.h"

#include <QDoubleSpinBox>
#include <QEvent>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QSpinBox>
#include <QSplitter>
#include <QTabWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <limits>

#include "widgets/CountSpinBox.h"
#include "widgets/Plot.h"
#include "widgets/PresentationScale.h"
#include "widgets/LogitLensView.h"
#include "widgets/PromptEdit.h"

namespace {

const QColor kCandidateColor(160, 185, 210);
const QColor kPickedColor(230, 110, 20);

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
    promptMessage_->setTextFormat(Qt::PlainText);  // messages name files and hold text read from them: never markup
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
    samplesLabel_ = new QLabel(this);
    samplesSpin_ = new QSpinBox(this);
    samplesSpin_->setObjectName(QStringLiteral("samples"));
    samplesSpin_->setRange(1, 16);
    samplesSpin_->setValue(1);
    generateButton_ = new QPushButton(this);
    stopButton_ = new QPushButton(this);
    stepButton_ = new QPushButton(this);
    stopButton_->setEnabled(false);

    auto* settings = new QHBoxLayout;
    for (QWidget* widget : std::initializer_list<QWidget*>{
             temperatureLabel_, temperatureSpin_, topKLabel_, topKSpin_, topPLabel_, topPSpin_,
             lengthLabel_, lengthSpin_, seedLabel_, seedSpin_, samplesLabel_, samplesSpin_})
        settings->addWidget(widget);
    settings->addStretch(1);
    settings->addWidget(generateButton_);
    settings->addWidget(stepButton_);
    settings->addWidget(stopButton_);

    outputLabel_ = new QLabel(this);
    outputEdit_ = new QPlainTextEdit(this);
    outputEdit_->setReadOnly(true);
    outputEdit_->setFont(scaledFont(outputEdit_->font(), 1.15));
    outputEdit_->viewport()->installEventFilter(this);
    copiesLabel_ = new QLabel(this);
    copiesLabel_->setObjectName(QStringLiteral("copies"));
    copiesLabel_->setWordWrap(true);
    copiesLabel_->hide();

    candidatesLabel_ = new QLabel(this);
    candidatesPlot_ = new Plot(this);
    candidatesPlot_->setMinimumHeight(140);  // its bars and labels still read at 140 (a 720-line projector)
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
    layerSpin_ = new CountSpinBox(this);
    attentionQueryLabel_ = new QLabel(this);
    attentionQueryLabel_->setTextFormat(Qt::PlainText);  // messages name files and hold text read from them: never markup
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

    stepPanel_ = new QWidget(this);
    stepPanel_->setObjectName(QStringLiteral("stepPanel"));
    auto* stepLayout = new QVBoxLayout(stepPanel_);
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
    buildOtherSamples();
    outputLayout->addWidget(othersPanel_, 1);

    auto* splitter = new QSplitter(Qt::Horizontal, this);
    splitter->addWidget(outputPanel);
    splitter->addWidget(stepPanel_);
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
    samplesLabel_->setText(tr("Samples:"));
    samplesSpin_->setToolTip(tr("Several samples of the prompt, generated together: sample i uses seed + i - 1, so "
                                "each is what that seed alone writes. Step makes one."));
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
    setAxisTitle(candidatesPlot_->yAxis, tr("probability"));
    highlightUnknownCharacters();
    markCopies();
    retranslateOtherSamples();
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
    options.samples = samplesSpin_->value();
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
    samplesSpin_->setValue(options.samples);
}

void GenerationView::showMessage(const QString& message) {
    promptMessage_->setText(message);
    promptMessage_->setVisible(!message.isEmpty());
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
    beginOtherSamples(current.samples, current.seed, current.prompt);
    stepSessionActive_ = false;
    setRunning(true);
    emit generateRequested(current);
}

void GenerationView::requestStep() {
    GenerationOptions current = options();
    current.samples = 1;  // step mode follows one sample
    const bool restart = !stepSessionActive_;
    if (restart) {
        beginOutput(current.prompt);
        beginOtherSamples(1, current.seed, current.prompt);
    }
    stepSessionActive_ = true;
    emit stepRequested(current, restart);
}
