// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/SoftmaxLab.h"

#include <QCheckBox>
#include <QEvent>
#include <QFormLayout>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QPushButton>
#include <QSlider>
#include <QSpinBox>
#include <QTabWidget>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

#include "widgets/Plot.h"

using softmax_math::Matrix;

namespace {

constexpr uint32_t kDefaultSeed = 12046;  // the book's torch.manual_seed
constexpr int kLessonVectorSize = 8;
constexpr int kHistogramBins = 61;
constexpr int kTemperatureSteps = 100;  // slider units per 1.0 of temperature
constexpr int kMultiplierSteps = 100;   // slider units per factor of 10

const QColor kMaskedCellColor(225, 225, 225);
const QColor kUnscaledColor(230, 110, 20);
const QColor kScaledColor(31, 119, 180);

QString formatScore(double value) {
    if (std::isinf(value))
        return value < 0 ? QStringLiteral("-inf") : QStringLiteral("inf");
    return QString::number(value, 'f', 2);
}

QTableWidget* makeTable(QWidget* parent) {
    auto* table = new QTableWidget(parent);
    table->horizontalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    table->verticalHeader()->setSectionResizeMode(QHeaderView::Stretch);
    table->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
    table->setMinimumSize(220, 150);
    return table;
}

void setCell(QTableWidget* table, int row, int column, const QString& text, bool editable,
             const QColor& background = QColor()) {
    auto* item = table->item(row, column);
    if (!item) {
        item = new QTableWidgetItem;
        table->setItem(row, column, item);
    }
    item->setText(text);
    item->setTextAlignment(Qt::AlignCenter);
    Qt::ItemFlags flags = Qt::ItemIsEnabled | Qt::ItemIsSelectable;
    if (editable)
        flags |= Qt::ItemIsEditable;
    item->setFlags(flags);
    item->setBackground(background.isValid() ? QBrush(background) : QBrush());
}

}  // namespace

SoftmaxLab::SoftmaxLab(QWidget* parent)
    : QWidget(parent), tabs_(new QTabWidget(this)),
      lessonVector_(softmax_math::randomVector(kLessonVectorSize, kDefaultSeed)) {
    maskPage_ = buildMaskTab();
    variancePage_ = buildVarianceTab();
    tabs_->addTab(maskPage_, QString());
    tabs_->addTab(variancePage_, QString());
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(tabs_);

    spreadTimer_.setSingleShot(true);
    spreadTimer_.setInterval(120);
    connect(&spreadTimer_, &QTimer::timeout, this, &SoftmaxLab::recomputeSpread);

    retranslateUi();
    drawNewScores();
    recomputeSpread();
    refreshMultiplierView();
}

