// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/SurpriseView.h"

#include <QComboBox>
#include <QEvent>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QSlider>
#include <QSplitter>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

#include "widgets/AttentionData.h"  // splitCharacters
#include "widgets/Plot.h"
#include "widgets/PresentationScale.h"

SurpriseView::SurpriseView(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);

    explanation_ = new QLabel(this);
    explanation_->setWordWrap(true);
    layout->addWidget(explanation_);

    auto* scaleRow = new QHBoxLayout;
    legendLabel_ = new QLabel(this);
    legendLabel_->setTextFormat(Qt::PlainText);  // messages name files and hold text read from them: never markup
    legend_ = new SurpriseLegend(this);
    legend_->setMaximumWidth(420);
    exportButton_ = new QPushButton(this);
    exportButton_->setObjectName(QStringLiteral("exportButton"));
    scaleRow->addWidget(legendLabel_);
    compareLabel_ = new QLabel(this);
    compareBox_ = new QComboBox(this);
    compareBox_->setObjectName(QStringLiteral("surpriseComparison"));
    compareBox_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
    compareLabel_->setBuddy(compareBox_);
    scaleRow->addWidget(legend_, 1);
    scaleRow->addStretch();
    scaleRow->addWidget(compareLabel_);
    scaleRow->addWidget(compareBox_);
    scaleRow->addWidget(exportButton_);
    layout->addLayout(scaleRow);

    statusLabel_ = new QLabel(this);
    statusLabel_->setTextFormat(Qt::PlainText);  // messages name files and hold text read from them: never markup
    statusLabel_->setWordWrap(true);
    statusLabel_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(statusLabel_);

    // A pane: a header (title and mean) over the painted text, scrolled.
    auto makePane = [this](Pane pane) {
        auto* box = new QWidget;
        auto* boxLayout = new QVBoxLayout(box);
        boxLayout->setContentsMargins(0, 0, 0, 0);
        headers_[pane] = new QLabel(box);
        headers_[pane]->setWordWrap(true);
        headers_[pane]->setTextFormat(Qt::RichText);
        panes_[pane] = new SurpriseTextWidget;
        panes_[pane]->setObjectName(QStringLiteral("surprisePane%1").arg(int(pane)));
        connect(panes_[pane], &SurpriseTextWidget::characterClicked, this, [this, pane](int index) {
            QStringList characters;
            for (const SurpriseChar& c : panes_[pane]->text().characters) characters.append(c.character);
            emit characterClicked(characters, index);
        });
        auto* scroll = new QScrollArea(box);
        scroll->setWidget(panes_[pane]);
        scroll->setWidgetResizable(true);
        scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
        boxLayout->addWidget(headers_[pane]);
        boxLayout->addWidget(scroll, 1);
        return box;
    };
    auto* vertical = new QSplitter(Qt::Vertical, this);
    auto* sideBySide = new QSplitter(Qt::Horizontal, vertical);
    sideBySide->addWidget(makePane(Validation));
    sideBySide->addWidget(makePane(Training));
    vertical->addWidget(sideBySide);

    auto* userBox = new QWidget(vertical);
    auto* userLayout = new QVBoxLayout(userBox);
    userLayout->setContentsMargins(0, 0, 0, 0);
    auto* userRow = new QHBoxLayout;
    userLabel_ = new QLabel(userBox);
    userEdit_ = new QPlainTextEdit(userBox);
    userEdit_->setObjectName(QStringLiteral("surpriseText"));
    limitToLines(userEdit_, 3);
    userEdit_->setTabChangesFocus(true);
    userRow->addWidget(userLabel_);
    userRow->addWidget(userEdit_, 1);
    userLayout->addLayout(userRow);
    userLayout->addWidget(makePane(User), 1);
    vertical->addWidget(userBox);
    vertical->setStretchFactor(0, 3);
    vertical->setStretchFactor(1, 1);
    vertical->setSizes({600, 200});
    layout->addWidget(vertical, 1);

    means_ = new Plot(this);
    means_->setFixedHeight(120);
    means_->setBackground(palette().color(QPalette::Base));
    validationMeans_ = means_->addGraph();
    validationMeans_->setPen(QPen(QColor(0xd6, 0x27, 0x28), 2));
    validationMeans_->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, 4));
    trainingMeans_ = means_->addGraph();
    trainingMeans_->setPen(QPen(QColor(0x1f, 0x77, 0xb4), 2));
    trainingMeans_->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, 4));
    shownLine_ = new QCPItemStraightLine(means_);
    shownLine_->setPen(QPen(QColor(0x80, 0x80, 0x80), 1, Qt::DashLine));
    shownLine_->setVisible(false);
    means_->legend->setVisible(true);
    means_->legend->setFont(font());
    means_->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignRight);
    layout->addWidget(means_);

    userTimer_.setSingleShot(true);
    userTimer_.setInterval(500);
    connect(userEdit_, &QPlainTextEdit::textChanged, &userTimer_, qOverload<>(&QTimer::start));
    connect(&userTimer_, &QTimer::timeout, this, &SurpriseView::textsChanged);
    connect(exportButton_, &QPushButton::clicked, this, &SurpriseView::chooseExportFile);
    connect(compareBox_, &QComboBox::activated, this, &SurpriseView::textsChanged);

    retranslateUi();
}

