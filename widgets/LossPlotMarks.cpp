// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/LossPlotMarks.h"

#include <QFont>
#include <QFontMetricsF>
#include <qcustomplot.h>

#include <algorithm>
#include <cmath>

namespace {

const QColor kValColor(230, 110, 20);  // the validation curve's (LossPlot.cpp)
const QColor kUniformColor(200, 30, 30);
const QColor kUnigramColor(110, 110, 110);
const QColor kMemorisingColor(190, 110, 0);
const QColor kNgramColor(60, 100, 160);

// Sets how the x and the y of `position` are measured.
void setTypes(QCPItemPosition* position, QCPItemPosition::PositionType x, QCPItemPosition::PositionType y) {
    position->setTypeX(x);
    position->setTypeY(y);
}

}  // namespace

// How a marker looks: its line, its label (anchored by `labelAlignment` at
// the marker's label point), and how opaque the shaded region past it is (0:
// no region). The region is the line's colour.
struct LossPlotMarks::MarkerStyle {
    QPen pen;
    QColor labelColor;
    Qt::Alignment labelAlignment;
    QMargins labelPadding;
    int labelBackgroundAlpha = 200;
    int regionAlpha = 0;
};

LossPlotMarks::Marker LossPlotMarks::addMarker(Qt::Orientation orientation, const MarkerStyle& style) {
    // A horizontal marker spans the width (x as a fraction of the axis rect)
    // at a loss; a vertical one spans the height at a step.
    const bool horizontal = orientation == Qt::Horizontal;
    const auto along = [horizontal](QCPItemPosition* position) {
        if (horizontal)
            setTypes(position, QCPItemPosition::ptAxisRectRatio, QCPItemPosition::ptPlotCoords);
        else
            setTypes(position, QCPItemPosition::ptPlotCoords, QCPItemPosition::ptAxisRectRatio);
    };
    Marker marker;
    marker.orientation = orientation;
    if (style.regionAlpha > 0) {
        // From the line to the top of the plot, or to its right end: one
        // corner is fixed there, the other follows the line.
        marker.region = new QCPItemRect(plot_);
        marker.region->setLayer(QStringLiteral("grid"));
        QCPItemPosition* fixed = horizontal ? marker.region->topLeft : marker.region->bottomRight;
        QCPItemPosition* moving = horizontal ? marker.region->bottomRight : marker.region->topLeft;
        setTypes(fixed, QCPItemPosition::ptAxisRectRatio, QCPItemPosition::ptAxisRectRatio);
        along(moving);
        fixed->setCoords(horizontal ? 0.0 : 1.0, horizontal ? 0.0 : 1.0);
        marker.region->setPen(Qt::NoPen);
        QColor shade = style.pen.color();
        shade.setAlpha(style.regionAlpha);
        marker.region->setBrush(shade);
    }
    marker.line = new QCPItemStraightLine(plot_);
    along(marker.line->point1);
    along(marker.line->point2);
    marker.line->setPen(style.pen);
    marker.label = new QCPItemText(plot_);
    along(marker.label->position);
    marker.label->setPositionAlignment(style.labelAlignment);
    marker.label->setColor(style.labelColor);
    marker.label->setPadding(style.labelPadding);
    marker.label->setBrush(QColor(255, 255, 255, style.labelBackgroundAlpha));
    return marker;
}

void LossPlotMarks::Marker::place(double at) {
    const bool shown = std::isfinite(at);
    line->setVisible(shown);
    label->setVisible(shown);
    if (region)
        region->setVisible(shown);
    if (!shown)
        return;
    if (orientation == Qt::Horizontal) {
        line->point1->setCoords(0.0, at);
        line->point2->setCoords(1.0, at);
        label->position->setCoords(0.995, at);  // labelled at the right end
        if (region)
            region->bottomRight->setCoords(1.0, at);
    } else {
        line->point1->setCoords(at, 0.0);
        line->point2->setCoords(at, 1.0);
        label->position->setCoords(at, 0.0);  // at the top
        if (region)
            region->topLeft->setCoords(at, 0.0);
    }
}