QWidget* SoftmaxLab::buildMaskTab() {
    auto* page = new QWidget;
    maskIntro_ = new QLabel(page);
    maskIntro_->setWordWrap(true);

    sizeLabel_ = new QLabel(page);
    sizeSpin_ = new QSpinBox(page);
    sizeSpin_->setRange(2, 8);
    sizeSpin_->setValue(4);
    seedLabel_ = new QLabel(page);
    seedSpin_ = new QSpinBox(page);
    seedSpin_->setRange(0, 999999);
    seedSpin_->setValue(int(kDefaultSeed));
    drawButton_ = new QPushButton(page);
    maskCheck_ = new QCheckBox(page);
    maskCheck_->setObjectName(QStringLiteral("softmaxMaskCheck"));
    maskCheck_->setChecked(true);
    temperatureLabel_ = new QLabel(page);
    temperatureSlider_ = new QSlider(Qt::Horizontal, page);
    temperatureSlider_->setRange(10, 5 * kTemperatureSteps);
    temperatureSlider_->setValue(kTemperatureSteps);
    temperatureValue_ = new QLabel(page);
    temperatureValue_->setMinimumWidth(40);

    auto* controls = new QHBoxLayout;
    controls->addWidget(sizeLabel_);
    controls->addWidget(sizeSpin_);
    controls->addWidget(seedLabel_);
    controls->addWidget(seedSpin_);
    controls->addWidget(drawButton_);
    controls->addSpacing(16);
    controls->addWidget(maskCheck_);
    controls->addSpacing(16);
    controls->addWidget(temperatureLabel_);
    controls->addWidget(temperatureSlider_, 1);
    controls->addWidget(temperatureValue_);

    scoresTitle_ = new QLabel(page);
    maskedTitle_ = new QLabel(page);
    weightsTitle_ = new QLabel(page);
    scoresTable_ = makeTable(page);
    maskedTable_ = makeTable(page);
    weightsTable_ = makeTable(page);
    auto* tables = new QGridLayout;
    tables->addWidget(scoresTitle_, 0, 0);
    tables->addWidget(maskedTitle_, 0, 1);
    tables->addWidget(weightsTitle_, 0, 2);
    tables->addWidget(scoresTable_, 1, 0);
    tables->addWidget(maskedTable_, 1, 1);
    tables->addWidget(weightsTable_, 1, 2);
    tables->setColumnStretch(2, 5);
    tables->setColumnStretch(0, 4);
    tables->setColumnStretch(1, 4);

    exampleLabel_ = new QLabel(page);
    exampleLabel_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    QFont exampleFont = exampleLabel_->font();
    exampleFont.setFamily(QStringLiteral("monospace"));
    exampleFont.setStyleHint(QFont::Monospace);
    exampleLabel_->setFont(exampleFont);

    auto* layout = new QVBoxLayout(page);
    layout->addWidget(maskIntro_);
    layout->addLayout(controls);
    layout->addLayout(tables, 1);
    layout->addWidget(exampleLabel_);

    connect(sizeSpin_, &QSpinBox::valueChanged, this, &SoftmaxLab::drawNewScores);
    connect(seedSpin_, &QSpinBox::valueChanged, this, &SoftmaxLab::drawNewScores);
    connect(drawButton_, &QPushButton::clicked, this, [this] {
        seedSpin_->setValue(seedSpin_->value() + 1);
    });
    connect(maskCheck_, &QCheckBox::toggled, this, &SoftmaxLab::refreshMaskTables);
    connect(temperatureSlider_, &QSlider::valueChanged, this, &SoftmaxLab::refreshMaskTables);
    connect(scoresTable_, &QTableWidget::cellChanged, this, &SoftmaxLab::readEditedScore);
    return page;
}