void SurpriseView::setSamples(const QString& validation, const QString& training) {
    if (samples_[Validation] == validation && samples_[Training] == training)
        return;
    samples_[Validation] = validation;
    samples_[Training] = training;
    emit textsChanged();
}

QString SurpriseView::userText() const { return userEdit_->toPlainText(); }

void SurpriseView::setUserText(const QString& text) {
    if (text == userText())
        return;
    userEdit_->setPlainText(text);
    userTimer_.stop();
    emit textsChanged();
}

QStringList SurpriseView::texts() const {
    const QStringList user = splitCharacters(userText());
    return {samples_[Validation], samples_[Training],
            user.size() > kMaxUserCharacters ? user.mid(0, kMaxUserCharacters).join(QString()) : userText()};
}

void SurpriseView::setModelShape(int layers, int heads) {
    const QVector<KnockoutPart> parts = KnockoutPart::allOf(layers, heads);
    if (parts == parts_)
        return;
    const std::optional<KnockoutPart> chosen = comparison();
    parts_ = parts;
    fillComparisonBox();
    const bool kept = chosen && parts_.contains(*chosen);
    compareBox_->setCurrentIndex(kept ? int(parts_.indexOf(*chosen)) + 1 : 0);
    if (chosen && !kept)
        emit textsChanged();
}

void SurpriseView::fillComparisonBox() {
    const int current = compareBox_->currentIndex();
    QSignalBlocker blocker(compareBox_);
    compareBox_->clear();
    compareBox_->addItem(tr("nothing"));
    for (const KnockoutPart& part : parts_)
        compareBox_->addItem(knockoutPartName(part));
    compareBox_->setCurrentIndex(std::clamp(current, 0, int(parts_.size())));
    compareBox_->setEnabled(!parts_.isEmpty());
}

std::optional<KnockoutPart> SurpriseView::comparison() const {
    const int index = compareBox_->currentIndex() - 1;
    if (index < 0 || index >= parts_.size())
        return std::nullopt;
    return parts_[index];
}

void SurpriseView::setComparison(const std::optional<KnockoutPart>& part) {
    if (part == comparison())
        return;
    const qsizetype index = part ? parts_.indexOf(*part) : -1;
    if (part && index < 0)
        return;  // the model has no such part
    compareBox_->setCurrentIndex(int(index) + 1);
    emit textsChanged();
}

QString SurpriseView::paneTitle(Pane pane) const {
    switch (pane) {
    case Validation: return tr("Validation text (never trained on)");
    case Training: return tr("Training text (what the model learns from)");
    case User: return tr("Your text");
    case PaneCount: break;
    }
    return QString();
}

