// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/FeedForwardView.h"

#include <QComboBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QVBoxLayout>

#include <algorithm>

#include "widgets/AttentionData.h"
#include "widgets/GridPicture.h"
#include "widgets/ValueGrid.h"
#include "widgets/ViewExport.h"

namespace {
QString quotedCharacter(const QString& character) { return QStringLiteral("“%1”").arg(displayCharacter(character)); }
}  // namespace

FeedForwardView::FeedForwardView(QWidget* parent) : QWidget(parent) {
    explanation_ = new QLabel(this);
    explanation_->setWordWrap(true);
    status_ = new QLabel(this);
    status_->setTextFormat(Qt::PlainText);  // the probe's characters: never markup
    status_->setWordWrap(true);
    layerBox_ = new QComboBox(this);
    layerBox_->setObjectName(QStringLiteral("feedForwardLayer"));
    exportButton_ = new QPushButton(this);
    exportButton_->setObjectName(QStringLiteral("feedForwardExport"));
    grid_ = new ValueGrid(this);
    grid_->setMaximumCellSize(26.0);
    grid_->setToolTipFunction([this](int position, int column) { return toolTipText(position, column); });
    examples_ = new QLabel(this);
    examples_->setTextFormat(Qt::PlainText);  // characters of the corpus: never markup
    examples_->setWordWrap(true);
    check_ = new QLabel(this);
    check_->setTextFormat(Qt::PlainText);
    check_->setWordWrap(true);

    auto* top = new QHBoxLayout;
    top->addWidget(status_, 1);
    top->addWidget(layerBox_);
    top->addWidget(exportButton_);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(explanation_);
    layout->addLayout(top);
    layout->addWidget(grid_, 1);
    layout->addWidget(examples_);
    layout->addWidget(check_);

    connect(layerBox_, &QComboBox::currentIndexChanged, this, [this] {
        column_ = 0;
        updateView();
    });
    connect(grid_, &ValueGrid::cellHovered, this, [this](int, int column) {
        if (column >= 0) showNeuron(column);
    });
    connect(exportButton_, &QPushButton::clicked, this, [this] {
        ViewExport::chooseAndExport(this, tr("Export the feed-forward"), QStringLiteral("feed-forward.png"),
                                    [this](const QString& path, QString* error) { return exportTo(path, error); });
    });
    retranslateUi();
}

void FeedForwardView::setProbe(const FeedForwardProbeData& probe) {
    probe_ = probe;
    problem_.clear();
    const int keep = layer();
    fillLayers();
    if (keep >= 0 && keep < layerBox_->count()) layerBox_->setCurrentIndex(keep);
    column_ = 0;
    updateView();
}

void FeedForwardView::showProblem(const QString& message) {
    problem_ = message;
    probe_ = FeedForwardProbeData();
    fillLayers();
    updateView();
}

int FeedForwardView::layer() const { return layerBox_->currentIndex(); }

void FeedForwardView::setLayer(int layer) {
    if (layer >= 0 && layer < layerBox_->count()) layerBox_->setCurrentIndex(layer);
}

void FeedForwardView::showNeuron(int column) {
    column_ = column;
    examples_->setText(examplesText());
}

void FeedForwardView::fillLayers() {
    const QSignalBlocker block(layerBox_);
    layerBox_->clear();
    if (probe_.isValid())
        for (int l = 0; l < probe_.layers.size(); ++l) layerBox_->addItem(tr("Layer %1").arg(l + 1));
    layerBox_->setEnabled(layerBox_->count() > 1);
}

QString FeedForwardView::toolTipText(int position, int column) const {
    const int l = layer();
    if (!probe_.isValid() || l < 0 || position < 0 || position >= probe_.positionCount() || column < 0 ||
        column >= probe_.layers[l].neurons.size())
        return QString();
    const FeedForwardLayer& layer = probe_.layers[l];
    return tr("Neuron %1 at position %2 (%3): %4")
        .arg(layer.neurons[column] + 1)
        .arg(position)
        .arg(quotedCharacter(probe_.characters[position]))
        .arg(QLocale().toString(double(layer.activations[qsizetype(position) * layer.neurons.size() + column]), 'f', 2));
}

QString FeedForwardView::examplesText() const {
    const int l = layer();
    if (!probe_.isValid() || l < 0 || column_ < 0 || column_ >= probe_.layers[l].neurons.size()) return QString();
    const FeedForwardLayer& layer = probe_.layers[l];
    const QVector<NeuronExample>& examples = layer.examples[column_];
    if (examples.isEmpty())
        return tr("Neuron %1: no validation text to look for what fires it.").arg(layer.neurons[column_] + 1);
    QStringList shown;
    for (const NeuronExample& e : examples) {
        QString before;
        for (const QString& c : splitCharacters(e.before))
            before += displayCharacter(c);
        shown << tr("…%1[%2] %3")
                     .arg(before, displayCharacter(e.character), QLocale().toString(double(e.activation), 'f', 2));
    }
    return tr("Neuron %1 fires most, in the first %2 characters of the validation text, at the bracketed "
              "character: %3")
        .arg(layer.neurons[column_] + 1)
        .arg(QLocale().toString(probe_.sampleCharacters))
        .arg(shown.join(QStringLiteral("   ")));
}