QWidget* SoftmaxLab::buildVarianceTab() {
    auto* page = new QWidget;
    varianceIntro_ = new QLabel(page);
    varianceIntro_->setWordWrap(true);

    headSizeLabel_ = new QLabel(page);
    headSizeSpin_ = new QSpinBox(page);
    headSizeSpin_->setObjectName(QStringLiteral("softmaxHeadSize"));
    headSizeSpin_->setRange(1, 512);
    headSizeSpin_->setValue(10);
    batchLabel_ = new QLabel(page);
    batchSpin_ = new QSpinBox(page);
    batchSpin_->setRange(1, 64);
    batchSpin_->setValue(32);
    sequenceLabel_ = new QLabel(page);
    sequenceSpin_ = new QSpinBox(page);
    sequenceSpin_->setRange(1, 256);
    sequenceSpin_->setValue(100);
    auto* sizes = new QHBoxLayout;
    sizes->addWidget(batchLabel_);
    sizes->addWidget(batchSpin_);
    sizes->addWidget(sequenceLabel_);
    sizes->addWidget(sequenceSpin_);
    sizes->addWidget(headSizeLabel_);
    sizes->addWidget(headSizeSpin_);
    sizes->addStretch(1);

    spreadLabel_ = new QLabel(page);
    spreadLabel_->setTextFormat(Qt::RichText);

    histogramPlot_ = new Plot(page);
    histogramPlot_->setMinimumHeight(200);
    unscaledBars_ = new QCPBars(histogramPlot_->xAxis, histogramPlot_->yAxis);
    QColor unscaledFill = kUnscaledColor;
    unscaledFill.setAlpha(120);
    unscaledBars_->setBrush(unscaledFill);
    unscaledBars_->setPen(QPen(kUnscaledColor.darker(120), 0.5));
    scaledBars_ = new QCPBars(histogramPlot_->xAxis, histogramPlot_->yAxis);
    QColor scaledFill = kScaledColor;
    scaledFill.setAlpha(150);
    scaledBars_->setBrush(scaledFill);
    scaledBars_->setPen(QPen(kScaledColor.darker(120), 0.5));
    histogramPlot_->legend->setVisible(true);
    histogramPlot_->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignRight);

    multiplierLabel_ = new QLabel(page);
    multiplierSlider_ = new QSlider(Qt::Horizontal, page);
    multiplierSlider_->setObjectName(QStringLiteral("softmaxMultiplier"));
    multiplierSlider_->setRange(0, 3 * kMultiplierSteps);
    multiplierSlider_->setValue(0);
    multiplierValue_ = new QLabel(page);
    multiplierValue_->setMinimumWidth(260);
    auto* multiplierRow = new QHBoxLayout;
    multiplierRow->addWidget(multiplierLabel_);
    multiplierRow->addWidget(multiplierSlider_, 1);
    multiplierRow->addWidget(multiplierValue_);

    softmaxPlot_ = new Plot(page);
    softmaxPlot_->setMinimumHeight(180);
    plainSoftmaxBars_ = new QCPBars(softmaxPlot_->xAxis, softmaxPlot_->yAxis);
    plainSoftmaxBars_->setBrush(QColor(190, 190, 190));
    plainSoftmaxBars_->setPen(QPen(QColor(120, 120, 120)));
    plainSoftmaxBars_->setWidth(0.38);
    multipliedSoftmaxBars_ = new QCPBars(softmaxPlot_->xAxis, softmaxPlot_->yAxis);
    multipliedSoftmaxBars_->setBrush(kScaledColor);
    multipliedSoftmaxBars_->setPen(QPen(kScaledColor.darker(130)));
    multipliedSoftmaxBars_->setWidth(0.38);
    softmaxPlot_->yAxis->setRange(0.0, 1.05);
    softmaxPlot_->xAxis->setRange(-0.6, kLessonVectorSize - 0.4);
    softmaxPlot_->legend->setVisible(true);
    softmaxPlot_->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignLeft);
    auto ticker = QSharedPointer<QCPAxisTickerText>::create();
    for (int i = 0; i < kLessonVectorSize; ++i)
        ticker->addTick(i, QString::number(lessonVector_[size_t(i)], 'f', 2));
    softmaxPlot_->xAxis->setTicker(ticker);

    auto* layout = new QVBoxLayout(page);
    layout->addWidget(varianceIntro_);
    layout->addLayout(sizes);
    layout->addWidget(spreadLabel_);
    layout->addWidget(histogramPlot_, 1);
    layout->addLayout(multiplierRow);
    layout->addWidget(softmaxPlot_, 1);

    auto schedule = [this] { spreadTimer_.start(); };
    connect(headSizeSpin_, &QSpinBox::valueChanged, this, schedule);
    connect(batchSpin_, &QSpinBox::valueChanged, this, schedule);
    connect(sequenceSpin_, &QSpinBox::valueChanged, this, schedule);
    connect(multiplierSlider_, &QSlider::valueChanged, this, [this](int value) {
        multiplier_ = std::pow(10.0, double(value) / kMultiplierSteps);
        refreshMultiplierView();
    });
    return page;
}

void SoftmaxLab::retranslateUi() {
    tabs_->setTabText(tabs_->indexOf(maskPage_), tr("Mask"));
    tabs_->setTabText(tabs_->indexOf(variancePage_), tr("Variance"));
    maskIntro_->setText(
        tr("A decoder may not look ahead: the scores of later positions are set to -inf before "
           "the softmax. Their weights come out exactly 0 and each row still sums to 1. Edit a "
           "score to see its row change."));
    sizeLabel_->setText(tr("Size:"));
    seedLabel_->setText(tr("Seed:"));
    drawButton_->setText(tr("Draw new scores"));
    maskCheck_->setText(tr("Causal mask"));
    temperatureLabel_->setText(tr("Temperature:"));
    scoresTitle_->setText(tr("Scores (editable)"));
    weightsTitle_->setText(tr("softmax of each row (last column: row sum)"));
    varianceIntro_->setText(
        tr("Q and K are drawn from N(0, 1). Each score Q·K is a sum of H products, so its spread "
           "grows like √H; softmax of widely spread scores is nearly one-hot and its gradients "
           "vanish. Dividing by √H brings the spread back to about 1."));
    batchLabel_->setText(tr("Batch B:"));
    sequenceLabel_->setText(tr("Sequence T:"));
    headSizeLabel_->setText(tr("Head size H:"));
    multiplierLabel_->setText(tr("Multiplier m:"));
    unscaledBars_->setName(tr("Q·Kᵀ"));
    scaledBars_->setName(tr("Q·Kᵀ / √H"));
    histogramPlot_->xAxis->setLabel(tr("score"));
    setAxisTitle(histogramPlot_->yAxis, tr("share of scores"));
    plainSoftmaxBars_->setName(tr("softmax(x)"));
    multipliedSoftmaxBars_->setName(tr("softmax(m · x)"));
    softmaxPlot_->xAxis->setLabel(tr("x (%1 values drawn from N(0, 1))").arg(kLessonVectorSize));
    setAxisTitle(softmaxPlot_->yAxis, tr("weight"));
    refreshMaskTables();
    refreshSpreadView();
    refreshMultiplierView();
}

