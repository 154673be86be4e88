// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/HealthView.h"

#include <QCoreApplication>
#include <QEvent>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QTextStream>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

#include "model/train/HealthWarningWords.h"
#include "widgets/Plot.h"
#include "widgets/ViewExport.h"

using chargpt::HealthFigures;

namespace {

// A colour per layer (Matplotlib's tab10, then again darker).
QColor layerColor(int layer) {
    static const QColor colors[] = {{31, 119, 180}, {255, 127, 14}, {44, 160, 44},  {214, 39, 40},
                                    {148, 103, 189}, {140, 86, 75}, {227, 119, 194}, {127, 127, 127},
                                    {188, 189, 34},  {23, 190, 207}};
    const QColor c = colors[layer % 10];
    return layer < 10 ? c : c.darker(140);
}

double meanOfFinite(const std::vector<double>& values) {
    double sum = 0.0;
    int n = 0;
    for (double v : values)
        if (std::isfinite(v)) {
            sum += v;
            ++n;
        }
    return n ? sum / n : std::nan("");
}

QCPItemStraightLine* horizontalLine(Plot* plot, QCPAxisRect* rect, double y, const QPen& pen) {
    auto* line = new QCPItemStraightLine(plot);
    line->setClipAxisRect(rect);
    for (QCPItemPosition* p : {line->point1, line->point2})
        p->setAxes(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
    line->point1->setCoords(0, y);
    line->point2->setCoords(1, y);
    line->setPen(pen);
    return line;
}

}  // namespace

HealthView::HealthView(QWidget* parent)
    : QWidget(parent), plot_(new Plot(this)), cursor_(std::nan("")), marked_(std::nan("")) {
    setObjectName(QStringLiteral("healthView"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* top = new QHBoxLayout;
    title_ = new QLabel(this);
    title_->setObjectName(QStringLiteral("healthTitle"));
    exportButton_ = new QPushButton(this);
    exportButton_->setObjectName(QStringLiteral("healthExport"));
    top->addWidget(title_, 1);
    top->addWidget(exportButton_);
    layout->addLayout(top);
    emptyNote_ = new QLabel(this);
    emptyNote_->setWordWrap(true);
    emptyNote_->setObjectName(QStringLiteral("healthEmpty"));
    layout->addWidget(emptyNote_);
    layout->addWidget(plot_, 1);
    warningList_ = new QLabel(this);
    warningList_->setObjectName(QStringLiteral("healthWarnings"));
    warningList_->setWordWrap(true);
    warningList_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(warningList_);
    readout_ = new QLabel(this);
    readout_->setObjectName(QStringLiteral("healthReadout"));
    readout_->setWordWrap(true);
    readout_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    // Under the plots, in a smaller font: the plots keep their room.
    QFont small = font();
    small.setPointSizeF(std::max(7.0, small.pointSizeF() - 1.0));
    warningList_->setFont(small);
    readout_->setFont(small);
    readout_->hide();
    layout->addWidget(readout_);
    connect(exportButton_, &QPushButton::clicked, this, &HealthView::chooseExportFile);

    // Four panels in a 2 x 2 grid; the first is the plot's own axis rect, which holds the legend.
    rects_[0] = plot_->axisRect();
    for (int i = 1; i < 4; ++i) {
        rects_[i] = new QCPAxisRect(plot_);
        plot_->plotLayout()->addElement(i / 2, i % 2, rects_[i]);
    }
    for (QCPAxisRect* rect : rects_) {
        rect->setupFullAxesBox(true);
        rect->axis(QCPAxis::atBottom)->setRange(0, 1);
        // Two or three steps along a narrow panel, in a smaller font, so that
        // "1000 2000 3000" do not run together.
        QCPAxis* x = rect->axis(QCPAxis::atBottom);
        x->ticker()->setTickStepStrategy(QCPAxisTicker::tssMeetTickCount);
        x->ticker()->setTickCount(2);
        QFont small = x->tickLabelFont();
        small.setPointSizeF(std::max(6.0, small.pointSizeF() - 1.0));
        x->setTickLabelFont(small);
        rect->setMinimumSize(QSize(120, 100));
    }
    for (Panel logPanel : {Panel::GradNorm, Panel::UpdateRatio}) {
        QCPAxis* y = panel(logPanel)->axis(QCPAxis::atLeft);
        y->setScaleType(QCPAxis::stLogarithmic);
        y->setTicker(QSharedPointer<QCPAxisTickerLog>(new QCPAxisTickerLog));
        y->setNumberFormat(QStringLiteral("eb"));
        y->setNumberPrecision(0);
        y->setRange(1e-4, 1);
    }
    panel(Panel::DeadUnits)->axis(QCPAxis::atLeft)->setRange(-0.02, 1.02);
    panel(Panel::Entropy)->axis(QCPAxis::atLeft)->setRange(0, 3);
    guide_ = horizontalLine(plot_, panel(Panel::UpdateRatio), chargpt::kHealthyUpdateRatio,
                            QPen(QColor(60, 60, 60), 1.5, Qt::DashLine));
    collapseLine_ = horizontalLine(plot_, panel(Panel::Entropy), chargpt::kCollapsedEntropy,
                                   QPen(QColor(200, 40, 40), 1, Qt::DotLine));
    for (QCPAxisRect* rect : rects_) {
        auto* line = new QCPItemStraightLine(plot_);
        line->setClipAxisRect(rect);
        for (QCPItemPosition* p : {line->point1, line->point2})
            p->setAxes(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
        line->setPen(QPen(QColor(200, 40, 40, 160), 1.5));
        line->setVisible(false);
        stepLines_.push_back(line);
        auto* cursor = new QCPItemStraightLine(plot_);
        cursor->setClipAxisRect(rect);
        for (QCPItemPosition* p : {cursor->point1, cursor->point2})
            p->setAxes(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
        cursor->setPen(QPen(QColor(90, 90, 90, 180), 1.0, Qt::DashDotLine));
        cursor->setVisible(false);
        cursorLines_.push_back(cursor);
    }
    collapsed_ = plot_->addGraph(panel(Panel::Entropy)->axis(QCPAxis::atBottom), panel(Panel::Entropy)->axis(QCPAxis::atLeft));
    collapsed_->setLineStyle(QCPGraph::lsNone);
    collapsed_->removeFromLegend();  // listed once a head collapsed
    collapsed_->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCross, QColor(200, 40, 40), 8));
    plot_->legend->setVisible(true);
    plot_->legend->setFont(QFont(font().family(), std::max(7, font().pointSize() - 2)));
    panel(Panel::GradNorm)->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignRight);
    retranslate();
    setFigures({});
}

QString HealthView::warningText(const chargpt::HealthWarning& w) {
    // The sentence and its numbers are the model's (HealthWarningWords.h), the
    // same the command line prints; only the language is the window's.
    QString text =
        QCoreApplication::translate(chargpt::kHealthWarningContext, chargpt::healthWarningSentence(w.kind));
    for (const std::string& number : chargpt::healthWarningNumbers(w))
        text = text.arg(QString::fromStdString(number));
    return text;
}

void HealthView::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QWidget::changeEvent(event);
}

void HealthView::retranslate() {
    title_->setText(tr("Training health, per layer"));
    emptyNote_->setText(tr("The health of a run is measured every few steps while it trains: the size of each "
                           "layer's gradients and updates, its feed-forward units that never fire, and how "
                           "spread each head's attention is."));
    exportButton_->setText(tr("Export…"));
    panel(Panel::GradNorm)->axis(QCPAxis::atLeft)->setLabel(tr("gradient norm"));
    panel(Panel::UpdateRatio)->axis(QCPAxis::atLeft)->setLabel(tr("update / weight (guide 1e-3)"));
    panel(Panel::DeadUnits)->axis(QCPAxis::atLeft)->setLabel(tr("units that never fire"));
    panel(Panel::Entropy)->axis(QCPAxis::atLeft)->setLabel(tr("head entropy, nats"));
    for (QCPAxisRect* rect : rects_)
        rect->axis(QCPAxis::atBottom)->setLabel(tr("step"));
    collapsed_->setName(tr("collapsed head"));
    for (std::size_t i = 0; i < graphs_[0].size(); ++i)
        for (auto& panelGraphs : graphs_)
            panelGraphs[i]->setName(tr("layer %1").arg(i + 1));
    showWarnings();
    showCursor();
    plot_->replotAfterPaint();
}

void HealthView::setStepCursor(double step) {
    cursor_ = step;
    showCursor();
    plot_->replotAfterPaint();
}

double HealthView::cursorStep() const {
    const std::size_t i =
        std::isfinite(cursor_) ? chargpt::nearestMeasured(figures_, int64_t(cursor_)) : figures_.size();
    return i < figures_.size() ? double(figures_[i].step) : std::nan("");
}

QString HealthView::readoutText() const {
    const double shown = cursorStep();
    if (!std::isfinite(shown)) return QString();
    const HealthFigures& f = figures_[chargpt::nearestMeasured(figures_, int64_t(cursor_))];
    const auto number = [](double v) {
        return std::isfinite(v) ? QString::number(v, 'g', 3) : QStringLiteral("?");
    };
    double lowest = std::nan("");
    for (const std::vector<double>& heads : f.headEntropy)
        for (double e : heads)
            if (std::isfinite(e) && !(e >= lowest)) lowest = e;
    const double dead = meanOfFinite(f.deadShare);
    return tr("Measured at step %1, the nearest to step %2: gradient norm %3, update / weight %4 (the "
              "layers' "
              "median), %5 of the feed-forward units never fire, lowest head entropy %6 nats.")
        .arg(f.step)
        .arg(qint64(cursor_))
        .arg(number(f.gradNorm), number(chargpt::medianUpdateRatio(f)),
             std::isfinite(dead) ? QStringLiteral("%1%").arg(100.0 * dead, 0, 'f', 0) : QStringLiteral("?"),
             number(lowest));
}

void HealthView::showCursor() {
    const double shown = cursorStep();
    for (QCPItemStraightLine* line : cursorLines_) {
        line->setVisible(std::isfinite(shown));
        if (std::isfinite(shown)) {
            line->point1->setCoords(shown, 1e-9);
            line->point2->setCoords(shown, 1.0);
        }
    }
    readout_->setText(readoutText());
    readout_->setVisible(std::isfinite(shown));
}

void HealthView::addWarnings(const std::vector<chargpt::HealthWarning>& warnings) {
    if (warnings.empty()) return;
    warnings_.insert(warnings_.end(), warnings.begin(), warnings.end());
    showWarnings();
}

void HealthView::setHealth(const chargpt::RunHealth& health) {
    setFigures(health.figures);
    addWarnings(health.warnings);
}

QString HealthView::warningListText() const {
    // The latest few; a run whose learning rate is far too high says many.
    constexpr std::size_t kListed = 3;
    QStringList lines;
    const std::size_t first = warnings_.size() > kListed ? warnings_.size() - kListed : 0;
    if (first > 0) lines << tr("The latest %1 of %2 warnings:").arg(kListed).arg(warnings_.size());
    for (std::size_t i = first; i < warnings_.size(); ++i)
        lines << QStringLiteral("• ") + warningText(warnings_[i]);
    return lines.join(QLatin1Char('\n'));
}

void HealthView::showWarnings() {
    warningList_->setText(warningListText());
    warningList_->setVisible(!warnings_.empty());
}

void HealthView::makeGraphs(int layers) {
    for (auto& panelGraphs : graphs_) {
        for (QCPGraph* g : panelGraphs)
            plot_->removeGraph(g);
        panelGraphs.clear();
    }
    for (int p = 0; p < 4; ++p) {
        QCPAxisRect* rect = rects_[p];
        for (int layer = 0; layer < layers; ++layer) {
            QCPGraph* g = plot_->addGraph(rect->axis(QCPAxis::atBottom), rect->axis(QCPAxis::atLeft));
            g->setPen(QPen(layerColor(layer), 1.5));
            g->setName(tr("layer %1").arg(layer + 1));
            if (p != 0 || layers > 12)
                g->removeFromLegend();
            graphs_[p].push_back(g);
        }
    }
}

void HealthView::addPoints(const HealthFigures& f) {
    const double step = double(f.step);
    auto add = [&](Panel p, const std::vector<double>& values, bool positiveOnly) {
        auto& graphs = graphs_[int(p)];
        for (std::size_t layer = 0; layer < values.size() && layer < graphs.size(); ++layer) {
            const double v = values[layer];
            if (std::isfinite(v) && (!positiveOnly || v > 0.0))
                graphs[layer]->addData(step, v);
        }
    };
    add(Panel::GradNorm, f.layerGradNorm, true);
    add(Panel::UpdateRatio, f.updateRatio, true);
    add(Panel::DeadUnits, f.deadShare, false);
    std::vector<double> entropy;
    for (const std::vector<double>& heads : f.headEntropy) {
        entropy.push_back(meanOfFinite(heads));
        for (double e : heads)
            if (std::isfinite(e) && e < chargpt::kCollapsedEntropy)
                collapsed_->addData(step, e);
    }
    add(Panel::Entropy, entropy, false);
    if (!collapsed_->data()->isEmpty())
        collapsed_->addToLegend();
}

void HealthView::fitAxes() {
    for (int p = 0; p < 4; ++p) {
        bool first = true;
        for (QCPGraph* g : graphs_[p]) {
            if (g->data()->isEmpty())
                continue;
            g->rescaleAxes(!first);
            first = false;
        }
        QCPAxis* x = rects_[p]->axis(QCPAxis::atBottom);
        if (first)
            x->setRange(0, 1);
        else if (x->range().size() <= 0)
            x->setRange(x->range().lower - 1, x->range().upper + 1);
    }
    QCPAxis* ratio = panel(Panel::UpdateRatio)->axis(QCPAxis::atLeft);
    QCPRange r = ratio->range();
    r.expand(chargpt::kHealthyUpdateRatio * 0.5);
    r.expand(chargpt::kHealthyUpdateRatio * 2.0);
    ratio->setRange(r.lower * 0.8, r.upper * 1.25);
    QCPAxis* grad = panel(Panel::GradNorm)->axis(QCPAxis::atLeft);
    grad->setRange(grad->range().lower * 0.8, grad->range().upper * 1.25);
    panel(Panel::DeadUnits)->axis(QCPAxis::atLeft)->setRange(-0.02, 1.02);
    QCPAxis* entropy = panel(Panel::Entropy)->axis(QCPAxis::atLeft);
    entropy->setRange(0, std::max(entropy->range().upper * 1.05, 0.5));
}

void HealthView::append(const std::vector<HealthFigures>& figures) {
    if (figures.empty())
        return;
    for (const HealthFigures& f : figures) {
        if (graphs_[0].size() != f.updateRatio.size()) {
            // Another model: its figures start afresh.
            figures_.clear();
            warnings_.clear();
            showWarnings();
            collapsed_->data()->clear();
            collapsed_->removeFromLegend();
            makeGraphs(int(f.updateRatio.size()));
        }
        figures_.push_back(f);
        addPoints(f);
    }
    emptyNote_->hide();
    plot_->legend->setVisible(true);
    showCursor();
    fitAxes();
    plot_->replotAfterPaint();
}

void HealthView::setFigures(const std::vector<HealthFigures>& figures) {
    figures_.clear();
    warnings_.clear();
    showWarnings();
    collapsed_->data()->clear();
    makeGraphs(figures.empty() ? 0 : int(figures.front().updateRatio.size()));
    collapsed_->removeFromLegend();
    markStep(std::nan(""));
    if (figures.empty()) {
        showCursor();
        emptyNote_->show();
        plot_->legend->setVisible(false);
        fitAxes();
        plot_->replotAfterPaint();
        return;
    }
    append(figures);
}

void HealthView::markStep(double step) {
    marked_ = step;
    for (QCPItemStraightLine* line : stepLines_) {
        line->setVisible(std::isfinite(step));
        if (std::isfinite(step)) {
            line->point1->setCoords(step, 1e-9);
            line->point2->setCoords(step, 1.0);
        }
    }
    plot_->replotAfterPaint();
}

void HealthView::chooseExportFile() {
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export training health"), QStringLiteral("training-health.png"),
        tr("PNG image (*.png);;SVG image (*.svg);;PDF document (*.pdf);;CSV table of every figure (*.csv)"));
    if (path.isEmpty())
        return;
    QString error;
    if (!exportTo(path, &error)) ViewExport::showFailureAt(exportButton_, error);
}

