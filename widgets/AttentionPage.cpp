// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/AttentionPage.h"

#include <QEvent>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QSlider>
#include <QSpinBox>
#include <QSplitter>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

#include "widgets/AttentionGrid.h"

// --- AttentionTimeline ------------------------------------------------------

void AttentionTimeline::clear() {
    frames_.clear();
    lastIsExtra_ = false;
    arrivals_ = 0;
    stride_ = 1;
    capacity_ = 0;
}

qint64 AttentionTimeline::bytes() const {
    qint64 total = 0;
    for (const Frame& frame : frames_)
        total += frame.weights.size();
    return total;
}

void AttentionTimeline::add(qint64 step, const ModelAttention& attention) {
    Frame frame;
    frame.step = step;
    frame.layers = int(attention.layers.size());
    frame.heads = attention.headCount();
    if (frame.layers == 0 || frame.heads == 0)
        return;
    const AttentionMatrix& first = attention.layers.first().heads.first();
    frame.characters = first.keyChars;
    const qsizetype cells = qsizetype(first.keyCount()) * first.keyCount();
    frame.weights.resize(qsizetype(frame.layers) * frame.heads * cells);
    char* out = frame.weights.data();
    for (const LayerAttention& layer : attention.layers)
        for (const AttentionMatrix& head : layer.heads)
            for (qsizetype i = 0; i < cells; ++i) {
                const float w = i < head.weights.size() ? head.weights[i] : AttentionMatrix::masked();
                *out++ = char(std::isnan(w) ? 255 : int(std::lround(std::clamp(w, 0.0f, 1.0f) * 254.0f)));
            }
    // Another probe or model shape: a new series.
    if (!frames_.isEmpty() && (frames_.first().characters != frame.characters ||
                               frames_.first().layers != frame.layers || frames_.first().heads != frame.heads))
        clear();
    if (capacity_ == 0)
        capacity_ = int(std::clamp<qint64>(budgetBytes_ / std::max<qint64>(1, frame.weights.size()), 2, maxFrames_));

    if (lastIsExtra_)
        frames_.removeLast();
    const bool regular = arrivals_ % stride_ == 0;
    ++arrivals_;
    frames_.append(std::move(frame));
    lastIsExtra_ = !regular;
    const int regularCount = int(frames_.size()) - (lastIsExtra_ ? 1 : 0);
    if (regularCount > capacity_) {
        // Keep every other regular frame; from now on only every 2*stride-th.
        QVector<Frame> kept;
        for (int i = 0; i < regularCount; i += 2)
            kept.append(frames_[i]);
        const bool newestDropped = (regularCount - 1) % 2 != 0;
        if (lastIsExtra_ || newestDropped)
            kept.append(frames_.last());
        lastIsExtra_ = lastIsExtra_ || newestDropped;
        frames_ = std::move(kept);
        stride_ *= 2;
    }
}

QVector<qint64> AttentionTimeline::steps() const {
    QVector<qint64> steps;
    steps.reserve(frames_.size());
    for (const Frame& frame : frames_)
        steps.append(frame.step);
    return steps;
}

ModelAttention AttentionTimeline::attention(int index) const {
    const Frame& frame = frames_[index];
    ModelAttention result;
    const int t = int(frame.characters.size());
    const qsizetype cells = qsizetype(t) * t;
    const unsigned char* in = reinterpret_cast<const unsigned char*>(frame.weights.constData());
    for (int l = 0; l < frame.layers; ++l) {
        LayerAttention layer;
        for (int h = 0; h < frame.heads; ++h) {
            AttentionMatrix matrix;
            matrix.queryChars = frame.characters;
            matrix.keyChars = frame.characters;
            matrix.weights.resize(cells);
            for (qsizetype i = 0; i < cells; ++i, ++in)
                matrix.weights[i] = *in == 255 ? AttentionMatrix::masked() : float(*in) / 254.0f;
            layer.heads.append(matrix);
        }
        result.layers.append(layer);
    }
    return result;
}

// --- AttentionPage ----------------------------------------------------------

AttentionPage::AttentionPage(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);

    auto* top = new QHBoxLayout;
    probeLabel_ = new QLabel(this);
    probeEdit_ = new QPlainTextEdit(this);
    probeEdit_->setObjectName(QStringLiteral("probe"));
    probeEdit_->setMaximumHeight(probeEdit_->fontMetrics().lineSpacing() * 3 + 12);
    probeEdit_->setTabChangesFocus(true);
    layerLabel_ = new QLabel(this);
    layerSpin_ = new QSpinBox(this);
    layerSpin_->setObjectName(QStringLiteral("layer"));
    layerSpin_->setRange(0, 0);
    refreshButton_ = new QPushButton(this);
    top->addWidget(probeLabel_);
    top->addWidget(probeEdit_, 1);
    top->addWidget(layerLabel_);
    top->addWidget(layerSpin_);
    top->addWidget(refreshButton_);
    layout->addLayout(top);

    statusLabel_ = new QLabel(this);
    statusLabel_->setTextFormat(Qt::PlainText);  // messages name files and hold text read from them: never markup
    statusLabel_->setWordWrap(true);
    statusLabel_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(statusLabel_);

    auto* splitter = new QSplitter(Qt::Horizontal, this);
    grid_ = new AttentionGrid;
    auto* gridScroll = new QScrollArea;
    gridScroll->setWidget(grid_);
    gridScroll->setWidgetResizable(true);
    gridScroll->setFrameShape(QFrame::NoFrame);
    overview_ = new AttentionOverview;
    splitter->addWidget(gridScroll);
    splitter->addWidget(overview_);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 1);
    layout->addWidget(splitter, 1);

    timelineBar_ = new TimelineBar(this);
    timelineBar_->slider()->setObjectName(QStringLiteral("timeline"));
    layout->addWidget(timelineBar_);

    probeTimer_.setSingleShot(true);
    probeTimer_.setInterval(400);
    connect(probeEdit_, &QPlainTextEdit::textChanged, &probeTimer_, qOverload<>(&QTimer::start));
    connect(&probeTimer_, &QTimer::timeout, this, [this] { emit probeChanged(probeText()); });
    connect(refreshButton_, &QPushButton::clicked, this, &AttentionPage::refreshRequested);
    connect(layerSpin_, &QSpinBox::valueChanged, this, [this](int layer) {
        if (layer < shown_.layers.size())
            grid_->setLayer(layer, shown_.layers[layer]);
    });
    connect(overview_, &AttentionOverview::headActivated, this, [this](int layer, int head) {
        setLayer(layer);
        grid_->showHeadLarge(head);
    });
    connect(timelineBar_, &TimelineBar::frameChosen, this, &AttentionPage::showTimelineFrame);

    retranslateUi();
}

