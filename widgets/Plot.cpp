// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/Plot.h"

// A replot marks the plot for the window's next paint instead of painting the
// window at once (phImmediateRefresh).
Plot::Plot(QWidget* parent) : QCustomPlot(parent) { setPlottingHint(QCP::phImmediateRefresh, false); }

void Plot::replotAfterPaint() {
    replotAfterPaint_ = true;
    update();
}

void Plot::resizeEvent(QResizeEvent* event) {
    Q_UNUSED(event)
    setViewport(rect());
    replotAfterPaint();
}

void Plot::paintEvent(QPaintEvent* event) {
    QCustomPlot::paintEvent(event);
    if (!replotAfterPaint_)
        return;
    replotAfterPaint_ = false;
    // Posted while the window paints, so it is handled on the next pass; a
    // replot already queued by then draws the same.
    QMetaObject::invokeMethod(
        this,
        [this] {
            if (!mReplotQueued)
                replot();
        },
        Qt::QueuedConnection);
}

namespace {

const char* kLevelTitle = "chargptLevelTitle";

// Whether `text` is written in a script whose characters stand upright in a
// line turned on its side, that is: read as a column, not as a turned line.
bool uprightScript(const QString& text) {
    for (const uint point : text.toUcs4()) {
        switch (QChar::script(point)) {
            case QChar::Script_Han:
            case QChar::Script_Hiragana:
            case QChar::Script_Katakana:
            case QChar::Script_Hangul:
            case QChar::Script_Bopomofo:
                return true;
            default:
                break;
        }
    }
    return false;
}

}  // namespace

QCPTextElement* levelAxisTitle(const QCPAxis* axis) {
    return axis ? qobject_cast<QCPTextElement*>(axis->property(kLevelTitle).value<QObject*>()) : nullptr;
}

void setAxisTitle(QCPAxis* axis, const QString& text) {
    if (!axis) return;
    QCustomPlot* plot = axis->parentPlot();
    QCPTextElement* level = levelAxisTitle(axis);
    const bool vertical = axis->orientation() == Qt::Vertical;
    if (!vertical || !uprightScript(text)) {
        if (level) {
            plot->plotLayout()->remove(level);
            plot->plotLayout()->simplify();
            axis->setProperty(kLevelTitle, QVariant());
        }
        axis->setLabel(text);
        return;
    }
    axis->setLabel(QString());
    if (!level) {
        level = new QCPTextElement(plot);
        level->setFont(axis->labelFont());
        level->setTextColor(axis->labelColor());
        level->setMargins(QMargins(4, 2, 4, 0));
        plot->plotLayout()->insertRow(0);
        plot->plotLayout()->addElement(0, 0, level);
        axis->setProperty(kLevelTitle, QVariant::fromValue<QObject*>(level));
    }
    level->setTextFlags((axis->axisType() == QCPAxis::atRight ? Qt::AlignRight : Qt::AlignLeft) |
                        Qt::AlignVCenter);
    level->setText(text);
}
