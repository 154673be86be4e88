// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/LogitLensView.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QPushButton>
#include <QVBoxLayout>
#include <cmath>

#include "widgets/AttentionData.h"  // displayCharacter, percentText
#include "widgets/ValueGrid.h"
#include "widgets/GridPicture.h"
#include "widgets/ViewExport.h"

namespace {

QString quoted(const QString& character) { return QStringLiteral("“%1”").arg(displayCharacter(character)); }

}  // namespace

LogitLensView::LogitLensView(QWidget* parent) : QWidget(parent) {
    explanation_ = new QLabel(this);
    explanation_->setWordWrap(true);
    status_ = new QLabel(this);
    status_->setTextFormat(Qt::PlainText);  // messages name files and hold text read from them: never markup
    status_->setWordWrap(true);
    exportButton_ = new QPushButton(this);
    grid_ = new ValueGrid(this);
    grid_->setMaximumCellSize(34.0);
    grid_->setToolTipFunction([this](int layer, int position) { return toolTipText(layer, position); });

    auto* top = new QHBoxLayout;
    top->addWidget(status_, 1);
    top->addWidget(exportButton_);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(explanation_);
    layout->addLayout(top);
    layout->addWidget(grid_, 1);

    connect(exportButton_, &QPushButton::clicked, this, [this] {
        ViewExport::chooseAndExport(
            this, tr("Export the logit lens"), QStringLiteral("logit-lens.png"),
            [this](const QString& path, QString* error) { return exportTo(path, error); });
    });
    retranslateUi();
}

void LogitLensView::setLens(const LogitLens& lens) {
    lens_ = lens;
    problem_.clear();
    updateGrid();
}

void LogitLensView::showProblem(const QString& message) {
    problem_ = message;
    updateGrid();
}

QString LogitLensView::toolTipText(int layer, int position) const {
    if (!lens_.isValid() || layer < 0 || position < 0 || layer >= lens_.layerCount() ||
        position >= lens_.positionCount())
        return QString();
    const LogitLensCell& cell = lens_.cell(layer, position);
    QStringList lines;
    lines << tr("%1, position %2 (%3)")
                 .arg(lens_.layers[layer])
                 .arg(position)
                 .arg(quoted(lens_.characters[position]));
    lines << tr("Top guess: %1, %2").arg(quoted(cell.top), percentText(cell.topProbability));
    const QString next = lens_.nextCharacter(position);
    if (next.isEmpty() || cell.trueRank <= 0)
        lines << tr("No next character to compare with.");
    else
        lines << tr("True next character: %1, rank %2, %3")
                     .arg(quoted(next))
                     .arg(cell.trueRank)
                     .arg(percentText(cell.trueProbability));
    return lines.join(QLatin1Char('\n'));
}

void LogitLensView::updateGrid() {
    ValueGridData data;
    data.minimum = 0.0;
    data.maximum = 1.0;
    data.scaleTitle = tr("probability of the top guess");
    if (lens_.isValid()) {
        data.rowLabels = lens_.layers;
        for (const QString& c : lens_.characters) data.columnLabels << displayCharacter(c);
        for (const LogitLensCell& cell : lens_.cells) {
            data.values << double(cell.topProbability);
            data.cellTexts << displayCharacter(cell.top);
        }
    }
    grid_->setData(data);
    if (!problem_.isEmpty())
        status_->setText(problem_);
    else if (!lens_.isValid())
        status_->setText(tr("Train a model or open a checkpoint to see what it predicts after each block."));
    else if (lens_.step)
        status_->setText(
            tr("Model at step %1. Bright cells: the layer is already sure of its guess.").arg(*lens_.step));
    else
        status_->setText(tr("Bright cells: the layer is already sure of its guess."));
    exportButton_->setEnabled(lens_.isValid());
}

QString LogitLensView::csv() const {
    // Layer 0 is the embeddings, layer L the model's own prediction.
    QString out = QStringLiteral(
        "layer,layer_label,position,character,next_character,top,top_probability,"
        "true_rank,true_probability\n");
    if (!lens_.isValid()) return out;
    for (int l = 0; l < lens_.layerCount(); ++l)
        for (int p = 0; p < lens_.positionCount(); ++p) {
            const LogitLensCell& cell = lens_.cell(l, p);
            const bool hasNext = cell.trueRank > 0;
            out += QStringList{QString::number(l),
                               ViewExport::csvField(lens_.layers[l]),
                               QString::number(p),
                               ViewExport::csvField(lens_.characters[p]),
                               ViewExport::csvField(lens_.nextCharacter(p)),
                               ViewExport::csvField(cell.top),
                               ViewExport::csvNumber(cell.topProbability),
                               hasNext ? QString::number(cell.trueRank) : QString(),
                               hasNext ? ViewExport::csvNumber(cell.trueProbability) : QString()}
                       .join(QLatin1Char(',')) +
                   QLatin1Char('\n');
        }
    return out;
}

bool LogitLensView::exportTo(const QString& path, QString* error) const {
    GridPicture picture;
    picture.title = lens_.step ? tr("Logit lens at step %1").arg(*lens_.step) : tr("Logit lens");
    picture.caption = explanation_->text();
    if (lens_.isValid()) picture.parts.push_back({QString(), grid_->data(), 26.0});
    return picture.write(path, font(), [this] { return csv(); }, error);
}

void LogitLensView::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange) retranslateUi();
    QWidget::changeEvent(event);
}

void LogitLensView::retranslateUi() {
    explanation_->setText(
        tr("What the model would predict if it stopped after each block: the last row is its real "
           "prediction. Each cell shows the likeliest next character at that position, on the colour "
           "of its probability; hover a cell for the true next character and its rank."));
    exportButton_->setText(tr("Export…"));
    exportButton_->setToolTip(tr("Save the grid as a PNG or SVG picture, or a CSV table"));
    updateGrid();
}
