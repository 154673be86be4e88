// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/RunsCompare.h"

#include "widgets/CorpusNames.h"

#include <QCheckBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QEvent>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QSplitter>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>
#include <utility>

#include "widgets/ViewExport.h"
#include "model/train/RunFields.h"
#include "qcustomplot.h"

RunsCompare::RunsCompare(QWidget* parent) : QWidget(parent) {
    axisLabel_ = new QLabel(this);
    axisBox_ = new QComboBox(this);
    axisBox_->setObjectName(QStringLiteral("compareAxis"));
    for (int i = 0; i < 3; ++i)
        axisBox_->addItem(QString());
    trainBox_ = new QCheckBox(this);
    trainBox_->setObjectName(QStringLiteral("compareTraining"));
    trainBox_->setChecked(true);
    lossPlot_ = new LossPlot(LossPlot::Layout::Runs, this);
    lossPlot_->setObjectName(QStringLiteral("compareLossPlot"));
    lossPlot_->plot()->setObjectName(QStringLiteral("comparePlot"));
    lossPlot_->setExporter(QStringLiteral("runs.png"),
                           [this](const QString& path, QString* error) { return exportTo(path, error); });
    // The x axis and the training lines in the plot's row of controls.
    lossPlot_->addControl(axisLabel_);
    lossPlot_->addControl(axisBox_);
    lossPlot_->addControl(trainBox_);
    diffTitle_ = new QLabel(this);
    diffTitle_->setWordWrap(true);
    diff_ = new QTableWidget(this);
    diff_->setObjectName(QStringLiteral("settingsDiff"));
    diff_->setEditTriggers(QAbstractItemView::NoEditTriggers);
    diff_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);

    auto* side = new QWidget(this);
    auto* sideLayout = new QVBoxLayout(side);
    sideLayout->setContentsMargins(0, 0, 0, 0);
    sideLayout->addWidget(diffTitle_);
    sideLayout->addWidget(diff_, 1);
    // The diff below the plot, the width of the tab: every run's column side
    // by side (beside the plot, a quarter of the width showed one at a time).
    auto* split = new QSplitter(Qt::Vertical, this);
    split->addWidget(lossPlot_);
    split->addWidget(side);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 1);
    split->setChildrenCollapsible(false);
    split->setSizes({520, 180});
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(split, 1);

    connect(axisBox_, qOverload<int>(&QComboBox::currentIndexChanged), this,
            [this](int index) { setXAxis(XAxis(std::clamp(index, 0, 2))); });
    connect(trainBox_, &QCheckBox::toggled, lossPlot_, &LossPlot::setTrainingShown);
    retranslate();
}

QCustomPlot* RunsCompare::plot() const { return lossPlot_->plot(); }

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
    lossPlot_->setXAxis(axis);
}

void RunsCompare::setSmoothing(double smoothing) { lossPlot_->setSmoothing(std::clamp(smoothing, 0.0, 0.99)); }

const RunCurve* RunsCompare::curveOf(qint64 id) const {
    for (const RunCurve& curve : curves_)
        if (curve.id == id)
            return &curve;
    return nullptr;
}

QVector<LossPlot::Series> RunsCompare::series() const {
    QVector<LossPlot::Series> list;
    const QVector<QVector<int>> groups = seedGroups(runs_);
    QVector<int> groupOf(runs_.size(), -1);
    for (int g = 0; g < groups.size(); ++g)
        for (int i : groups[g])
            groupOf[i] = g;
    for (int i = 0; i < runs_.size(); ++i) {
        LossPlot::Series s;
        if (groupOf[i] < 0) {
            s.name = tr("run %1 · %2").arg(runs_[i].id).arg(runs_[i].name);
            s.runs = QString::number(runs_[i].id);
            if (const RunCurve* curve = curveOf(runs_[i].id))
                s.curve = curve->losses;
            list << s;
            continue;
        }
        const QVector<int>& group = groups[groupOf[i]];
        if (group.front() != i)
            continue;  // drawn with its group
        QStringList numbers;
        QVector<const chargpt::LossCurve*> members;
        for (int member : group) {
            numbers << QString::number(runs_[member].id);
            if (const RunCurve* curve = curveOf(runs_[member].id))
                members << &curve->losses;
        }
        s.name = tr("runs %1 · %2 · %n seeds: mean, lowest to highest", nullptr, int(group.size()))
                     .arg(numbers.join(QStringLiteral(", ")), runs_[i].name);
        s.runs = numbers.join(QLatin1Char(' '));
        if (members.size() == group.size()) {  // drawn once every curve is there
            SeedMean mean = seedMean(members);
            s.curve = std::move(mean.mean);
            s.valLow = mean.valLow;
            s.valHigh = mean.valHigh;
        }
        list << s;
    }
    return list;
}

