// SPDX-License-Identifier: GPL-3.0-or-later
#include "RunsCompare.h"

#include <QCheckBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QEvent>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSlider>
#include <QSplitter>
#include <QTableWidget>
#include <QTextStream>
#include <QVBoxLayout>

#include "CurveSmoothing.h"
#include "ViewExport.h"
#include "model/train/RunFields.h"
#include "qcustomplot.h"

namespace {

// Colours that stay apart for the first runs (ColorBrewer's Dark2, then Set1).
QColor runColor(int i) {
    static const QColor colors[] = {QColor(0x1b, 0x9e, 0x77), QColor(0xd9, 0x5f, 0x02), QColor(0x75, 0x70, 0xb3),
                                    QColor(0xe7, 0x29, 0x8a), QColor(0x66, 0xa6, 0x1e), QColor(0xe6, 0xab, 0x02),
                                    QColor(0xa6, 0x76, 0x1d), QColor(0x37, 0x7e, 0xb8), QColor(0xe4, 0x1a, 0x1c),
                                    QColor(0x4d, 0x4d, 0x4d)};
    return colors[i % int(std::size(colors))];
}

}  // namespace

RunsCompare::RunsCompare(QWidget* parent) : QWidget(parent) {
    axisLabel_ = new QLabel(this);
    axisBox_ = new QComboBox(this);
    axisBox_->setObjectName(QStringLiteral("compareAxis"));
    for (int i = 0; i < 3; ++i)
        axisBox_->addItem(QString());
    trainBox_ = new QCheckBox(this);
    trainBox_->setObjectName(QStringLiteral("compareTraining"));
    trainBox_->setChecked(true);
    smoothingLabel_ = new QLabel(this);
    smoothingSlider_ = new QSlider(Qt::Horizontal, this);
    smoothingSlider_->setRange(0, 99);
    smoothingSlider_->setValue(int(std::lround(smoothing_ * 100)));
    smoothingSlider_->setMaximumWidth(140);
    export_ = new QPushButton(this);
    export_->setObjectName(QStringLiteral("compareExport"));
    plot_ = new QCustomPlot(this);
    plot_->setObjectName(QStringLiteral("comparePlot"));
    plot_->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
    plot_->legend->setVisible(true);
    plot_->legend->setBrush(QColor(255, 255, 255, 220));
    plot_->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignRight);
    diffTitle_ = new QLabel(this);
    diffTitle_->setWordWrap(true);
    diff_ = new QTableWidget(this);
    diff_->setObjectName(QStringLiteral("settingsDiff"));
    diff_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    diff_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);

    auto* controls = new QHBoxLayout;
    controls->addWidget(axisLabel_);
    controls->addWidget(axisBox_);
    controls->addSpacing(12);
    controls->addWidget(trainBox_);
    controls->addWidget(smoothingLabel_);
    controls->addWidget(smoothingSlider_);
    controls->addStretch(1);
    controls->addWidget(export_);
    auto* side = new QWidget(this);
    auto* sideLayout = new QVBoxLayout(side);
    sideLayout->setContentsMargins(0, 0, 0, 0);
    sideLayout->addWidget(diffTitle_);
    sideLayout->addWidget(diff_, 1);
    auto* split = new QSplitter(Qt::Horizontal, this);
    split->addWidget(plot_);
    split->addWidget(side);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 1);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addLayout(controls);
    layout->addWidget(split, 1);

    connect(axisBox_, qOverload<int>(&QComboBox::currentIndexChanged), this,
            [this](int index) { setXAxis(XAxis(std::clamp(index, 0, 2))); });
    connect(trainBox_, &QCheckBox::toggled, this, [this] { redraw(); });
    connect(smoothingSlider_, &QSlider::valueChanged, this, [this](int value) { setSmoothing(value / 100.0); });
    connect(export_, &QPushButton::clicked, this, [this] {
        ViewExport::chooseAndExport(this, tr("Export the comparison"), QStringLiteral("runs.png"),
                                    [this](const QString& path, QString* error) { return exportTo(path, error); });
    });
    retranslate();
}