void SurpriseView::updateMeans(qint64 step, const QVector<SurpriseText>& texts) {
    auto put = [step](QCPGraph* graph, const SurpriseText* text) {
        graph->data()->remove(double(step));
        if (text && std::isfinite(text->meanBits))
            graph->addData(double(step), text->meanBits);
    };
    put(validationMeans_, texts.size() > Validation ? &texts[Validation] : nullptr);
    put(trainingMeans_, texts.size() > Training ? &texts[Training] : nullptr);
    means_->rescaleAxes();
    means_->yAxis->setRangeLower(0.0);
    const QCPRange x = means_->xAxis->range();
    if (x.size() < 1.0)
        means_->xAxis->setRange(x.lower - 1.0, x.upper + 1.0);
    means_->yAxis->setRangeUpper(means_->yAxis->range().upper * 1.1 + 0.1);
    means_->replot(QCustomPlot::rpQueuedReplot);
}

int SurpriseView::meansPointCount() const {
    return validationMeans_->data()->size() + trainingMeans_->data()->size();
}

void SurpriseView::showProblem(const QString& message) {
    problem_ = message;
    updateStatus();
}

void SurpriseView::clear() {
    shown_.clear();
    shownStep_.reset();
    validationMeans_->data()->clear();
    trainingMeans_->data()->clear();
    shownLine_->setVisible(false);
    means_->xAxis->setRange(0.0, 100.0);
    means_->yAxis->setRange(0.0, 8.0);
    means_->replot(QCustomPlot::rpQueuedReplot);
    for (SurpriseTextWidget* pane : panes_)
        pane->setText(SurpriseText());
    problem_.clear();
    updateHeaders();
    updateLegend();
    updateStatus();
}

void SurpriseView::showResult(const QVector<SurpriseText>& texts, qint64 step) {
    problem_.clear();
    updateMeans(step, texts);
    shown_ = texts;
    shownStep_ = step;
    int vocabulary = 0;
    for (int p = 0; p < PaneCount; ++p) {
        panes_[p]->setText(p < shown_.size() ? shown_[p] : SurpriseText());
        if (p < shown_.size())
            vocabulary = std::max(vocabulary, shown_[p].vocabularySize);
    }
    legend_->setMaximum(surpriseScaleMaximum(vocabulary));
    updateLegend();
    shownLine_->point1->setCoords(double(step), 0.0);
    shownLine_->point2->setCoords(double(step), 1.0);
    shownLine_->setVisible(true);
    means_->replot(QCustomPlot::rpQueuedReplot);
    updateHeaders();
    updateStatus();
}

QVector<SurpriseText> SurpriseView::shownTexts() const {
    QVector<SurpriseText> texts = shown_;
    for (int p = 0; p < texts.size() && p < PaneCount; ++p)
        texts[p].label = paneTitle(Pane(p));
    return texts;
}

bool SurpriseView::exportTo(const QString& path, QString* error) const {
    const QString title = shownStep_ ? tr("Surprise at step %1").arg(*shownStep_) : tr("Surprise");
    return exportSurprise(path, shownTexts(), title, font(), error);
}

void SurpriseView::chooseExportFile() {
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export the Surprise view"), QStringLiteral("surprise.png"),
        tr("PNG image (*.png);;SVG image (*.svg);;HTML page (*.html);;CSV table (*.csv)"));
    if (path.isEmpty())
        return;
    QString error;
    if (!exportTo(path, &error))
        showProblem(error);
}

void SurpriseView::updateHeaders() {
    for (int p = 0; p < PaneCount; ++p) {
        const SurpriseText text = p < shown_.size() ? shown_[p] : SurpriseText();
        const QString mean = surpriseMeanText(text);
        headers_[p]->setText(QStringLiteral("<b>%1</b>%2")
                                 .arg(paneTitle(Pane(p)).toHtmlEscaped(),
                                      mean.isEmpty() ? QString() : QStringLiteral("<br>") + mean.toHtmlEscaped()));
    }
    const bool noCorpus = samples_[Validation].isEmpty();
    panes_[Validation]->setPlaceholder(noCorpus ? tr("Load a corpus: the start of its validation part is shown here.")
                                                : tr("Train a model or open a checkpoint to score this text."));
    panes_[Training]->setPlaceholder(noCorpus ? tr("Load a corpus: as much of its training part is shown here.")
                                              : tr("Train a model or open a checkpoint to score this text."));
    panes_[User]->setPlaceholder(tr("Type or paste a text above to see how the model reads it."));
}

