// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/AttributionView.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QPainter>
#include <QPushButton>
#include <QVBoxLayout>

#include "widgets/AttentionData.h"
#include "widgets/AttributionExport.h"
#include "widgets/ViewExport.h"

#include <algorithm>
#include <cmath>

namespace {

constexpr int kRowHeight = 20;
constexpr int kLabelWidth = 150;
constexpr int kValueWidth = 70;

QColor signColour(double value, double largest) {
    // Blue adds to the logit, red takes from it; pale when small (by the square
    // root of the share, so that the characters after the largest still show).
    const double share = largest > 0.0 ? std::sqrt(std::min(1.0, std::abs(value) / largest)) : 0.0;
    const int pale = int(255 - 175 * share);
    return value >= 0.0 ? QColor(pale, pale, 255) : QColor(255, pale, pale);
}

// Green as deep as a head's attention weight (0 .. 1), by its square root too.
QColor weightColour(double weight) {
    const double share = std::sqrt(std::clamp(weight, 0.0, 1.0));
    return QColor(int(255 - 165 * share), int(255 - 75 * share), int(255 - 165 * share));
}

// Between the characters of a coloured strip: a zero-width space, where a
// long strip may wrap (its spaces are non-breaking, to stay visible).
const QString kBreak = QStringLiteral("&#8203;");

// A character as rich text, visible when it is a space or a line break.
QString shownCharacter(const QString& character) {
    if (character == QLatin1String("\n")) return QStringLiteral("&#8629;");
    if (character == QLatin1String(" ")) return QStringLiteral("&nbsp;");
    return character.toHtmlEscaped();
}

}  // namespace

// The bars of AttributionView::shownBars, one row each.
class AttributionView::Bars : public QWidget {
public:
    explicit Bars(AttributionView* view) : QWidget(view), view_(view) {}
    QSize sizeHint() const override { return {480, kRowHeight * int(view_->shownBars().size()) + 4}; }
    QSize minimumSizeHint() const override { return {kLabelWidth + kValueWidth + 100, sizeHint().height()}; }

protected:
    void paintEvent(QPaintEvent*) override {
        QPainter painter(this);
        const QVector<AttributionBar> bars = view_->shownBars();
        double largest = 0.0;
        for (const AttributionBar& bar : bars) largest = std::max(largest, std::abs(bar.logit));
        const double half = (width() - kLabelWidth - kValueWidth) / 2.0;
        const double zero = kLabelWidth + half;
        painter.setPen(palette().color(QPalette::Mid));
        painter.drawLine(QPointF(zero, 0), QPointF(zero, height()));
        for (int i = 0; i < bars.size(); ++i) {
            const AttributionBar& bar = bars[i];
            const QRectF row(0, 2 + i * kRowHeight, width(), kRowHeight);
            painter.setPen(palette().color(QPalette::WindowText));
            painter.drawText(QRectF(4, row.top(), kLabelWidth - 8, kRowHeight), Qt::AlignVCenter | Qt::AlignLeft,
                             partName(bar));
            const double length = largest > 0.0 ? half * bar.logit / largest : 0.0;
            const QRectF box = QRectF(QPointF(std::min(zero, zero + length), row.top() + 3),
                                      QPointF(std::max(zero, zero + length), row.bottom() - 3));
            painter.fillRect(box, bar.logit >= 0.0 ? QColor(70, 110, 200) : QColor(200, 70, 70));
            painter.drawText(QRectF(width() - kValueWidth, row.top(), kValueWidth - 4, kRowHeight),
                             Qt::AlignVCenter | Qt::AlignRight, QString::number(bar.logit, 'f', 3));
        }
    }

private:
    AttributionView* view_;
};