void RunsCompare::setRuns(const QVector<RunRow>& runs, const QVector<RunCurve>& curves) {
    runs_ = runs;
    curves_ = curves;
    rebuild();
}

void RunsCompare::setXAxis(XAxis axis) {
    if (axisBox_->currentIndex() != int(axis)) {
        const QSignalBlocker blocker(axisBox_);
        axisBox_->setCurrentIndex(int(axis));
    }
    axis_ = axis;
    redraw();
}

void RunsCompare::setSmoothing(double smoothing) {
    smoothing_ = std::clamp(smoothing, 0.0, 0.99);
    const QSignalBlocker blocker(smoothingSlider_);
    smoothingSlider_->setValue(int(std::lround(smoothing_ * 100)));
    redraw();
}

const RunCurve* RunsCompare::curveOf(qint64 id) const {
    for (const RunCurve& curve : curves_)
        if (curve.id == id)
            return &curve;
    return nullptr;
}

QVector<RunsCompare::Series> RunsCompare::series() const {
    // Each curve against the chosen x, the training loss smoothed by the step gap.
    struct Drawn {
        QVector<double> valX, val, trainX, train;
    };
    auto drawn = [this](const RunCurve& c) {
        Drawn d;
        const QVector<double>& x = axis_ == XAxis::Step ? c.steps : axis_ == XAxis::Tokens ? c.tokens : c.seconds;
        const QVector<double>& ex =
            axis_ == XAxis::Step ? c.evalSteps : axis_ == XAxis::Tokens ? c.evalTokens : c.evalSeconds;
        GapSmoother smoother(smoothing_);
        for (int i = 0; i < c.steps.size() && i < x.size() && i < c.losses.size(); ++i) {
            if (!std::isfinite(c.losses[i]))
                continue;
            d.trainX << x[i];
            d.train << smoother.add(c.steps[i], c.losses[i]);
        }
        for (int i = 0; i < ex.size() && i < c.evalLosses.size(); ++i) {
            d.valX << ex[i];
            d.val << c.evalLosses[i];
        }
        return d;
    };
    QVector<Series> list;
    QVector<bool> grouped(runs_.size(), false);
    const QVector<QVector<int>> groups = seedGroups(runs_);
    QVector<int> firstOf(runs_.size(), -1);
    for (const QVector<int>& group : groups)
        for (int i : group)
            firstOf[i] = group.front();
    for (int i = 0; i < runs_.size(); ++i) {
        if (firstOf[i] >= 0 && firstOf[i] != i)
            continue;  // drawn with its group
        Series s;
        if (firstOf[i] < 0) {
            const RunCurve* curve = curveOf(runs_[i].id);
            s.name = tr("run %1 · %2").arg(runs_[i].id).arg(runs_[i].name);
            s.ids = {runs_[i].id};
            if (curve) {
                const Drawn d = drawn(*curve);
                s.valX = d.valX;
                s.val = d.val;
                s.trainX = d.trainX;
                s.train = d.train;
            }
        } else {
            QVector<QVector<double>> valXs, vals, trainXs, trains;
            for (const QVector<int>& group : groups) {
                if (group.front() != i)
                    continue;
                for (int member : group) {
                    s.ids << runs_[member].id;
                    if (const RunCurve* curve = curveOf(runs_[member].id)) {
                        const Drawn d = drawn(*curve);
                        valXs << d.valX;
                        vals << d.val;
                        trainXs << d.trainX;
                        trains << d.train;
                    }
                }
            }
            QStringList numbers;
            for (qint64 id : s.ids)
                numbers << QString::number(id);
            s.name = tr("runs %1 · %2 · %n seeds: mean, lowest to highest", nullptr, int(s.ids.size()))
                         .arg(numbers.join(QStringLiteral(", ")), runs_[i].name);
            if (valXs.size() == s.ids.size()) {
                const MeanBand val = meanBand(valXs, vals), train = meanBand(trainXs, trains);
                s.valX = val.x;
                s.val = val.mean;
                s.valLow = val.low;
                s.valHigh = val.high;
                s.trainX = train.x;
                s.train = train.mean;
            }
        }
        list << s;
    }
    return list;
}