void SoftmaxLab::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    QWidget::changeEvent(event);
}

void SoftmaxLab::setMaskEnabled(bool enabled) {
    maskCheck_->setChecked(enabled);
}

void SoftmaxLab::setScores(const Matrix& scores) {
    scores_ = scores;
    refreshMaskTables();
}

Matrix SoftmaxLab::shownScores() const {
    return maskCheck_->isChecked() ? softmax_math::causallyMasked(scores_) : scores_;
}

Matrix SoftmaxLab::shownWeights() const {
    return softmax_math::rowSoftmax(shownScores(),
                                    double(temperatureSlider_->value()) / kTemperatureSteps);
}

QString SoftmaxLab::exampleText() const {
    const std::vector<double> weights =
        softmax_math::softmax({1.0, 2.0, softmax_math::negativeInfinity()});
    QStringList parts;
    for (double weight : weights)
        parts.append(QString::number(weight, 'f', 4));
    return QStringLiteral("softmax([1, 2, -inf]) = [%1]").arg(parts.join(QStringLiteral(", ")));
}

void SoftmaxLab::drawNewScores() {
    scores_ = softmax_math::randomScores(sizeSpin_->value(), uint32_t(seedSpin_->value()));
    refreshMaskTables();
}

void SoftmaxLab::readEditedScore(int row, int column) {
    if (fillingTables_ || row >= scores_.rows || column >= scores_.columns)
        return;
    bool ok = false;
    const QString text = scoresTable_->item(row, column)->text().trimmed();
    double value = text.toDouble(&ok);
    if (!ok && text.compare(QLatin1String("-inf"), Qt::CaseInsensitive) == 0) {
        value = softmax_math::negativeInfinity();
        ok = true;
    }
    if (ok)
        scores_.at(row, column) = value;
    refreshMaskTables();
}

void SoftmaxLab::refreshMaskTables() {
    if (!scoresTable_ || scores_.rows == 0)
        return;
    const double temperature = double(temperatureSlider_->value()) / kTemperatureSteps;
    temperatureValue_->setText(QString::number(temperature, 'f', 2));
    maskedTitle_->setText(maskCheck_->isChecked() ? tr("Masked scores (-inf above the diagonal)")
                                                  : tr("Scores, no mask"));
    fillingTables_ = true;
    const int n = scores_.rows;
    const Matrix shown = shownScores();
    const Matrix weights = shownWeights();
    scoresTable_->setRowCount(n);
    scoresTable_->setColumnCount(n);
    maskedTable_->setRowCount(n);
    maskedTable_->setColumnCount(n);
    weightsTable_->setRowCount(n);
    weightsTable_->setColumnCount(n + 1);
    QStringList columnNames;
    for (int column = 0; column < n; ++column)
        columnNames.append(QString::number(column));
    scoresTable_->setHorizontalHeaderLabels(columnNames);
    maskedTable_->setHorizontalHeaderLabels(columnNames);
    for (QTableWidget* table : {scoresTable_, maskedTable_, weightsTable_})
        table->setVerticalHeaderLabels(columnNames);
    weightsTable_->setHorizontalHeaderLabels(columnNames + QStringList{QStringLiteral("Σ")});
    for (int row = 0; row < n; ++row) {
        double sum = 0.0;
        for (int column = 0; column < n; ++column) {
            setCell(scoresTable_, row, column, formatScore(scores_.at(row, column)), true);
            const bool masked = std::isinf(shown.at(row, column)) && shown.at(row, column) < 0;
            const QColor background = masked ? kMaskedCellColor : QColor();
            setCell(maskedTable_, row, column, formatScore(shown.at(row, column)), false, background);
            const double weight = weights.at(row, column);
            sum += weight;
            setCell(weightsTable_, row, column,
                    weight == 0.0 ? QStringLiteral("0") : QString::number(weight, 'f', 4), false,
                    masked ? kMaskedCellColor
                           : QColor::fromRgbF(1.0f, float(1.0 - 0.45 * weight),
                                              float(1.0 - 0.75 * weight)));
        }
        setCell(weightsTable_, row, n, QString::number(sum, 'f', 4), false, QColor(235, 245, 235));
    }
    fillingTables_ = false;
    exampleLabel_->setText(tr("The seed's example: %1").arg(exampleText()));
}