LossPlotMarks::LossPlotMarks(QCustomPlot* plot, const QFont& font) : plot_(plot) {
    // The best validation point: a ring around the evaluation, in the legend
    // while there is one.
    bestGraph_ = plot_->addGraph();
    bestGraph_->setLineStyle(QCPGraph::lsNone);
    bestGraph_->setScatterStyle(
        QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(kValColor.darker(150), 2.5), Qt::NoBrush, 17.0));
    bestGraph_->setVisible(false);
    bestGraph_->removeFromLegend();

    // Reference lines: dashed, labelled at the right end (the curves start at
    // the left, near the uniform guess). Above the uniform guess a faint red
    // band: a curve there does worse than guessing.
    const auto reference = [](const QColor& color, int regionAlpha) {
        MarkerStyle style;
        style.pen = QPen(color, 1.5, Qt::DashLine);
        style.labelColor = color;
        style.labelAlignment = Qt::AlignRight | Qt::AlignBottom;
        style.labelPadding = QMargins(4, 1, 4, 1);
        style.labelBackgroundAlpha = 200;
        style.regionAlpha = regionAlpha;
        return style;
    };
    uniform_ = addMarker(Qt::Horizontal, reference(kUniformColor, 22));
    uniform_.label->setTextAlignment(Qt::AlignRight);
    unigram_ = addMarker(Qt::Horizontal, reference(kUnigramColor, 0));
    unigram_.label->setTextAlignment(Qt::AlignRight);
    // The unigram entropy is never above ln V: its label goes under its line, so
    // the two labels cannot overlap however close the lines are.
    unigram_.label->setPositionAlignment(Qt::AlignRight | Qt::AlignTop);

    // Where memorising began: a vertical line, the region after it shaded.
    MarkerStyle memorising;
    memorising.pen = QPen(kMemorisingColor, 2.0);
    memorising.labelColor = kMemorisingColor.darker(130);
    memorising.labelAlignment = Qt::AlignLeft | Qt::AlignTop;
    memorising.labelPadding = QMargins(6, 3, 6, 3);
    memorising.labelBackgroundAlpha = 210;
    memorising.regionAlpha = 35;
    memorising_ = addMarker(Qt::Vertical, memorising);
    QFont markerFont = font;
    markerFont.setBold(true);
    memorising_.label->setFont(markerFont);

    // The timeline's step: the step every view shows.
    MarkerStyle cursor;
    cursor.pen = QPen(QColor(60, 60, 60), 1.0, Qt::DotLine);
    cursor.labelColor = QColor(60, 60, 60);
    cursor.labelAlignment = Qt::AlignHCenter | Qt::AlignTop;
    cursor.labelPadding = QMargins(3, 1, 3, 1);
    cursor_ = addMarker(Qt::Vertical, cursor);

    // The n-gram floors: dotted, labelled at the left end, under their line
    // (the curves come down to them from the left, above).
    MarkerStyle ngram;
    ngram.pen = QPen(kNgramColor, 1.0, Qt::DotLine);
    ngram.labelColor = kNgramColor;
    ngram.labelAlignment = Qt::AlignLeft | Qt::AlignTop;
    ngram.labelPadding = QMargins(3, 0, 3, 0);
    ngram.labelBackgroundAlpha = 170;
    QFont small = font;
    small.setPointSizeF(std::max(6.0, font.pointSizeF() * 0.85));
    for (Marker& marker : ngrams_) {
        marker = addMarker(Qt::Horizontal, ngram);
        marker.label->setFont(small);
        marker.place(std::nan(""));
    }
}

void LossPlotMarks::keepLabelInside(Marker& marker, Qt::Alignment alignment) {
    // A vertical marker's label, centred on its line, is cut by the plot's
    // edge near either end: there it is set beside the line, inside.
    const QCPAxis* x = plot_->xAxis;
    const QRect rect = x->axisRect()->rect();
    const double pixel = x->coordToPixel(marker.line->point1->coords().x());
    const QMargins padding = marker.label->padding();
    const double half = 0.5 * (QFontMetricsF(marker.label->font()).horizontalAdvance(marker.label->text()) +
                               padding.left() + padding.right());
    if (pixel + half > rect.right())
        alignment = Qt::AlignRight | Qt::AlignTop;
    else if (pixel - half < rect.left())
        alignment = Qt::AlignLeft | Qt::AlignTop;
    marker.label->setPositionAlignment(alignment);
}