QStringList RunsCompare::seriesNames() const {
    QStringList names;
    for (const Series& s : series())
        names << s.name;
    return names;
}

void RunsCompare::rebuild() {
    // The settings diff: a row per setting that differs (and the corpus, when
    // it does), a column per run.
    QStringList keys = differingSettings(runs_);
    bool corpusDiffers = false;
    for (const RunRow& run : runs_)
        corpusDiffers |= !runs_.isEmpty() && run.corpusHash != runs_.front().corpusHash;
    if (corpusDiffers)
        keys.prepend(QStringLiteral("corpus"));
    diff_->clear();
    diff_->setColumnCount(runs_.size());
    diff_->setRowCount(keys.size());
    QStringList headers;
    for (int c = 0; c < runs_.size(); ++c) {
        headers << tr("run %1").arg(runs_[c].id);
        for (int r = 0; r < keys.size(); ++r) {
            const QString value =
                keys[r] == QLatin1String("corpus") ? runs_[c].corpus : runs_[c].setting(keys[r]);
            diff_->setItem(r, c, new QTableWidgetItem(value.isEmpty() ? QStringLiteral("–") : value));
        }
    }
    diff_->setHorizontalHeaderLabels(headers);
    diff_->setVerticalHeaderLabels(keys);
    // Each key's label and unit in the user's language, from the settings' table.
    for (int r = 0; r < keys.size(); ++r)
        if (const chargpt::RunField* field = chargpt::runField(keys[r].toStdString())) {
            QString label = QCoreApplication::translate("RunFields", field->label);
            if (*field->unit)
                label += QStringLiteral(" (%1)").arg(QCoreApplication::translate("RunFields", field->unit));
            diff_->verticalHeaderItem(r)->setToolTip(label);
        }
    if (runs_.isEmpty())
        diffTitle_->setText(tr("Tick runs in the list to compare them."));
    else if (runs_.size() == 1)
        diffTitle_->setText(tr("Tick another run to compare its settings and curves with this one."));
    else if (keys.isEmpty())
        diffTitle_->setText(tr("These runs have the same settings and corpus."));
    else
        diffTitle_->setText(tr("What differs between these runs:"));
    redraw();
}

void RunsCompare::redraw() {
    plot_->clearGraphs();
    plot_->clearItems();
    const QVector<Series> all = series();
    for (int i = 0; i < all.size(); ++i) {
        const Series& s = all[i];
        const QColor color = runColor(i);
        if (!s.valLow.isEmpty()) {
            QColor fill = color;
            fill.setAlpha(50);
            QCPGraph* low = plot_->addGraph();
            low->setData(s.valX, s.valLow, true);
            low->setPen(Qt::NoPen);
            low->removeFromLegend();
            QCPGraph* high = plot_->addGraph();
            high->setData(s.valX, s.valHigh, true);
            high->setPen(Qt::NoPen);
            high->setBrush(fill);
            high->setChannelFillGraph(low);
            high->removeFromLegend();
        }
        QCPGraph* val = plot_->addGraph();
        val->setName(s.name);
        val->setData(s.valX, s.val, true);
        val->setPen(QPen(color, s.valLow.isEmpty() ? 2.0 : 3.0));
        val->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(color, 1.2), QBrush(Qt::white), 5.0));
        if (trainBox_->isChecked() && !s.train.isEmpty()) {
            QCPGraph* train = plot_->addGraph();
            train->setData(s.trainX, s.train, true);
            QPen pen(color, 1.2, Qt::DashLine);
            train->setPen(pen);
            train->removeFromLegend();
        }
    }
    plot_->legend->setVisible(!all.isEmpty());
    plot_->xAxis->setLabel(axisBox_->itemText(int(axis_)));
    plot_->rescaleAxes();
    plot_->yAxis->scaleRange(1.05, plot_->yAxis->range().center());
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

