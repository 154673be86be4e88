// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/AttentionPage.h"

#include <QEvent>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QSpinBox>
#include <QSplitter>
#include <QVBoxLayout>

#include <algorithm>

#include "widgets/AttentionGrid.h"
#include "widgets/CountSpinBox.h"
#include "widgets/PresentationScale.h"

AttentionPage::AttentionPage(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);

    auto* top = new QHBoxLayout;
    probeLabel_ = new QLabel(this);
    probeEdit_ = new QPlainTextEdit(this);
    probeEdit_->setObjectName(QStringLiteral("probe"));
    limitToLines(probeEdit_, 3);
    probeEdit_->setTabChangesFocus(true);
    layerLabel_ = new QLabel(this);
    layerSpin_ = new CountSpinBox(this);
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

    probeTimer_.setSingleShot(true);
    probeTimer_.setInterval(400);
    connect(probeEdit_, &QPlainTextEdit::textChanged, &probeTimer_, qOverload<>(&QTimer::start));
    connect(&probeTimer_, &QTimer::timeout, this, [this] { emit probeChanged(probeText()); });
    connect(refreshButton_, &QPushButton::clicked, this, &AttentionPage::refreshRequested);
    connect(layerSpin_, &QSpinBox::valueChanged, this, [this](int layer) {
        if (layer < shown_.layers.size())
            showLayer(layer);
    });
    connect(overview_, &AttentionOverview::headActivated, this, [this](int layer, int head) {
        setLayer(layer);
        grid_->showHeadLarge(head);
    });

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
    shown_ = ModelAttention();
    shownStep_.reset();
    changes_.clear();
    comparedStep_.reset();
    grid_->setLayer(0, LayerAttention());
    grid_->setChanges({}, std::nullopt);
    overview_->setModelAttention(ModelAttention());
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

void AttentionPage::showAttention(const AttentionProbe& probe, qint64 step, double milliseconds) {
    noteResult(probe, step, milliseconds);
    changes_ = probe.changes;
    comparedStep_ = probe.comparedStep;
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

void AttentionPage::show(const ModelAttention& attention, qint64 step) {
    shown_ = attention;
    shownStep_ = step;
    const int layers = int(attention.layers.size());
    {
        const QSignalBlocker blocker(layerSpin_);
        layerSpin_->setRange(0, std::max(0, layers - 1));
    }
    const int layer = std::min(layerSpin_->value(), std::max(0, layers - 1));
    showLayer(layer);
    overview_->setModelAttention(attention);
}

void AttentionPage::showLayer(int layer) {
    const bool has = layer >= 0 && layer < shown_.layers.size();
    grid_->setLayer(layer, has ? shown_.layers[layer] : LayerAttention());
    grid_->setChanges(has && comparedStep_ ? changes_.value(layer) : QVector<double>(), comparedStep_);
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
    updateStatus();
}
