// SPDX-License-Identifier: GPL-3.0-or-later
#include "SurpriseView.h"

#include <QEvent>
#include <QFileDialog>
#include <QFileInfo>
#include <QFontMetricsF>
#include <QHBoxLayout>
#include <QHelpEvent>
#include <QLabel>
#include <QLocale>
#include <QMouseEvent>
#include <QPainter>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSaveFile>
#include <QScrollArea>
#include <QSlider>
#include <QSplitter>
#include <QToolTip>
#include <QVBoxLayout>

#include <algorithm>
#include <cmath>

#include "AttentionData.h"     // splitCharacters, displayCharacter
#include "AttentionHeatmap.h"  // exportPainting
#include "qcustomplot.h"

namespace {

// Timeline frames kept; past this every other one is dropped (the newest stays).
constexpr int kMaxFrames = 60;
constexpr double kCellPadding = 1.0;
constexpr double kLineGap = 3.0;
constexpr double kExportWidth = 1000.0;

QColor unknownColor() { return QColor(0xd8, 0xd8, 0xd8); }
QColor unscoredColor() { return QColor(0xc8, 0xc8, 0xc8); }

// The glyph painted for a character: visible symbols for newline and tab, a
// middle dot for other control characters; a space stays blank.
QString glyphOf(const QString& character) {
    if (character == QLatin1String("\n") || character == QLatin1String("\t"))
        return displayCharacter(character);
    if (character == QLatin1String(" "))
        return QString();
    return displayCharacter(character);
}

QString meanText(const SurpriseText& text) {
    if (!text.problem.isEmpty())
        return text.problem;
    if (text.isEmpty())
        return QString();
    QStringList parts;
    if (std::isfinite(text.meanBits))
        parts << QCoreApplication::translate("SurpriseView", "%1 bits per character over %n character(s)", nullptr,
                                             text.scored)
                     .arg(QLocale().toString(text.meanBits, 'f', 2));
    else
        parts << QCoreApplication::translate("SurpriseView", "too short to score: it needs two characters the model knows");
    if (text.unknown > 0)
        parts << QCoreApplication::translate("SurpriseView", "%n not in the vocabulary, left out", nullptr, text.unknown);
    return parts.join(QStringLiteral("; "));
}

}  // namespace

// --- SurpriseTextWidget ------------------------------------------------------

QFont SurpriseTextWidget::textFont(const QFont& base) {
    QFont font = base;
    if (font.pointSizeF() > 0)
        font.setPointSizeF(font.pointSizeF() * 1.3);
    else
        font.setPixelSize(int(std::lround(font.pixelSize() * 1.3)));
    return font;
}

SurpriseTextWidget::SurpriseTextWidget(QWidget* parent) : QWidget(parent) {
    setFont(textFont(font()));
    setMouseTracking(true);
    QSizePolicy policy(QSizePolicy::Expanding, QSizePolicy::Preferred);
    policy.setHeightForWidth(true);
    setSizePolicy(policy);
}

void SurpriseTextWidget::setText(const SurpriseText& text) {
    text_ = text;
    hovered_ = -1;
    relayout();
}

void SurpriseTextWidget::setPlaceholder(const QString& placeholder) {
    placeholder_ = placeholder;
    update();
}

QVector<QRectF> SurpriseTextWidget::layoutCharacters(const SurpriseText& text, const QFont& font, double width) {
    const QFontMetricsF metrics(font);
    const double height = std::ceil(metrics.height()) + 2 * kCellPadding;
    const double minimum = std::max(4.0, metrics.averageCharWidth() * 0.6);
    const double space = metrics.horizontalAdvance(QLatin1Char(' '));
    QVector<QRectF> cells;
    cells.reserve(text.size());
    double x = 0.0, y = 0.0;
    for (const SurpriseChar& c : text.characters) {
        double w;
        if (c.character == QLatin1String("\t"))
            w = 4 * std::max(space, minimum);
        else if (c.character == QLatin1String(" "))
            w = std::max(space, minimum);
        else
            w = std::max(metrics.horizontalAdvance(glyphOf(c.character)), minimum);
        w += 2 * kCellPadding;
        if (x > 0.0 && x + w > width) {
            x = 0.0;
            y += height + kLineGap;
        }
        cells.append(QRectF(x, y, w, height));
        x += w;
        if (c.character == QLatin1String("\n")) {
            x = 0.0;
            y += height + kLineGap;
        }
    }
    return cells;
}