bool RunsCompare::exportTo(const QString& path, QString* error) const {
    const QSize size(1400, 800);
    auto paint = [this](QPainter& painter, const QRectF& target) {
        const QRectF plotArea(target.topLeft(), QSizeF(target.width() * 0.72, target.height()));
        ViewExport::paintPlot(painter, plotArea, plot_);
        // The diff beside it, as text.
        painter.save();
        painter.setPen(Qt::black);
        QRectF text(plotArea.right() + 16, target.top() + 16, target.width() - plotArea.width() - 32,
                    target.height() - 32);
        QStringList lines{diffTitle_->text()};
        for (int r = 0; r < diff_->rowCount(); ++r) {
            QStringList values;
            for (int c = 0; c < diff_->columnCount(); ++c)
                values << QStringLiteral("%1: %2").arg(diff_->horizontalHeaderItem(c)->text(),
                                                      diff_->item(r, c) ? diff_->item(r, c)->text() : QString());
            lines << QString() << diff_->verticalHeaderItem(r)->text() << values;
        }
        painter.drawText(text, Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap, lines.join(QLatin1Char('\n')));
        painter.restore();
    };
    return ViewExport::write(path, size, paint, [this] { return csv(); }, error);
}

QString RunsCompare::csv() const {
    QString out;
    QTextStream stream(&out);
    const char* axis = axis_ == XAxis::Step ? "step" : axis_ == XAxis::Tokens ? "tokens" : "seconds";
    stream << "series,runs,curve," << axis << ",loss\n";
    const QVector<Series> all = series();
    for (const Series& s : all) {
        QStringList ids;
        for (qint64 id : s.ids)
            ids << QString::number(id);
        const QString head = ViewExport::csvField(s.name) + QLatin1Char(',') + ids.join(QLatin1Char(' '));
        for (int i = 0; i < s.valX.size(); ++i) {
            stream << head << ",validation," << ViewExport::csvNumber(s.valX[i], 12) << ','
                   << ViewExport::csvNumber(s.val[i]) << '\n';
            if (!s.valLow.isEmpty())
                stream << head << ",validation lowest," << ViewExport::csvNumber(s.valX[i], 12) << ','
                       << ViewExport::csvNumber(s.valLow[i]) << '\n'
                       << head << ",validation highest," << ViewExport::csvNumber(s.valX[i], 12) << ','
                       << ViewExport::csvNumber(s.valHigh[i]) << '\n';
        }
        for (int i = 0; i < s.trainX.size(); ++i)
            stream << head << ",training smoothed," << ViewExport::csvNumber(s.trainX[i], 12) << ','
                   << ViewExport::csvNumber(s.train[i]) << '\n';
    }
    return out;
}

void RunsCompare::retranslate() {
    axisLabel_->setText(tr("Against:"));
    axisBox_->setItemText(0, tr("step"));
    axisBox_->setItemText(1, tr("tokens seen"));
    axisBox_->setItemText(2, tr("training time (s)"));
    trainBox_->setText(tr("Training loss (dashed)"));
    smoothingLabel_->setText(tr("Smoothing:"));
    smoothingSlider_->setToolTip(tr("Weight of the past over one step; the same whatever the points' spacing"));
    export_->setText(tr("Export…"));
    export_->setToolTip(tr("PNG, SVG or PDF of the plot and the settings that differ; CSV of every point"));
    plot_->yAxis->setLabel(tr("loss (nats); solid: validation, dashed: training"));
    rebuild();
}

void RunsCompare::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QWidget::changeEvent(event);
}