double RunsCompare::uniformGuessNats() const {
    // The uniform guess is the same line for every run only when they share a vocabulary.
    if (runs_.isEmpty())
        return std::nan("");
    const QString vocabulary = runs_.front().setting(QStringLiteral("vocab_size"));
    for (const RunRow& run : runs_)
        if (run.setting(QStringLiteral("vocab_size")) != vocabulary)
            return std::nan("");
    bool ok = false;
    const double size = vocabulary.toDouble(&ok);
    return ok && size > 1 ? std::log(size) : std::nan("");
}

QStringList RunsCompare::seriesNames() const {
    QStringList names;
    for (const LossPlot::Series& s : series())
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
            const chargpt::RunField* field = chargpt::runField(keys[r].toStdString());
            QString value =
                keys[r] == QLatin1String("corpus") ? corpusShownName(runs_[c].corpus) : runs_[c].setting(keys[r]);
            // A switch reads as on or off, not as the file's true or false.
            if (field && field->kind == chargpt::FieldKind::Flag && (value == QLatin1String("true") || value == QLatin1String("false")))
                value = value == QLatin1String("true") ? tr("on") : tr("off");
            diff_->setItem(r, c, new QTableWidgetItem(value.isEmpty() ? QStringLiteral("–") : value));
        }
    }
    diff_->setHorizontalHeaderLabels(headers);
    // Each setting by its label and unit in the user's language, from the
    // settings' table; its key (as files and the command line name it) in the tooltip.
    QStringList labels;
    for (const QString& key : keys) {
        if (const chargpt::RunField* field = chargpt::runField(key.toStdString())) {
            QString label = QCoreApplication::translate("RunFields", field->label);
            if (*field->unit)
                label += QStringLiteral(" (%1)").arg(QCoreApplication::translate("RunFields", field->unit));
            labels << label;
        } else {
            labels << (key == QLatin1String("corpus") ? tr("Corpus") : key);
        }
    }
    diff_->setVerticalHeaderLabels(labels);
    for (int r = 0; r < keys.size(); ++r)
        diff_->verticalHeaderItem(r)->setToolTip(keys[r]);
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
    lossPlot_->setSeries(series());
    // The uniform guess where the runs share it; the unigram entropy is the
    // corpus's, which the run library does not keep.
    lossPlot_->setReferenceLevels(uniformGuessNats(), std::nan(""));
}

bool RunsCompare::exportTo(const QString& path, QString* error) const {
    const QSize size(1400, 800);
    auto paint = [this](QPainter& painter, const QRectF& target) {
        const QRectF plotArea(target.topLeft(), QSizeF(target.width() * 0.72, target.height()));
        ViewExport::paintPlot(painter, plotArea, lossPlot_->plot());
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

QString RunsCompare::csv() const { return lossPlot_->csvText(); }

void RunsCompare::retranslate() {
    axisLabel_->setText(tr("Against:"));
    axisBox_->setItemText(0, tr("step"));
    axisBox_->setItemText(1, tr("tokens seen"));
    axisBox_->setItemText(2, tr("training time (s)"));
    trainBox_->setText(tr("Training loss (dashed)"));
    lossPlot_->setPlaceholderText(tr("Tick runs in the list to draw them here."));
    rebuild();
}

void RunsCompare::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange)
        retranslate();
    QWidget::changeEvent(event);
}