void LossPlotMarks::setNgramFloors(const QVector<double>& nats) {
    ngramNats_ = nats;
    ngramPassed_.clear();
}

void LossPlotMarks::setNgramPassed(const QVector<qint64>& passedAt) { ngramPassed_ = passedAt; }

QCPItemStraightLine* LossPlotMarks::ngramLine(int n) const {
    return n >= 2 && n <= kMaxNgram ? ngrams_[n - 2].line : nullptr;
}

QCPItemText* LossPlotMarks::ngramLabel(int n) const {
    return n >= 2 && n <= kMaxNgram ? ngrams_[n - 2].label : nullptr;
}

void LossPlotMarks::setReferenceLevels(double uniformNats, double unigramNats) {
    uniformNats_ = uniformNats;
    unigramNats_ = unigramNats;
}

void LossPlotMarks::setOverfittingFrom(double step) { overfittingStep_ = step; }

void LossPlotMarks::setStepCursor(double step) { cursorStep_ = step; }

void LossPlotMarks::setBestPoint(double step, double valNats) {
    bestStep_ = step;
    bestNats_ = valNats;
}

QCPItemStraightLine* LossPlotMarks::referenceLine(Reference which) const {
    return which == Reference::Uniform ? uniform_.line : unigram_.line;
}

QCPItemText* LossPlotMarks::referenceLabel(Reference which) const {
    return which == Reference::Uniform ? uniform_.label : unigram_.label;
}

void LossPlotMarks::refresh(LossUnit unit) {
    refreshReferences(unit);
    refreshMarkers(unit);
}

void LossPlotMarks::retranslate(LossUnit unit) {
    bestGraph_->setName(tr("lowest validation loss"));
    memorising_.label->setText(tr("memorising from here"));
    refreshMarkers(unit);  // the cursor's label
    refreshReferences(unit);
}

void LossPlotMarks::refreshReferences(LossUnit unit) {
    QString uniformText, unigramText;
    switch (unit) {
    case LossUnit::Nats:
        uniformText = tr("uniform guess: ln V = %1 · above it: worse than guessing");
        unigramText = tr("no context: unigram entropy = %1");
        break;
    case LossUnit::Bits:
        uniformText = tr("uniform guess: log₂ V = %1 · above it: worse than guessing");
        unigramText = tr("no context: unigram entropy = %1");
        break;
    case LossUnit::Perplexity:
        uniformText = tr("uniform guess: V = %1 · above it: worse than guessing");
        unigramText = tr("no context: unigram perplexity = %1");
        break;
    }
    const auto place = [unit](Marker& marker, double nats, const QString& text) {
        const double level = lossInUnit(nats, unit);
        marker.place(level);
        if (std::isfinite(level))
            marker.label->setText(text.arg(formatShownLoss(level, unit, 2)));
    };
    place(uniform_, uniformNats_, uniformText);
    place(unigram_, unigramNats_, unigramText);
    for (int n = 2; n <= kMaxNgram; ++n) {
        Marker& marker = ngrams_[n - 2];
        const double nats = n <= ngramNats_.size() ? ngramNats_[n - 1] : std::nan("");
        const double level = lossInUnit(nats, unit);
        marker.place(level);
        if (!std::isfinite(level))
            continue;
        const qint64 passed = n <= ngramPassed_.size() ? ngramPassed_[n - 1] : -1;
        const QString value = formatShownLoss(level, unit, 2);
        marker.label->setText(passed >= 0 ? tr("%1-gram floor %2 · passed at step %3").arg(n).arg(value).arg(passed)
                                          : tr("%1-gram floor %2").arg(n).arg(value));
        marker.label->position->setCoords(0.005, level);  // at the left end
    }
}

