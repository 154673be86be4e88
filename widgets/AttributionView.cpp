// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/AttributionView.h"

#include <QEvent>
#include <QLabel>
#include <QPainter>
#include <QVBoxLayout>

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
    bars_ = new Bars(this);
    layout->addWidget(summary_);
    layout->addWidget(barsTitle_);
    layout->addWidget(bars_);
    layout->addWidget(inputsTitle_);
    layout->addWidget(inputs_);
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
    const QString layer = tr("L%1").arg(bar.layer + 1);
    switch (bar.kind) {
    case AttributionBar::TokenEmbedding: return tr("token embedding");
    case AttributionBar::PositionEmbedding: return tr("position embedding");
    case AttributionBar::Head: return tr("%1 H%2").arg(layer).arg(bar.head + 1);
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
        QString shown = attribution_.characters[i].toHtmlEscaped();
        if (shown == QLatin1String("\n")) shown = QStringLiteral("&#8629;");
        if (shown == QLatin1String(" ")) shown = QStringLiteral("&nbsp;");
        html += QStringLiteral("<span style=\"background-color:%1\" title=\"%2\">%3</span>")
                    .arg(signColour(v, largest).name(), QString::number(v, 'f', 4), shown);
    }
    return html;
}

QString AttributionView::summary() const {
    const CharacterAttribution& a = attribution_;
    if (!a.problem.isEmpty()) return tr("No attribution: %1").arg(a.problem);
    if (!a.isValid()) return tr("Click a character of a text to see why the model wrote it.");
    return tr("Why '%1' (logit %2, probability %3%4): its margin over '%5' is %6. The parts below add up to the "
              "logit within %7 (model at step %8).")
        .arg(a.chosen)
        .arg(a.logit, 0, 'f', 3)
        .arg(a.probability, 0, 'f', 3)
        .arg(a.chosenIsTop ? tr(", its top guess") : QString())
        .arg(a.runnerUp)
        .arg(a.margin, 0, 'f', 3)
        .arg(std::abs(a.gap), 0, 'g', 2)
        .arg(a.step);
}

void AttributionView::retranslateUi() {
    summary_->setText(summary());
    barsTitle_->setText(tr("Direct logit attribution: what each part adds to the logit, through the final "
                           "LayerNorm with its scale frozen (largest first)"));
    inputsTitle_->setText(tr("Which earlier characters mattered: gradient x input on each one's embedding "
                             "(blue raises the logit, red lowers it)"));
    inputs_->setText(colouredText());
    const bool shown = attribution_.isValid();
    barsTitle_->setVisible(shown);
    bars_->setVisible(shown);
    inputsTitle_->setVisible(shown);
    inputs_->setVisible(shown);
}

void AttributionView::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange) retranslateUi();
    QWidget::changeEvent(event);
}