AttributionView::AttributionView(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    summary_ = new QLabel(this);
    summary_->setWordWrap(true);
    summary_->setTextFormat(Qt::PlainText);
    inputsTitle_ = new QLabel(this);
    inputs_ = new QLabel(this);
    inputs_->setTextFormat(Qt::RichText);
    inputs_->setWordWrap(true);
    barsTitle_ = new QLabel(this);
    barsTitle_->setWordWrap(true);
    inputsTitle_->setWordWrap(true);
    bars_ = new Bars(this);
    exportButton_ = new QPushButton(this);
    exportButton_->setObjectName(QStringLiteral("exportButton"));
    connect(exportButton_, &QPushButton::clicked, this, &AttributionView::chooseExportFile);
    patchButton_ = new QPushButton(this);
    patchButton_->setObjectName(QStringLiteral("patchButton"));
    connect(patchButton_, &QPushButton::clicked, this,
            [this] { emit patchRequested(attribution_.characters.join(QString()), attribution_.chosen); });
    auto* top = new QHBoxLayout;
    top->addWidget(summary_, 1);
    auto* buttons = new QVBoxLayout;
    buttons->addWidget(exportButton_);
    buttons->addWidget(patchButton_);
    buttons->addStretch(1);
    top->addLayout(buttons);
    layout->addLayout(top);
    layout->addWidget(barsTitle_);
    layout->addWidget(bars_);
    layout->addWidget(inputsTitle_);
    layout->addWidget(inputs_);
    pathsTitle_ = new QLabel(this);
    pathsTitle_->setWordWrap(true);
    paths_ = new QLabel(this);
    paths_->setTextFormat(Qt::RichText);
    paths_->setWordWrap(true);
    layout->addWidget(pathsTitle_);
    layout->addWidget(paths_);
    layout->addStretch(1);
    retranslateUi();
}

void AttributionView::setAttribution(const CharacterAttribution& attribution) {
    attribution_ = attribution;
    retranslateUi();
    bars_->updateGeometry();
    bars_->update();
}

QVector<AttributionBar> AttributionView::shownBars() const {
    QVector<AttributionBar> bars = attribution_.bars;
    std::stable_sort(bars.begin(), bars.end(), [](const AttributionBar& a, const AttributionBar& b) {
        return std::abs(a.logit) > std::abs(b.logit);
    });
    if (bars.size() > kBars) bars.resize(kBars);
    return bars;
}

QString AttributionView::partName(const AttributionBar& bar) {
    const QString layer = tr("L%1").arg(bar.layer.value_or(0) + 1);  // for the parts of a layer
    switch (bar.kind) {
    case AttributionBar::TokenEmbedding: return tr("token embedding");
    case AttributionBar::PositionEmbedding: return tr("position embedding");
    case AttributionBar::Head:
        return tr("%1 H%2").arg(layer).arg(bar.head.value_or(0) + 1);
    case AttributionBar::ProjectionBias: return tr("%1 projection bias").arg(layer);
    case AttributionBar::FeedForward: return tr("%1 feed-forward").arg(layer);
    case AttributionBar::FeedForwardBias: return tr("%1 feed-forward bias").arg(layer);
    case AttributionBar::FinalNormBias: return tr("final norm bias");
    case AttributionBar::HeadBias: return tr("head bias");
    }
    return QString();
}

QString AttributionView::colouredText() const {
    double largest = 0.0;
    for (const double v : attribution_.gradientTimesInput) largest = std::max(largest, std::abs(v));
    QString html;
    for (int i = 0; i < attribution_.characters.size() && i < attribution_.gradientTimesInput.size(); ++i) {
        const double v = attribution_.gradientTimesInput[i];
        const QString shown = shownCharacter(attribution_.characters[i]);
        html += QStringLiteral("<span style=\"background-color:%1\" title=\"%2\">%3</span>%4")
                    .arg(signColour(v, largest).name(), QString::number(v, 'f', 4), shown, kBreak);
    }
    return html;
}