QString FeedForwardView::checkText() const {
    const int l = layer();
    if (!probe_.isValid() || l < 0) return QString();
    const FeedForwardLayer& layer = probe_.layers[l];
    if (!layer.first || !layer.second)
        return tr("The feed-forward works on each position alone: one input vector gives one output wherever it "
                  "stands. (No character repeats in the probe to show it on.)");
    const QLocale locale;
    return tr("The feed-forward works on each position alone: one input vector gives one output wherever it "
              "stands. %1 is at positions %2 and %3: attention gave the two different inputs (%4 apart), so "
              "their outputs differ (%5 apart). Given position %2's input at both, the outputs differ by %6: "
              "the same, up to rounding.")
        .arg(quotedCharacter(probe_.characters[*layer.first]))
        .arg(*layer.first + 1)  // counted from 1, as the why window and the patching lab count them
        .arg(*layer.second + 1)
        .arg(locale.toString(layer.inputDistance, 'f', 3), locale.toString(layer.outputDistance, 'f', 3),
             locale.toString(layer.sameInputDifference, 'g', 2));
}

QString FeedForwardView::csv() const {
    QString out = QStringLiteral("layer,neuron,position,character,activation\n");
    if (!probe_.isValid()) return out;
    for (int l = 0; l < probe_.layers.size(); ++l) {
        const FeedForwardLayer& layer = probe_.layers[l];
        for (int k = 0; k < layer.neurons.size(); ++k)
            for (int p = 0; p < probe_.positionCount(); ++p)
                out += QStringList{QString::number(l + 1), QString::number(layer.neurons[k] + 1), QString::number(p),
                                   ViewExport::csvField(probe_.characters[p]),
                                   ViewExport::csvNumber(double(layer.activations[qsizetype(p) * layer.neurons.size() + k]))}
                           .join(QLatin1Char(',')) +
                       QLatin1Char('\n');
    }
    return out;
}

bool FeedForwardView::exportTo(const QString& path, QString* error) const {
    GridPicture picture;
    picture.title = tr("The feed-forward of layer %1").arg(layer() + 1);
    picture.caption = explanation_->text();
    if (probe_.isValid() && layer() >= 0) {
        picture.parts.push_back({status_->text(), grid_->data(), 26.0});
        picture.notes << examplesText() << checkText();
    }
    return picture.write(path, font(), [this] { return csv(); }, error);
}

void FeedForwardView::updateView() {
    ValueGridData data;
    data.scaleTitle = tr("activation after the GELU");
    const int l = layer();
    if (probe_.isValid() && l >= 0) {
        const FeedForwardLayer& layer = probe_.layers[l];
        for (const QString& c : probe_.characters) data.rowLabels << displayCharacter(c);
        for (const int n : layer.neurons) data.columnLabels << QString::number(n + 1);
        double top = 0.0;
        for (const float v : layer.activations) {
            data.values << double(v);
            top = std::max(top, double(v));
        }
        data.minimum = 0.0;
        data.maximum = top > 0.0 ? top : 1.0;
    }
    grid_->setData(data);
    if (!problem_.isEmpty())
        status_->setText(problem_);
    else if (!probe_.isValid())
        status_->setText(tr("Train a model or open a checkpoint to see its feed-forward neurons."));
    else
        status_->setText(tr("The %1 of %2 neurons that fire hardest on the probe, hardest first (numbered from 1).")
                             .arg(probe_.layers[l].neurons.size())
                             .arg(probe_.width));
    examples_->setText(examplesText());
    check_->setText(checkText());
    exportButton_->setEnabled(probe_.isValid());
}

void FeedForwardView::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange) retranslateUi();
    QWidget::changeEvent(event);
}

void FeedForwardView::retranslateUi() {
    explanation_->setText(
        tr("After attention, each layer's feed-forward reads every character's vector on its own and passes it "
           "through a wide layer of neurons. Each row is a character of the probe, each column a neuron: a "
           "bright cell means that neuron fires strongly there. Point at a column to see which characters of "
           "the validation text fire it most."));
    exportButton_->setText(tr("Export…"));
    exportButton_->setToolTip(
        tr("Save the layer shown as a PNG or SVG picture, or every layer's activations as a CSV table"));
    const int keep = layer();
    fillLayers();
    setLayer(keep);
    updateView();
}