double SurpriseTextWidget::paintText(QPainter& painter, const QRectF& target, const SurpriseText& text,
                                     const QFont& font, const QColor& textColor, int highlighted) {
    const QVector<QRectF> cells = layoutCharacters(text, font, target.width());
    const double maximum = surpriseScaleMaximum(text.vocabularySize);
    painter.save();
    painter.setFont(font);
    painter.translate(target.topLeft());
    double bottom = 0.0;
    for (int i = 0; i < cells.size(); ++i) {
        const SurpriseChar& c = text.characters[i];
        const QRectF& cell = cells[i];
        bottom = std::max(bottom, cell.bottom());
        QColor background, foreground;
        if (!c.known) {
            background = unknownColor();
            foreground = QColor(0x70, 0x70, 0x70);
        } else if (!c.scored()) {
            background = unscoredColor();
            foreground = Qt::black;
        } else {
            background = surpriseColor(c.bits, maximum);
            foreground = surpriseTextColor(background);
        }
        painter.fillRect(cell, background);
        if (!c.known) {
            painter.setPen(QPen(QColor(0x99, 0x99, 0x99), 1.0));
            painter.drawLine(QPointF(cell.left(), cell.center().y()), QPointF(cell.right(), cell.center().y()));
        }
        const QString glyph = glyphOf(c.character);
        if (!glyph.isEmpty()) {
            painter.setPen(foreground);
            painter.drawText(cell, Qt::AlignCenter, glyph);
        }
        if (i == highlighted) {
            painter.setPen(QPen(textColor, 2.0));
            painter.setBrush(Qt::NoBrush);
            painter.drawRect(cell.adjusted(0.5, 0.5, -0.5, -0.5));
        }
    }
    Q_UNUSED(textColor);
    painter.restore();
    return bottom;
}

int SurpriseTextWidget::heightForWidth(int width) const {
    if (text_.isEmpty())
        return fontMetrics().height() * 2;
    const QVector<QRectF> cells = layoutCharacters(text_, font(), width);
    return int(std::ceil(cells.constLast().bottom())) + 4;
}

QSize SurpriseTextWidget::sizeHint() const { return QSize(400, heightForWidth(400)); }

QSize SurpriseTextWidget::minimumSizeHint() const { return QSize(80, fontMetrics().height() * 2); }

void SurpriseTextWidget::relayout() {
    cells_ = layoutCharacters(text_, font(), width());
    updateGeometry();
    update();
}

void SurpriseTextWidget::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    cells_ = layoutCharacters(text_, font(), width());
}

int SurpriseTextWidget::characterAt(const QPointF& point) const {
    for (int i = 0; i < cells_.size(); ++i)
        if (cells_[i].contains(point))
            return i;
    return -1;
}

QRectF SurpriseTextWidget::characterRect(int index) const {
    return index >= 0 && index < cells_.size() ? cells_[index] : QRectF();
}

QString SurpriseTextWidget::toolTipAt(const QPointF& point) const {
    return surpriseToolTip(text_, characterAt(point));
}

bool SurpriseTextWidget::event(QEvent* event) {
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const int index = characterAt(help->pos());
        if (index >= 0)
            QToolTip::showText(help->globalPos(), surpriseToolTip(text_, index), this,
                               characterRect(index).toAlignedRect());
        else
            QToolTip::hideText();
        return true;
    }
    return QWidget::event(event);
}

void SurpriseTextWidget::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    if (text_.isEmpty()) {
        painter.setPen(palette().color(QPalette::PlaceholderText));
        painter.drawText(rect().adjusted(4, 4, -4, -4), Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap, placeholder_);
        return;
    }
    paintText(painter, QRectF(rect()), text_, font(), palette().color(QPalette::Highlight), hovered_);
}

void SurpriseTextWidget::mouseMoveEvent(QMouseEvent* event) {
    const int index = characterAt(event->position());
    if (index != hovered_) {
        hovered_ = index;
        update();
    }
    QWidget::mouseMoveEvent(event);
}

void SurpriseTextWidget::leaveEvent(QEvent* event) {
    if (hovered_ >= 0) {
        hovered_ = -1;
        update();
    }
    QWidget::leaveEvent(event);
}

// --- SurpriseLegend ------------------------------------------------------------

SurpriseLegend::SurpriseLegend(QWidget* parent) : QWidget(parent) {
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
}

void SurpriseLegend::setMaximum(double bits) {
    maximum_ = bits;
    update();
}

QSize SurpriseLegend::sizeHint() const { return QSize(320, fontMetrics().height() * 2 + 12); }