QString AttributionView::pathsText() const {
    const CharacterAttribution& a = attribution_;
    QString html;
    for (const AttentionPath& path : a.paths) {
        AttributionBar bar;
        bar.kind = AttributionBar::Head;
        bar.layer = path.layer;
        bar.head = path.head;
        QString row;
        QVector<int> order;
        for (int i = 0; i < a.characters.size() && i < path.weights.size(); ++i) {
            row += QStringLiteral("<span style=\"background-color:%1\" title=\"%2\">%3</span>%4")
                       .arg(weightColour(path.weights[i]).name(), QString::number(path.weights[i], 'f', 3),
                            shownCharacter(a.characters[i]), kBreak);
            order.append(i);
        }
        std::stable_sort(order.begin(), order.end(),
                         [&path](int x, int y) { return path.weights[x] > path.weights[y]; });
        QStringList most;
        for (int k = 0; k < order.size() && k < 2 && (k == 0 || path.weights[order[k]] >= 0.05); ++k)
            most.append(tr("'%1' at %2 (%3%)")
                            .arg(shownCharacter(a.characters[order[k]]))
                            .arg(order[k] + 1)
                            .arg(100.0 * path.weights[order[k]], 0, 'f', 0));
        if (!html.isEmpty()) html += QStringLiteral("<br>");
        html += tr("<b>%1</b> (adds %2): most on %3")
                    .arg(partName(bar))
                    .arg(path.logit, 0, 'f', 3)
                    .arg(most.join(tr(", then "))) +
                QStringLiteral("<br>") + row;
    }
    return html;
}

QString AttributionView::summary() const {
    const CharacterAttribution& a = attribution_;
    if (!a.problem.isEmpty()) return tr("No attribution: %1").arg(a.problem);
    if (!a.isValid()) return tr("Click a character of a text to see why the model wrote it.");
    return tr("Why '%1' (logit %2, probability %3%4): its margin over '%5' is %6. The parts below add up "
              "to the logit within %7 (model at step %8).")
        .arg(displayCharacter(a.chosen))  // a line break or a space seen, not a break in the sentence
        .arg(a.logit, 0, 'f', 3)
        .arg(a.probability, 0, 'f', 3)
        .arg(a.chosenIsTop ? tr(", its top guess") : QString())
        .arg(displayCharacter(a.runnerUp))
        .arg(a.margin, 0, 'f', 3)
        .arg(std::abs(a.gap), 0, 'g', 2)
        .arg(a.step ? QString::number(*a.step) : QStringLiteral("?"));
}

void AttributionView::chooseExportFile() {
    ViewExport::chooseAndExport(
        this, tr("Export why this character"), QStringLiteral("why.png"),
        [this](const QString& path, QString* error) { return exportAttribution(path, this, error); },
        ViewExport::pictureFilters() + QStringLiteral(";;") + tr("JSON document (*.json)"));
}

void AttributionView::retranslateUi() {
    summary_->setText(summary());
    exportButton_->setText(tr("Export…"));
    exportButton_->setToolTip(tr("Save this view as a PNG or SVG picture, a CSV table or a JSON document"));
    patchButton_->setText(tr("Patch…"));
    patchButton_->setToolTip(
        tr("Open the patching lab on these characters: the same prompt with one character "
           "changed, and which layers and positions bring this character back"));
    barsTitle_->setText(tr("Direct logit attribution: what each part adds to the logit, through the final "
                           "LayerNorm with its scale frozen (largest first)"));
    inputsTitle_->setText(tr("Which earlier characters mattered: gradient x input on each one's embedding "
                             "(blue raises the logit, red lowers it)"));
    inputs_->setText(colouredText());
    pathsTitle_->setText(
        tr("Where the heads that add most looked from this position (their attention, "
           "deeper green for more; character positions counted from 1)"));
    paths_->setText(pathsText());
    const bool shown = attribution_.isValid();
    exportButton_->setEnabled(shown);
    patchButton_->setEnabled(shown);
    pathsTitle_->setVisible(shown && !attribution_.paths.isEmpty());
    paths_->setVisible(shown && !attribution_.paths.isEmpty());
    barsTitle_->setVisible(shown);
    bars_->setVisible(shown);
    inputsTitle_->setVisible(shown);
    inputs_->setVisible(shown);
}

void AttributionView::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange) retranslateUi();
    QWidget::changeEvent(event);
}