void SoftmaxLab::recomputeSpread() {
    spread_ = softmax_math::scoreSpread(batchSpin_->value(), sequenceSpin_->value(),
                                        headSizeSpin_->value(), kDefaultSeed);
    refreshSpreadView();
}

void SoftmaxLab::refreshSpreadView() {
    if (!histogramPlot_ || spread_.unscaled.empty())
        return;
    const int headSize = headSizeSpin_->value();
    spreadLabel_->setText(
        tr("std(Q·Kᵀ) = <b>%1</b> (√H = %2) &nbsp;&nbsp; std(Q·Kᵀ / √H) = <b>%3</b>")
            .arg(spread_.unscaledStd, 0, 'f', 3)
            .arg(std::sqrt(double(headSize)), 0, 'f', 3)
            .arg(spread_.scaledStd, 0, 'f', 3));

    const double range = std::max(4.0 * spread_.unscaledStd, 4.5);
    const double binWidth = 2.0 * range / kHistogramBins;
    const double total = double(spread_.unscaled.size());
    const std::vector<double> unscaledCounts =
        softmax_math::histogram(spread_.unscaled, kHistogramBins, -range, range);
    const std::vector<double> scaledCounts = softmax_math::histogram(
        softmax_math::scaled(spread_.unscaled, 1.0 / std::sqrt(double(headSize))), kHistogramBins,
        -range, range);
    QVector<double> centres, unscaledShare, scaledShare;
    for (int bin = 0; bin < kHistogramBins; ++bin) {
        centres.append(-range + (bin + 0.5) * binWidth);
        unscaledShare.append(unscaledCounts[size_t(bin)] / total);
        scaledShare.append(scaledCounts[size_t(bin)] / total);
    }
    unscaledBars_->setWidth(binWidth);
    scaledBars_->setWidth(binWidth);
    unscaledBars_->setData(centres, unscaledShare, true);
    scaledBars_->setData(centres, scaledShare, true);
    histogramPlot_->xAxis->setRange(-range, range);
    const double peak = std::max(*std::max_element(unscaledShare.begin(), unscaledShare.end()),
                                 *std::max_element(scaledShare.begin(), scaledShare.end()));
    histogramPlot_->yAxis->setRange(0.0, peak * 1.1);
    histogramPlot_->replot(QCustomPlot::rpQueuedReplot);
}

void SoftmaxLab::setMultiplier(double multiplier) {
    multiplierSlider_->setValue(
        int(std::lround(std::log10(std::clamp(multiplier, 1.0, 1000.0)) * kMultiplierSteps)));
    multiplier_ = std::clamp(multiplier, 1.0, 1000.0);
    refreshMultiplierView();
}

std::vector<double> SoftmaxLab::multipliedSoftmax() const {
    return softmax_math::softmax(softmax_math::scaled(lessonVector_, multiplier_));
}

void SoftmaxLab::refreshMultiplierView() {
    if (!softmaxPlot_)
        return;
    const std::vector<double> plain = softmax_math::softmax(lessonVector_);
    const std::vector<double> multiplied = multipliedSoftmax();
    QVector<double> plainX, multipliedX, plainY, multipliedY;
    for (int i = 0; i < kLessonVectorSize; ++i) {
        plainX.append(i - 0.2);
        multipliedX.append(i + 0.2);
        plainY.append(plain[size_t(i)]);
        multipliedY.append(multiplied[size_t(i)]);
    }
    plainSoftmaxBars_->setData(plainX, plainY, true);
    multipliedSoftmaxBars_->setData(multipliedX, multipliedY, true);
    const double largest = *std::max_element(multiplied.begin(), multiplied.end());
    multiplierValue_->setText(
        tr("m = %1: largest weight %2").arg(multiplier_, 0, 'f', multiplier_ < 10 ? 2 : 0).arg(largest, 0, 'f', 4));
    softmaxPlot_->replot(QCustomPlot::rpQueuedReplot);
}
