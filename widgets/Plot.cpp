// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/Plot.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "widgets/PresentationScale.h"

namespace {

double theFontScale = 1.0;

// Every plot there is, to be scaled (plots live on the window's thread only).
std::vector<Plot*>& livePlots() {
    static std::vector<Plot*> plots;
    return plots;
}

}  // namespace

// A replot marks the plot for the window's next paint instead of painting the
// window at once (phImmediateRefresh). Its fonts are scaled before each replot
// (a text item a view adds while presenting is larger too).
Plot::Plot(QWidget* parent) : QCustomPlot(parent) {
    setPlottingHint(QCP::phImmediateRefresh, false);
    livePlots().push_back(this);
    connect(this, &QCustomPlot::beforeReplot, this, [this] { applyFontScale(false); });
}

Plot::~Plot() {
    std::vector<Plot*>& plots = livePlots();
    plots.erase(std::remove(plots.begin(), plots.end(), this), plots.end());
}

double Plot::fontScale() { return theFontScale; }

void Plot::setFontScale(double factor) {
    const bool fromUsual = theFontScale == 1.0;
    theFontScale = factor > 0.0 && std::isfinite(factor) ? factor : 1.0;
    for (Plot* plot : livePlots()) {
        plot->applyFontScale(fromUsual);
        plot->replot(rpQueuedRefresh);  // its margins measured now, before its layout asks
    }
}

QFont Plot::usualFont(const QObject* owner, const QFont& font) const {
    for (const auto& [key, scaled] : scaledFonts_) {
        if (key.first != owner || !scaled.owner || !(scaled.shown == font)) continue;
        // Its size named, so that it is not taken for the application's.
        QFont usual = scaled.usual;
        if (usual.pointSizeF() > 0.0)
            usual.setPointSizeF(usual.pointSizeF());
        else
            usual.setPixelSize(usual.pixelSize());
        return usual;
    }
    return font;
}

void Plot::applyFontScale(bool fromUsual) {
    const double factor = theFontScale;
    if (factor == 1.0 && scaledFonts_.empty()) return;
    std::map<std::pair<const QObject*, int>, ScaledFont> kept;
    const auto scale = [&](QObject* owner, int place, const QFont& font, auto set) {
        if (!owner) return;
        const auto key = std::make_pair(static_cast<const QObject*>(owner), place);
        if (kept.count(key)) return;  // reached twice (a legend is in the layout too)
        const auto found = scaledFonts_.find(key);
        ScaledFont entry;
        if (found != scaledFonts_.end() && found->second.owner == owner && found->second.shown == font) {
            entry = found->second;
        } else {  // not seen yet, or set anew by its view: this is its usual font
            entry.owner = owner;
            entry.usual = font;
            // One first seen while the scale holds belongs to something made
            // since: a font that names no size of its own took the
            // application's, which presentation mode scales too.
            if (!fromUsual && !(font.resolveMask() & QFont::SizeResolved))
                entry.usual = scaledFont(font, 1.0 / factor);
        }
        if (factor == 1.0) {
            set(entry.usual);
            return;
        }
        entry.shown = scaledFont(entry.usual, factor);
        if (!(entry.shown == font)) set(entry.shown);
        kept[key] = entry;
    };
    enum Place { kTickLabels, kLabel, kText };
    const auto axis = [&](QCPAxis* a) {
        scale(a, kTickLabels, a->tickLabelFont(), [a](const QFont& f) { a->setTickLabelFont(f); });
        scale(a, kLabel, a->labelFont(), [a](const QFont& f) { a->setLabelFont(f); });
    };
    const auto inLegend = [&](QCPLegend* l) {
        // A legend's font is also set on each of its entries: theirs kept.
        QList<QFont> entries;
        for (int i = 0; i < l->itemCount(); ++i) entries << (l->item(i) ? l->item(i)->font() : QFont());
        scale(l, kText, l->font(), [l, entries](const QFont& f) {
            l->setFont(f);
            for (int i = 0; i < l->itemCount() && i < entries.size(); ++i)
                if (l->item(i)) l->item(i)->setFont(entries[i]);
        });
        for (int i = 0; i < l->itemCount(); ++i)
            if (QCPAbstractLegendItem* item = l->item(i))
                scale(item, kText, item->font(), [item](const QFont& f) { item->setFont(f); });
    };
    for (QCPLayoutElement* element : plotLayout()->elements(true)) {
        if (auto* rect = qobject_cast<QCPAxisRect*>(element))
            for (QCPAxis* a : rect->axes()) axis(a);
        if (auto* colours = qobject_cast<QCPColorScale*>(element)) axis(colours->axis());
        if (auto* title = qobject_cast<QCPTextElement*>(element))
            scale(title, kText, title->font(), [title](const QFont& f) { title->setFont(f); });
        if (auto* l = qobject_cast<QCPLegend*>(element)) inLegend(l);
    }
    if (legend) inLegend(legend);
    for (int i = 0; i < itemCount(); ++i)
        if (auto* text = qobject_cast<QCPItemText*>(item(i)))
            scale(text, kText, text->font(), [text](const QFont& f) { text->setFont(f); });
    scaledFonts_ = std::move(kept);
}

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
        // At the usual type: a plot that is scaled scales it with the rest.
        const auto* scaled = dynamic_cast<const Plot*>(plot);
        level->setFont(scaled ? scaled->usualFont(axis, axis->labelFont()) : axis->labelFont());
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