void SurpriseView::updateLegend() {
    const SurpriseText* compared = surpriseComparison(shown_);
    legend_->setDifference(compared != nullptr);
    if (!compared) {
        legendLabel_->setText(tr("Bits:"));
        legend_->setToolTip(tr("0 bits: the model was sure of the character; the right end is the surprise of a "
                               "uniform guess over the vocabulary"));
    } else {
        legendLabel_->setText(surpriseDifferenceLabel(*compared));
        legend_->setToolTip(surpriseComparisonText(*compared));
    }
}

void SurpriseView::updateStatus() {
    if (!problem_.isEmpty()) {
        statusLabel_->setText(problem_);
        return;
    }
    if (!shownStep_) {
        statusLabel_->setText(tr("Train a model or open a checkpoint to see its surprise. During training this view "
                                 "follows the model at every snapshot while it is shown."));
        return;
    }
    QString note;
    if (shown_.size() > Training && std::isfinite(shown_[Validation].meanBits) &&
        std::isfinite(shown_[Training].meanBits)) {
        const double gap = shown_[Validation].meanBits - shown_[Training].meanBits;
        note = tr("Step %1: validation %2 bits per character, training %3.")
                   .arg(*shownStep_)
                   .arg(QLocale().toString(shown_[Validation].meanBits, 'f', 2),
                        QLocale().toString(shown_[Training].meanBits, 'f', 2));
        if (gap > 1.0)
            note += QLatin1Char(' ') + tr("The validation text is much brighter than the training text: the model "
                                          "has memorised its training text more than it learned to predict text it "
                                          "has not seen.");
    }
    if (const SurpriseText* compared = surpriseComparison(shown_))
        note += QLatin1Char(' ') + surpriseComparisonText(*compared);
    if (splitCharacters(userText()).size() > kMaxUserCharacters)
        note += QLatin1Char(' ') + tr("Only the first %1 characters of your text are scored.").arg(kMaxUserCharacters);
    statusLabel_->setText(note.trimmed());
}

void SurpriseView::showEvent(QShowEvent* event) {
    QWidget::showEvent(event);
    emit shown();
}

void SurpriseView::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange)
        retranslateUi();
    QWidget::changeEvent(event);
}

void SurpriseView::retranslateUi() {
    explanation_->setText(
        tr("Each character is coloured by how surprised the model was to see it after the characters before it: "
           "dark = expected, bright = surprising, measured in bits (−log₂ of the probability the model gave it). "
           "A model that memorises its training text shows a dark training pane beside a bright validation pane. "
           "Hover a character for the model's five guesses.") +
        QLatin1Char(' ') + tr("Click one to see why the model wrote it."));
    compareLabel_->setText(tr("Compare without:"));
    compareBox_->setToolTip(tr("Score the texts again with this part of the model knocked out (its output set to "
                               "zero) and colour each character by how many more bits the model needs without it"));
    fillComparisonBox();
    updateLegend();
    exportButton_->setText(tr("Export…"));
    exportButton_->setToolTip(tr("Save the panes as a PNG or SVG picture, an HTML page or a CSV table"));
    userLabel_->setText(tr("Your text:"));
    userEdit_->setPlaceholderText(tr("Type or paste any text to score it with the model"));
    means_->setToolTip(tr("The mean surprise of the two texts at each step shown so far; the dashed line is the "
                          "step the timeline below the tabs chose"));
    validationMeans_->setName(tr("validation, bits per character"));
    trainingMeans_->setName(tr("training, bits per character"));
    means_->xAxis->setLabel(tr("step"));
    means_->replot(QCustomPlot::rpQueuedReplot);
    updateHeaders();
    updateStatus();
}