void SurpriseLegend::paintLegend(QPainter& painter, const QRectF& target, double maximum, const QFont& font,
                                 const QColor& textColor) {
    painter.save();
    painter.setFont(font);
    const QFontMetricsF metrics(font);
    const double barHeight = std::max(8.0, target.height() - metrics.height() - 4);
    const QRectF bar(target.left() + 4, target.top(), target.width() - 8, barHeight);
    QLinearGradient gradient(bar.topLeft(), bar.topRight());
    for (int i = 0; i <= 20; ++i)
        gradient.setColorAt(i / 20.0, surpriseColor(maximum * i / 20.0, maximum));
    painter.fillRect(bar, gradient);
    painter.setPen(textColor);
    const int steps = int(std::ceil(maximum));
    // The last label ("12+ bits") is drawn first; a tick label that would run
    // into it or into the previous label is left out (its tick stays).
    const QString lastLabel = QCoreApplication::translate("SurpriseView", "%1+ bits").arg(steps);
    const double lastWidth = metrics.horizontalAdvance(lastLabel);
    const double lastLeft = std::clamp(bar.right() - lastWidth / 2, target.left(), target.right() - lastWidth);
    painter.drawText(QPointF(lastLeft, bar.bottom() + 3 + metrics.ascent()), lastLabel);
    double free = target.left();
    for (int b = 0; b <= steps; ++b) {
        const double x = bar.left() + bar.width() * std::min(1.0, b / maximum);
        painter.drawLine(QPointF(x, bar.bottom()), QPointF(x, bar.bottom() + 3));
        if (b == steps)
            break;
        const QString label = QString::number(b);
        const double w = metrics.horizontalAdvance(label);
        const double left = std::max(x - w / 2, target.left());
        if (left < free || left + w > lastLeft - 4)
            continue;
        painter.drawText(QPointF(left, bar.bottom() + 3 + metrics.ascent()), label);
        free = left + w + 4;
    }
    painter.restore();
}

void SurpriseLegend::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    paintLegend(painter, QRectF(rect()).adjusted(0, 2, 0, 0), maximum_, font(), palette().color(QPalette::WindowText));
}

// --- export ------------------------------------------------------------------

bool exportSurprise(const QString& path, const QVector<SurpriseText>& texts, const QString& title, const QFont& font,
                    QString* error) {
    auto fail = [&](const QString& message) {
        if (error)
            *error = message;
        return false;
    };
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == QLatin1String("html") || suffix == QLatin1String("htm") || suffix == QLatin1String("csv")) {
        const QString content = suffix == QLatin1String("csv") ? surpriseCsv(texts) : surpriseHtml(texts, title);
        QSaveFile file(path);
        if (!file.open(QIODevice::WriteOnly) || file.write(content.toUtf8()) < 0 || !file.commit())
            return fail(QCoreApplication::translate("SurpriseView", "Cannot write %1: %2").arg(path, file.errorString()));
        return true;
    }
    if (suffix != QLatin1String("png") && suffix != QLatin1String("svg"))
        return fail(QCoreApplication::translate("SurpriseView", "Choose a file name ending in .png, .svg, .html or .csv."));

    // The page: the title, the colour scale, then each text under its heading.
    const QFontMetricsF metrics(font);
    QFont headingFont = font;
    headingFont.setBold(true);
    const QFont textFont = SurpriseTextWidget::textFont(font);
    const double margin = 16.0, line = std::ceil(metrics.lineSpacing());
    const double textWidth = kExportWidth - 2 * margin;
    const double legendHeight = line * 2 + 12;
    double height = margin + line * 2 + legendHeight + 8;
    int maximumVocabulary = 0;
    for (const SurpriseText& text : texts) {
        maximumVocabulary = std::max(maximumVocabulary, text.vocabularySize);
        const QVector<QRectF> cells = SurpriseTextWidget::layoutCharacters(text, textFont, textWidth);
        height += line * 2 + 4 + (cells.isEmpty() ? line : cells.constLast().bottom()) + 16;
    }
    height += margin;
    const QSize size(int(kExportWidth), int(std::ceil(height)));
    return exportPainting(
        path, size,
        [&](QPainter& painter, const QRectF& target) {
            double y = target.top() + margin;
            painter.setPen(Qt::black);
            painter.setFont(headingFont);
            painter.drawText(QPointF(margin, y + metrics.ascent()), title);
            y += line;
            painter.setFont(font);
            painter.drawText(QRectF(margin, y, textWidth, line), Qt::AlignLeft | Qt::AlignTop,
                             QCoreApplication::translate("SurpriseView", "Colour: bits of surprise, dark = expected, "
                                                                         "bright = surprising; grey: not scored"));
            y += line;
            SurpriseLegend::paintLegend(painter, QRectF(margin, y + 4, std::min(textWidth, 480.0), legendHeight - 8),
                                        surpriseScaleMaximum(maximumVocabulary), font, Qt::black);
            y += legendHeight + 8;
            for (const SurpriseText& text : texts) {
                painter.setPen(Qt::black);
                painter.setFont(headingFont);
                painter.drawText(QPointF(margin, y + metrics.ascent()), text.label);
                y += line;
                painter.setFont(font);
                painter.drawText(QPointF(margin, y + metrics.ascent()), meanText(text));
                y += line + 4;
                const double used = SurpriseTextWidget::paintText(painter, QRectF(margin, y, textWidth, 1e6), text,
                                                                  textFont, Qt::black);
                y += (text.isEmpty() ? line : used) + 16;
            }
        },
        error);
}