bool HealthView::exportTo(const QString& path, QString* error) const {
    return ViewExport::writePlot(
        path, plot_, QSize(900, 600), [this] { return csvText(); }, error);
}

QString HealthView::csvText() const {
    QString text;
    QTextStream out(&text);
    const auto cell = [](double v) { return std::isfinite(v) ? QString::number(v, 'g', 9) : QString(); };
    const std::size_t layers = figures_.empty() ? 0 : figures_.front().updateRatio.size();
    const std::size_t heads = figures_.empty() || figures_.front().headEntropy.empty()
                                  ? 0
                                  : figures_.front().headEntropy.front().size();
    out << "step,loss,grad_norm";
    for (std::size_t l = 1; l <= layers; ++l) {
        out << ",layer" << l << "_grad_norm,layer" << l << "_update_ratio,layer" << l << "_dead_share";
        for (std::size_t h = 1; h <= heads; ++h)
            out << ",layer" << l << "_head" << h << "_entropy,layer" << l << "_head" << h << "_previous_share";
    }
    out << '\n';
    const auto at = [](const std::vector<double>& v, std::size_t i) { return i < v.size() ? v[i] : std::nan(""); };
    for (const HealthFigures& f : figures_) {
        out << f.step << ',' << cell(f.loss) << ',' << cell(f.gradNorm);
        for (std::size_t l = 0; l < layers; ++l) {
            out << ',' << cell(at(f.layerGradNorm, l)) << ',' << cell(at(f.updateRatio, l)) << ','
                << cell(at(f.deadShare, l));
            for (std::size_t h = 0; h < heads; ++h) {
                const double e = l < f.headEntropy.size() ? at(f.headEntropy[l], h) : std::nan("");
                const double p = l < f.previousShare.size() ? at(f.previousShare[l], h) : std::nan("");
                out << ',' << cell(e) << ',' << cell(p);
            }
        }
        out << '\n';
    }
    out.flush();
    return text;
}