void LossPlotMarks::refreshMarkers(LossUnit unit) {
    memorising_.place(overfittingStep_);
    cursor_.place(cursorStep_);
    if (std::isfinite(cursorStep_)) {
        cursor_.label->setText(tr("step %1").arg(qint64(cursorStep_)));
        keepLabelInside(cursor_, Qt::AlignHCenter | Qt::AlignTop);
    }
    const bool best = std::isfinite(bestStep_) && std::isfinite(bestNats_);
    bestGraph_->data()->clear();
    if (best)
        bestGraph_->addData(bestStep_, lossInUnit(bestNats_, unit));
    if (best != bestGraph_->visible()) {
        bestGraph_->setVisible(best);
        if (best)
            bestGraph_->addToLegend();
        else
            bestGraph_->removeFromLegend();
    }
}

QCPRange LossPlotMarks::withReferences(const QCPRange& range, LossUnit unit) const {
    QCPRange widened = range;
    for (const double nats : {uniformNats_, unigramNats_})
        if (std::isfinite(nats))
            widened.expand(lossInUnit(nats, unit));
    for (int n = 2; n <= std::min<int>(kMaxNgram, int(ngramNats_.size())); ++n)
        if (std::isfinite(ngramNats_[n - 1]))
            widened.expand(lossInUnit(ngramNats_[n - 1], unit));
    return widened;
}

QCPRange LossPlotMarks::withLabelRoom(const QCPRange& range, LossUnit unit, double height,
                                      bool logScale) const {
    const double level = lossInUnit(uniformNats_, unit);
    if (!std::isfinite(level) || !(height > 0.0) || !(range.upper > range.lower)) return range;
    const auto labelHeight = [](const QCPItemText* label) {
        const QMargins padding = label->padding();
        return QFontMetricsF(label->font()).height() * double(label->text().count(QLatin1Char('\n')) + 1) +
               padding.top() + padding.bottom();
    };
    // The share of the axis above the line that the two labels take.
    const double share = (labelHeight(uniform_.label) + labelHeight(cursor_.label) + 4.0) / height;
    if (share >= 0.5) return range;  // a plot too low for them: its curves come first
    QCPRange raised = range;
    if (!logScale) {
        raised.upper = std::max(range.upper, (level - share * range.lower) / (1.0 - share));
    } else if (range.lower > 0.0 && level > 0.0) {
        raised.upper = std::max(range.upper,
                                std::exp((std::log(level) - share * std::log(range.lower)) / (1.0 - share)));
    }
    return raised;
}

QStringList LossPlotMarks::toolTipLines(const QPointF& pixel, LossUnit unit) const {
    QStringList lines;
    const auto near = [&](double nats) {
        return std::isfinite(nats) &&
               std::abs(plot_->yAxis->coordToPixel(lossInUnit(nats, unit)) - pixel.y()) < 6.0;
    };
    if (std::isfinite(overfittingStep_) &&
        std::abs(plot_->xAxis->coordToPixel(overfittingStep_) - pixel.x()) < 6.0)
        lines << tr("From step %1 validation loss rose while training loss kept falling: the model is "
                    "memorising its training text instead of learning what carries over to new text.")
                     .arg(overfittingStep_);
    if (std::isfinite(bestStep_) && std::isfinite(bestNats_) &&
        std::abs(plot_->xAxis->coordToPixel(bestStep_) - pixel.x()) < 10.0 && near(bestNats_))
        lines << tr("Lowest validation loss: %1 at step %2.").arg(formatLoss(bestNats_, unit)).arg(bestStep_);
    if (near(uniformNats_))
        lines << tr("Uniform guess (%1): the loss of a model that gives every character of the vocabulary "
                    "the same chance; a validation curve above it does worse than guessing.")
                     .arg(formatLoss(uniformNats_, unit));
    for (int n = 2; n <= std::min<int>(kMaxNgram, int(ngramNats_.size())); ++n)
        if (near(ngramNats_[n - 1]))
            lines << tr("%1-gram floor (%2): the validation loss of a classic model that sees the last %3 "
                        "character(s) only (interpolated Kneser-Ney, fitted to the training text). A model above it "
                        "has learned less than those characters tell.")
                         .arg(n)
                         .arg(formatLoss(ngramNats_[n - 1], unit))
                         .arg(n - 1);
    if (near(unigramNats_))
        lines << tr("No context (%1): the loss of a model that ignores the text before and guesses each "
                    "character by how often it occurs in the training text.")
                     .arg(formatLoss(unigramNats_, unit));
    return lines;
}
