// SPDX-License-Identifier: GPL-3.0-or-later
// Presentation mode's type on the plots, through Plot::setFontScale alone:
// every font of a plot (axes' tick labels and titles, a title set level above
// the plot, a colour scale, the legend and its entries, text items in points
// and in pixels) grows by the factor, once, also on what a view adds or sets
// while it holds and on a plot made then; at 1 each is exactly as it was.
#include <QApplication>
#include <QTest>

#include "PlotFonts.h"
#include "TestProgram.h"
#include "widgets/Plot.h"
#include "widgets/PresentationScale.h"

namespace tst_plotfonts {

using plot_fonts::fontsOf;
using plot_fonts::sizeOf;

namespace {

// A plot with one of each thing that has a font.
Plot* makePlot() {
    auto* plot = new Plot;
    plot->resize(500, 360);
    plot->xAxis->setLabel(QStringLiteral("step"));
    setAxisTitle(plot->yAxis, QStringLiteral("损失"));  // written level, above the plot
    plot->addGraph()->setName(QStringLiteral("training"));
    plot->legend->setVisible(true);
    auto* map = new QCPColorMap(plot->xAxis, plot->yAxis);
    auto* scale = new QCPColorScale(plot);
    plot->plotLayout()->addElement(1, 1, scale);
    map->setColorScale(scale);
    scale->axis()->setLabel(QStringLiteral("weight"));
    auto* inPoints = new QCPItemText(plot);
    QFont points = plot->font();
    points.setPointSizeF(8.5);
    inPoints->setFont(points);
    auto* inPixels = new QCPItemText(plot);
    QFont pixels = plot->font();
    pixels.setPixelSize(13);
    inPixels->setFont(pixels);
    plot->replot();
    return plot;
}

}  // namespace

class TestPlotFonts : public QObject {
    Q_OBJECT

private slots:
    void cleanup() { Plot::setFontScale(1.0); }

    void scalesEveryFontOnceAndGivesItBack() {
        std::unique_ptr<Plot> plot(makePlot());
        const auto before = fontsOf(plot.get());
        QVERIFY(before.size() >= 12);
        Plot::setFontScale(1.5);
        QCOMPARE(Plot::fontScale(), 1.5);
        const auto scaled = fontsOf(plot.get());
        QCOMPARE(scaled.size(), before.size());
        for (int i = 0; i < before.size(); ++i) {
            QVERIFY2(sizeOf(before[i].second) > 0, qPrintable(before[i].first));
            QVERIFY2(qAbs(sizeOf(scaled[i].second) - 1.5 * sizeOf(before[i].second)) <= 0.5,
                     qPrintable(QStringLiteral("%1: %2 from %3")
                                    .arg(before[i].first)
                                    .arg(sizeOf(scaled[i].second))
                                    .arg(sizeOf(before[i].second))));
        }
        // A replot scales nothing twice.
        plot->replot();
        for (int i = 0; i < before.size(); ++i) QCOMPARE(fontsOf(plot.get())[i].second, scaled[i].second);
        Plot::setFontScale(1.0);
        const auto after = fontsOf(plot.get());
        for (int i = 0; i < before.size(); ++i) {
            QCOMPARE(after[i].first, before[i].first);
            QVERIFY2(after[i].second == before[i].second, qPrintable(before[i].first));
            QCOMPARE(after[i].second.toString(), before[i].second.toString());
        }
    }

    // What a view adds or sets while the scale holds is scaled at the next
    // replot, once, and is at its usual size when the scale is given back.
    void scalesWhatComesWhileItHolds() {
        std::unique_ptr<Plot> plot(makePlot());
        const QFont usualApplication = QApplication::font();
        const double usual = usualApplication.pointSizeF();
        Plot::setFontScale(2.0);
        QApplication::setFont(scaledFont(usualApplication, 2.0));  // as presentation mode does
        auto* added = new QCPItemText(plot.get());                 // the application's (larger) type
        auto* tick = qobject_cast<QCPItemText*>(plot->item(0));
        QFont set = tick->font();
        set.setPointSizeF(7.0);
        tick->setFont(set);  // set anew by its view, at the usual type
        plot->replot();
        QCOMPARE(added->font().pointSizeF(), usual * 2.0);
        QCOMPARE(tick->font().pointSizeF(), 14.0);
        // A plot made now: its type is the application's, scaled once.
        std::unique_ptr<Plot> later(new Plot);
        later->replot();
        QCOMPARE(later->xAxis->tickLabelFont().pointSizeF(), usual * 2.0);
        QApplication::setFont(usualApplication);
        Plot::setFontScale(1.0);
        QCOMPARE(added->font().pointSizeF(), usual);
        QCOMPARE(tick->font().pointSizeF(), 7.0);
        QCOMPARE(later->xAxis->tickLabelFont().pointSizeF(), usual);
    }

    // A level title made while the scale holds (the language changed to
    // Chinese) is scaled as its axis is, not twice.
    void levelTitleMadeWhileScaled() {
        std::unique_ptr<Plot> plot(makePlot());
        const double title = plot->xAxis->labelFont().pointSizeF();
        Plot::setFontScale(1.5);
        setAxisTitle(plot->yAxis2, QStringLiteral("概率"));
        plot->replot();
        QCPTextElement* level = levelAxisTitle(plot->yAxis2);
        QVERIFY(level);
        QCOMPARE(level->font().pointSizeF(), plot->yAxis2->labelFont().pointSizeF());
        Plot::setFontScale(1.0);
        QCOMPARE(level->font().pointSizeF(), title);
    }

    // Nothing is scaled to zero or below, whatever the factor.
    void noSizeBelowOne() {
        std::unique_ptr<Plot> plot(makePlot());
        for (const double factor : {0.0, -1.5, 0.01, std::nan("")}) {
            Plot::setFontScale(factor);
            for (const auto& [name, font] : fontsOf(plot.get()))
                QVERIFY2(sizeOf(font) >= 1, qPrintable(name));
        }
    }
};

CHARGPT_TEST_MAIN(TestPlotFonts)
}  // namespace tst_plotfonts
#include "tst_plotfonts.moc"
