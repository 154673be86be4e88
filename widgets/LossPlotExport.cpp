// SPDX-License-Identifier: GPL-3.0-or-later
// The loss plot's export: a picture (PNG, SVG, PDF) or every point as CSV.
#include "widgets/LossPlot.h"

#include <QFileDialog>
#include <QPushButton>
#include <QTextStream>

#include <algorithm>
#include <cmath>
#include <map>

#include "widgets/LossPlotData.h"
#include "widgets/Plot.h"
#include "widgets/ViewExport.h"

QString LossPlot::unitName() const {
    switch (unit_) {
    case LossUnit::Nats: return QStringLiteral("nats");
    case LossUnit::Bits: return QStringLiteral("bits");
    case LossUnit::Perplexity: return QStringLiteral("perplexity");
    }
    return QString();
}

void LossPlot::chooseExportFile() {
    QString selected;
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export loss curves"), exportName_,
        tr("PNG image (*.png);;SVG image (*.svg);;PDF document (*.pdf);;CSV table of all points (*.csv)"),
        &selected);
    if (path.isEmpty())
        return;
    QString error;
    if (!(exporter_ ? exporter_(path, &error) : exportTo(path, &error)))
        ViewExport::showFailureAt(exportButton_, error);
}

bool LossPlot::exportTo(const QString& path, QString* error) const {
    return ViewExport::writePlot(
        path, plot_, QSize(800, 500), [this] { return csvText(); }, error);
}

QString LossPlot::csvText() const {
    if (layout_ == Layout::Runs)
        return seriesCsvText();
    // One row per step that has a value, every point included.
    struct Row {
        double train = std::nan(""), smoothed = std::nan(""), rate = std::nan(""), val = std::nan("");
    };
    std::map<double, Row> rows;
    for (const chargpt::LossCurve::Step& s : curves_->run.steps) {
        rows[double(s.step)].train = s.loss;
        rows[double(s.step)].rate = s.learningRate;
    }
    for (const QCPGraphData& p : curves_->smoothed) rows[p.key].smoothed = p.value;
    for (const chargpt::LossCurve::Evaluation& e : curves_->run.evaluations) rows[double(e.step)].val = e.valLoss;

    QString text;
    QTextStream out(&text);
    const auto cell = [](double v) { return std::isnan(v) ? QString() : QString::number(v, 'g', 9); };
    // The losses in nats always; in bits or perplexity, that unit's three
    // columns after them (the smoothed one converted from the smoothed nats,
    // as the plot shows it).
    out << "step,train_loss,train_loss_smoothed,learning_rate,val_loss";
    if (unit_ != LossUnit::Nats) {
        const QString u = unitName();
        out << ",train_" << u << ",train_" << u << "_smoothed,val_" << u;
    }
    out << '\n';
    for (const auto& [step, row] : rows) {
        out << QString::number(step, 'g', 15) << ',' << cell(row.train) << ',' << cell(row.smoothed) << ','
            << cell(row.rate) << ',' << cell(row.val);
        if (unit_ != LossUnit::Nats)
            out << ',' << cell(lossInUnit(row.train, unit_)) << ',' << cell(lossInUnit(row.smoothed, unit_)) << ','
                << cell(lossInUnit(row.val, unit_));
        out << '\n';
    }
    out.flush();
    return text;
}

bool LossPlot::exportCsv(const QString& path, QString* error) const {
    return ViewExport::writeText(path, csvText(), error);
}