// --- SurpriseView --------------------------------------------------------------

SurpriseView::SurpriseView(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);

    explanation_ = new QLabel(this);
    explanation_->setWordWrap(true);
    layout->addWidget(explanation_);

    auto* scaleRow = new QHBoxLayout;
    legendLabel_ = new QLabel(this);
    legend_ = new SurpriseLegend(this);
    legend_->setMaximumWidth(420);
    exportButton_ = new QPushButton(this);
    exportButton_->setObjectName(QStringLiteral("exportButton"));
    scaleRow->addWidget(legendLabel_);
    scaleRow->addWidget(legend_, 1);
    scaleRow->addStretch();
    scaleRow->addWidget(exportButton_);
    layout->addLayout(scaleRow);

    statusLabel_ = new QLabel(this);
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
    userEdit_->setMaximumHeight(userEdit_->fontMetrics().lineSpacing() * 3 + 12);
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

    auto* bottom = new QHBoxLayout;
    timelineLabel_ = new QLabel(this);
    slider_ = new QSlider(Qt::Horizontal, this);
    slider_->setObjectName(QStringLiteral("surpriseTimeline"));
    slider_->setRange(0, 0);
    slider_->setEnabled(false);
    frameLabel_ = new QLabel(this);
    frameLabel_->setMinimumWidth(frameLabel_->fontMetrics().horizontalAdvance(QStringLiteral("0")) * 28);
    bottom->addWidget(timelineLabel_);
    bottom->addWidget(slider_, 1);
    bottom->addWidget(frameLabel_);
    layout->addLayout(bottom);

    means_ = new QCustomPlot(this);
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
    connect(slider_, &QSlider::valueChanged, this, &SurpriseView::showTimelineFrame);
    connect(exportButton_, &QPushButton::clicked, this, &SurpriseView::chooseExportFile);

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

QString SurpriseView::paneTitle(Pane pane) const {
    switch (pane) {
    case Validation: return tr("Validation text (never trained on)");
    case Training: return tr("Training text (what the model learns from)");
    case User: return tr("Your text");
    case PaneCount: break;
    }
    return QString();
}

void SurpriseView::addResult(const QVector<SurpriseText>& texts, qint64 step) {
    if (!frames_.isEmpty() && step < frames_.constLast().step)
        clear();  // an earlier step than the newest: another model, another timeline
    const bool atEnd = slider_->value() >= slider_->maximum();
    Frame frame{step, texts};
    if (!frames_.isEmpty() && frames_.constLast().step == step) {
        frames_.last() = frame;
    } else {
        frames_.append(frame);
        if (frames_.size() > kMaxFrames) {
            QVector<Frame> kept;
            for (qsizetype i = 0; i + 1 < frames_.size(); i += 2)
                kept.append(frames_[i]);
            kept.append(frames_.constLast());
            frames_ = std::move(kept);
        }
    }
    updateMeans(step, texts);
    problem_.clear();
    {
        const QSignalBlocker blocker(slider_);
        slider_->setRange(0, std::max(0, int(frames_.size()) - 1));
        slider_->setEnabled(frames_.size() > 1);
        if (atEnd)
            slider_->setValue(slider_->maximum());
    }
    if (atEnd)
        showFrame(frames_.constLast());
    updateStatus();
    updateTimelineLabel();
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
    frames_.clear();
    shown_.clear();
    shownStep_ = -1;
    validationMeans_->data()->clear();
    trainingMeans_->data()->clear();
    shownLine_->setVisible(false);
    means_->xAxis->setRange(0.0, 100.0);
    means_->yAxis->setRange(0.0, 8.0);
    means_->replot(QCustomPlot::rpQueuedReplot);
    for (SurpriseTextWidget* pane : panes_)
        pane->setText(SurpriseText());
    {
        const QSignalBlocker blocker(slider_);
        slider_->setRange(0, 0);
        slider_->setEnabled(false);
    }
    problem_.clear();
    updateHeaders();
    updateStatus();
    updateTimelineLabel();
}