QString AttentionPage::probeText() const { return probeEdit_->toPlainText(); }

void AttentionPage::setProbeText(const QString& text) {
    if (text == probeText())
        return;
    probeEdit_->setPlainText(text);
    probeTimer_.stop();
    emit probeChanged(text);
}

int AttentionPage::layer() const { return layerSpin_->value(); }

void AttentionPage::setLayer(int layer) { layerSpin_->setValue(layer); }

void AttentionPage::clear() {
    timeline_.clear();
    shown_ = ModelAttention();
    shownStep_ = -1;
    grid_->setLayer(0, LayerAttention());
    overview_->setModelAttention(ModelAttention());
    timelineBar_->setSteps({}, false);
    status_ = Status();
    problem_.clear();
    retranslateUi();
}

void AttentionPage::showProblem(const QString& message) {
    problem_ = message;
    updateStatus();
}

void AttentionPage::updateStatus() {
    if (!problem_.isEmpty()) {
        statusLabel_->setText(problem_);
        return;
    }
    if (!status_.valid) {
        statusLabel_->setText(tr("Train a model or open a checkpoint to see its attention. During training the "
                                 "heatmaps follow the model after every evaluation."));
        return;
    }
    QStringList notes;
    notes << tr("Step %1: %2 characters, computed in %3 ms on the inspector thread.")
                 .arg(status_.step)
                 .arg(status_.characters)
                 .arg(status_.milliseconds, 0, 'f', 1);
    if (!status_.unknownCharacters.isEmpty())
        notes << tr("Left out (not in the vocabulary): %1").arg(status_.unknownCharacters.join(QStringLiteral(" ")));
    if (status_.croppedCharacters > 0)
        notes << tr("The first %n character(s) were cropped to fit the context.", nullptr, status_.croppedCharacters);
    statusLabel_->setText(notes.join(QStringLiteral(" ")));
}

void AttentionPage::addAttention(const AttentionProbe& probe, qint64 step, double milliseconds) {
    const ModelAttention& attention = probe.attention;
    const bool atEnd = timelineBar_->atEnd();
    timeline_.add(step, attention);
    noteResult(probe, step, milliseconds);
    timelineBar_->setSteps(timeline_.steps(), atEnd);
    if (atEnd)
        show(attention, step);
}

void AttentionPage::showAttention(const AttentionProbe& probe, qint64 step, double milliseconds) {
    noteResult(probe, step, milliseconds);
    show(probe.attention, step);
}

void AttentionPage::noteResult(const AttentionProbe& probe, qint64 step, double milliseconds) {
    problem_.clear();
    status_.valid = true;
    status_.step = step;
    status_.characters = int(splitCharacters(probe.text).size());
    status_.milliseconds = milliseconds;
    status_.unknownCharacters = probe.unknownCharacters;
    status_.croppedCharacters = probe.croppedCharacters;
    updateStatus();
}

void AttentionPage::showTimelineFrame(int index) {
    if (index < 0 || index >= timeline_.size())
        return;
    show(timeline_.attention(index), timeline_.step(index));
}

void AttentionPage::show(const ModelAttention& attention, qint64 step) {
    shown_ = attention;
    shownStep_ = step;
    const int layers = int(attention.layers.size());
    {
        const QSignalBlocker blocker(layerSpin_);
        layerSpin_->setRange(0, std::max(0, layers - 1));
    }
    const int layer = std::min(layerSpin_->value(), std::max(0, layers - 1));
    grid_->setLayer(layer, layers > 0 ? attention.layers[layer] : LayerAttention());
    overview_->setModelAttention(attention);
}

void AttentionPage::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    QWidget::changeEvent(event);
}

void AttentionPage::retranslateUi() {
    probeLabel_->setText(tr("Probe:"));
    probeEdit_->setPlaceholderText(tr("A text to run through the model"));
    layerLabel_->setText(tr("Layer:"));
    refreshButton_->setText(tr("Refresh"));
    refreshButton_->setToolTip(tr("Run the probe through the latest snapshot of the model"));
    timelineBar_->slider()->setToolTip(
        tr("Replay the probe's attention from the first snapshot of the run to the latest"));
    updateStatus();
}