void SurpriseView::showTimelineFrame(int index) {
    if (index < 0 || index >= frames_.size())
        return;
    showFrame(frames_[index]);
    updateStatus();
    updateTimelineLabel();
}

void SurpriseView::showFrame(const Frame& frame) {
    shown_ = frame.texts;
    shownStep_ = frame.step;
    int vocabulary = 0;
    for (int p = 0; p < PaneCount; ++p) {
        panes_[p]->setText(p < shown_.size() ? shown_[p] : SurpriseText());
        if (p < shown_.size())
            vocabulary = std::max(vocabulary, shown_[p].vocabularySize);
    }
    legend_->setMaximum(surpriseScaleMaximum(vocabulary));
    shownLine_->point1->setCoords(double(frame.step), 0.0);
    shownLine_->point2->setCoords(double(frame.step), 1.0);
    shownLine_->setVisible(true);
    means_->replot(QCustomPlot::rpQueuedReplot);
    updateHeaders();
}

QVector<SurpriseText> SurpriseView::shownTexts() const {
    QVector<SurpriseText> texts = shown_;
    for (int p = 0; p < texts.size() && p < PaneCount; ++p)
        texts[p].label = paneTitle(Pane(p));
    return texts;
}

bool SurpriseView::exportTo(const QString& path, QString* error) const {
    const QString title = shownStep_ >= 0 ? tr("Surprise at step %1").arg(shownStep_) : tr("Surprise");
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
        const QString mean = meanText(text);
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

void SurpriseView::updateStatus() {
    if (!problem_.isEmpty()) {
        statusLabel_->setText(problem_);
        return;
    }
    if (frames_.isEmpty()) {
        statusLabel_->setText(tr("Train a model or open a checkpoint to see its surprise. During training this view "
                                 "follows the model at every snapshot while it is shown."));
        return;
    }
    QString note;
    if (shown_.size() > Training && std::isfinite(shown_[Validation].meanBits) &&
        std::isfinite(shown_[Training].meanBits)) {
        const double gap = shown_[Validation].meanBits - shown_[Training].meanBits;
        note = tr("Step %1: validation %2 bits per character, training %3.")
                   .arg(shownStep_)
                   .arg(QLocale().toString(shown_[Validation].meanBits, 'f', 2),
                        QLocale().toString(shown_[Training].meanBits, 'f', 2));
        if (gap > 1.0)
            note += QLatin1Char(' ') + tr("The validation text is much brighter than the training text: the model "
                                          "has memorised its training text more than it learned to predict text it "
                                          "has not seen.");
    }
    if (splitCharacters(userText()).size() > kMaxUserCharacters)
        note += QLatin1Char(' ') + tr("Only the first %1 characters of your text are scored.").arg(kMaxUserCharacters);
    statusLabel_->setText(note.trimmed());
}

void SurpriseView::updateTimelineLabel() {
    if (frames_.isEmpty()) {
        frameLabel_->setText(tr("no snapshot yet"));
        return;
    }
    const int index = std::min(slider_->value(), int(frames_.size()) - 1);
    frameLabel_->setText(tr("step %1 (%2 of %3)").arg(frames_[index].step).arg(index + 1).arg(frames_.size()));
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
           "Hover a character for the model's five guesses."));
    legendLabel_->setText(tr("Bits:"));
    legend_->setToolTip(tr("0 bits: the model was sure of the character; the right end is the surprise of a "
                           "uniform guess over the vocabulary"));
    exportButton_->setText(tr("Export…"));
    exportButton_->setToolTip(tr("Save the panes as a PNG or SVG picture, an HTML page or a CSV table"));
    userLabel_->setText(tr("Your text:"));
    userEdit_->setPlaceholderText(tr("Type or paste any text to score it with the model"));
    timelineLabel_->setText(tr("Timeline:"));
    slider_->setToolTip(tr("Replay the surprise from the first snapshot seen to the latest"));
    validationMeans_->setName(tr("validation, bits per character"));
    trainingMeans_->setName(tr("training, bits per character"));
    means_->xAxis->setLabel(tr("step"));
    means_->replot(QCustomPlot::rpQueuedReplot);
    updateHeaders();
    updateStatus();
    updateTimelineLabel();
}
