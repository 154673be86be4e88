// SPDX-License-Identifier: GPL-3.0-or-later
// The loss plot with hand-made data: every point kept and exported, redraws
// merged, exports in every format; every plot drawn after the page it is on.
#include <sys/stat.h>
#include <unistd.h>

#include <QElapsedTimer>
#include <QDir>
#include <QFile>
#include <QPainter>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <qcustomplot.h>

#include <cmath>

#include "widgets/CurveSmoothing.h"
#include "widgets/LossPlot.h"
#include "widgets/Plot.h"
#include "widgets/ViewExport.h"
#include "TestProgram.h"

namespace tst_lossplot {

class TestLossPlot : public QObject {
    Q_OBJECT

private slots:
    void csvHasEveryPoint();
    void manyAppendsAreMergedIntoFewReplots();
    void aHiddenPlotShowsTheLatestPointsWhenShown();
    void exportsEachFormat_data();
    void exportsEachFormat();
    void logScaleAndLearningRateAxis();
    void validationAtStepZeroIsInView();
    void ngramFloorsSayWhenTheyArePassed();
    void referenceLabelsFitALowPlot();
    void csvKeepsNatsAndAddsTheShownUnit();
    void smoothingByHand();
    void smoothingIgnoresHowDenselyPointsWereRecorded();
    void exportsReplaceOnlyRegularFiles_data();
    void exportsReplaceOnlyRegularFiles();
    void aResizedPlotDrawsAfterThePage();
    void aReplotLeavesThePaintingToTheWindow();
};

namespace {
// Counts the paint events a widget receives.
class PaintCounter : public QObject {
public:
    int paints = 0;
    bool eventFilter(QObject*, QEvent* event) override {
        if (event->type() == QEvent::Paint)
            ++paints;
        return false;
    }
};
}  // namespace

void TestLossPlot::csvHasEveryPoint() {
    LossPlot plot;
    QVector<double> steps, losses, rates;
    for (int i = 1; i <= 1234; ++i) {
        steps << i;
        losses << 4.0 * std::exp(-i / 300.0) + 0.1 * (i % 7);
        rates << 1e-3 * i / 1234.0;
    }
    plot.appendSteps(steps.mid(0, 600), losses.mid(0, 600), rates.mid(0, 600));
    plot.appendSteps(steps.mid(600), losses.mid(600), rates.mid(600));
    plot.appendEval(250, 3.5);
    plot.appendEval(500, 2.5);
    plot.appendEval(1234, 1.5);
    QCOMPARE(plot.trainPointCount(), 1234);
    QCOMPARE(plot.evalPointCount(), 3);

    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("loss.csv"));
    QString error;
    QVERIFY2(plot.exportTo(path, &error), qPrintable(error));
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly | QIODevice::Text));
    const QStringList lines = QString::fromUtf8(file.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    QCOMPARE(lines.size(), 1 + 1234);
    QCOMPARE(lines.first(), QStringLiteral("step,train_loss,train_loss_smoothed,learning_rate,val_loss"));
    int valueRows = 0;
    for (int i = 1; i < lines.size(); ++i) {
        const QStringList cells = lines[i].split(QLatin1Char(','));
        QCOMPARE(cells.size(), 5);
        QCOMPARE(cells[0].toDouble(), steps[i - 1]);
        QCOMPARE(float(cells[1].toDouble()), float(losses[i - 1]));
        QVERIFY(!cells[2].isEmpty());
        QCOMPARE(float(cells[3].toDouble()), float(rates[i - 1]));
        if (!cells[4].isEmpty())
            ++valueRows;
    }
    QCOMPARE(valueRows, 3);
}

void TestLossPlot::manyAppendsAreMergedIntoFewReplots() {
    LossPlot plot;
    plot.resize(800, 500);
    plot.show();
    QVERIFY(QTest::qWaitForWindowExposed(&plot));
    const int before = plot.replotCount();
    // 100,000 points in 1,000 bursts without returning to the event loop.
    for (int burst = 0; burst < 1000; ++burst) {
        QVector<double> steps, losses, rates;
        for (int i = 0; i < 100; ++i) {
            const int step = burst * 100 + i + 1;
            steps << step;
            losses << 5.0 / std::sqrt(double(step));
            rates << 1e-3;
        }
        plot.appendSteps(steps, losses, rates);
    }
    QCOMPARE(plot.trainPointCount(), 100000);
    QTRY_VERIFY(plot.replotCount() > before);
    QVERIFY2(plot.replotCount() - before <= 2, qPrintable(QString::number(plot.replotCount() - before)));

    // A figure, not a limit: what one full redraw of 100,000 points costs.
    QElapsedTimer clock;
    clock.start();
    plot.plot()->replot(QCustomPlot::rpImmediateRefresh);
    qInfo("one replot of 100,000 points: %lld ms", static_cast<long long>(clock.elapsed()));
}

void TestLossPlot::aHiddenPlotShowsTheLatestPointsWhenShown() {
    // The plot behind another tab while a run trains: it takes every point,
    // and shows them all, in range, the moment its tab is shown.
    QWidget window;
    auto* plot = new LossPlot(&window);
    auto* other = new QWidget(&window);
    window.resize(800, 500);
    plot->resize(800, 500);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    plot->hide();
    other->show();
    QCoreApplication::processEvents();
    const int before = plot->replotCount();
    for (int step = 1; step <= 300; ++step) {
        plot->appendSteps({double(step)}, {5.0 / std::sqrt(double(step))}, {1e-3});
        if (step % 50 == 0)
            QCoreApplication::processEvents();
    }
    QTest::qWait(100);
    QCOMPARE(plot->trainPointCount(), 300);
    QCOMPARE(plot->replotCount(), before);  // not drawn while hidden
    plot->show();
    QTRY_VERIFY(plot->replotCount() > before);
    QVERIFY(plot->plot()->xAxis->range().contains(300.0));
    QVERIFY(plot->plot()->xAxis->range().contains(1.0));
    // Drawn once shown, at the data's pace again.
    const int shown = plot->replotCount();
    plot->appendSteps({301.0}, {0.2}, {1e-3});
    QTRY_VERIFY(plot->replotCount() > shown);
    QCOMPARE(plot->trainPointCount(), 301);
}

void TestLossPlot::exportsEachFormat_data() {
    QTest::addColumn<QString>("suffix");
    QTest::addColumn<QByteArray>("magic");
    QTest::newRow("png") << QStringLiteral("png") << QByteArray("\x89PNG");
    QTest::newRow("svg") << QStringLiteral("svg") << QByteArray("<?xml");
    QTest::newRow("pdf") << QStringLiteral("pdf") << QByteArray("%PDF");
}

void TestLossPlot::exportsEachFormat() {
    QFETCH(QString, suffix);
    QFETCH(QByteArray, magic);
    LossPlot plot;
    plot.resize(640, 400);
    plot.setHistory({1, 2, 3}, {3.0, 2.5, 2.0}, {3}, {2.2}, {1e-3, 1e-3, 1e-3});
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("loss.") + suffix);
    QString error;
    QVERIFY2(plot.exportTo(path, &error), qPrintable(error));
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    const QByteArray bytes = file.readAll();
    QVERIFY(bytes.size() > 500);
    QVERIFY2(bytes.startsWith(magic), bytes.left(16).constData());
    QVERIFY(!plot.exportTo(dir.filePath(QStringLiteral("loss.bmpx")), &error));
    QVERIFY(!error.isEmpty());
}

void TestLossPlot::logScaleAndLearningRateAxis() {
    LossPlot plot;
    plot.setHistory({1, 2, 3}, {3.0, 2.5, 2.0}, {}, {}, {1e-4, 5e-4, 1e-3});
    plot.setLogScale(true);
    QCOMPARE(plot.plot()->yAxis->scaleType(), QCPAxis::stLogarithmic);
    plot.setLearningRateVisible(true);
    QVERIFY(plot.plot()->yAxis2->visible());
    plot.setLogScale(false);
    QCOMPARE(plot.plot()->yAxis->scaleType(), QCPAxis::stLinear);
}

void TestLossPlot::validationAtStepZeroIsInView() {
    // An evaluation before the first step: both curves start together.
    LossPlot plot;
    plot.resize(640, 400);
    plot.setHistory({1, 2, 3, 4}, {7.8, 7.0, 6.1, 5.5}, {0, 4}, {7.9, 5.6});
    plot.resetView();
    const QCPRange x = plot.plot()->xAxis->range();
    QVERIFY2(x.lower < 0.0 && x.upper > 4.0, qPrintable(QStringLiteral("%1..%2").arg(x.lower).arg(x.upper)));
    QCOMPARE(plot.plot()->xAxis->scaleType(), QCPAxis::stLinear);
    QCOMPARE(plot.validationGraph()->data()->constBegin()->key, 0.0);
    QCOMPARE(plot.validationGraph()->data()->constBegin()->value, 7.9);
    // It stays in view on a log loss axis and when appended live.
    plot.setLogScale(true);
    plot.clear();
    plot.appendEval(0, 7.9);
    plot.appendSteps({1, 2}, {7.8, 7.1}, {});
    plot.resetView();
    QVERIFY(plot.plot()->xAxis->range().lower < 0.0);
    QVERIFY(plot.plot()->yAxis->range().contains(7.9));
}

// A low plot (the Runs tab's over its table), or a taller type: the uniform
// guess's label is above its line inside the plot, and the timeline's step
// label at the top does not cover it.
void TestLossPlot::referenceLabelsFitALowPlot() {
    LossPlot plot;
    plot.resize(700, 230);
    plot.setReferenceLevels(std::log(168.0), 3.16);
    plot.setHistory({1, 100, 200, 400}, {5.1, 2.6, 2.2, 1.9}, {0, 400}, {5.12, 1.92});
    plot.setStepCursor(400);
    plot.show();
    QVERIFY(QTest::qWaitForWindowExposed(&plot));
    plot.resetView();
    const QCPItemText* uniform = plot.referenceLabel(LossPlot::Reference::Uniform);
    const QCPItemText* cursor = plot.stepCursorLabel();
    const auto fits = [&] {
        plot.plot()->replot(QCustomPlot::rpImmediateRefresh);
        const QRect rect = plot.plot()->yAxis->axisRect()->rect();
        return uniform->topLeft->pixelPosition().y() >= rect.top() &&
               cursor->bottomLeft->pixelPosition().y() <= uniform->topLeft->pixelPosition().y() + 1.0;
    };
    QTRY_VERIFY2(fits(), qPrintable(QStringLiteral("uniform label from %1, step label to %2, plot from %3")
                                        .arg(uniform->topLeft->pixelPosition().y())
                                        .arg(cursor->bottomLeft->pixelPosition().y())
                                        .arg(plot.plot()->yAxis->axisRect()->rect().top())));
}

// The n-gram floors: a dotted line from the 2-gram on (the 1-gram is the
// unigram line's level), each labelled with the first evaluation below it as
// the evaluations arrive, in the unit shown, and in the loss axis's range.
void TestLossPlot::ngramFloorsSayWhenTheyArePassed() {
    LossPlot plot;
    plot.resize(640, 400);
    plot.setHistory({1, 2, 3}, {4.0, 3.5, 3.0}, {0, 100}, {4.5, 2.4});
    plot.setNgramFloors({3.1, 2.5, 2.0, 1.6, 1.5});
    QVERIFY(!plot.ngramLine(1));
    QVERIFY(plot.ngramLine(2)->visible());
    QCOMPARE(plot.ngramLabel(2)->text(), QStringLiteral("2-gram floor 2.50 · passed at step 100"));
    QCOMPARE(plot.ngramLabel(3)->text(), QStringLiteral("3-gram floor 2.00"));
    QCOMPARE(plot.ngramLine(5)->point1->value(), 1.5);
    plot.appendEval(200, 1.9);
    QCOMPARE(plot.ngramLabel(3)->text(), QStringLiteral("3-gram floor 2.00 · passed at step 200"));
    QCOMPARE(plot.ngramLabel(4)->text(), QStringLiteral("4-gram floor 1.60"));
    plot.resetView();
    QVERIFY(plot.plot()->yAxis->range().contains(1.5));
    plot.setUnit(LossUnit::Bits);
    QVERIFY(std::abs(plot.ngramLine(4)->point1->value() - 1.6 / std::log(2.0)) < 1e-9);
    // A new run: nothing passed yet; no floors: no lines.
    plot.clear();
    QCOMPARE(plot.ngramLabel(2)->text().contains(QStringLiteral("passed")), false);
    plot.setNgramFloors({});
    QVERIFY(!plot.ngramLine(2)->visible() && !plot.ngramLabel(5)->visible());
}

void TestLossPlot::csvKeepsNatsAndAddsTheShownUnit() {
    LossPlot plot;
    plot.setHistory({1, 2}, {3.0, 2.0}, {0, 2}, {4.0, 2.5}, {1e-3, 1e-3});
    plot.setUnit(LossUnit::Bits);
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("loss.csv"));
    QString error;
    QVERIFY2(plot.exportCsv(path, &error), qPrintable(error));
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly | QIODevice::Text));
    const QStringList lines = QString::fromUtf8(file.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    QCOMPARE(lines.size(), 1 + 3);
    QCOMPARE(lines[0], QStringLiteral("step,train_loss,train_loss_smoothed,learning_rate,val_loss,"
                                      "train_bits,train_bits_smoothed,val_bits"));
    const QStringList zero = lines[1].split(QLatin1Char(','));
    QCOMPARE(zero.size(), 8);
    QCOMPARE(zero[0], QStringLiteral("0"));
    QCOMPARE(zero[4].toDouble(), 4.0);  // nats as they came
    QCOMPARE(float(zero[7].toDouble()), float(4.0 / std::log(2.0)));
    QVERIFY(zero[1].isEmpty() && zero[5].isEmpty());
    const QStringList two = lines[3].split(QLatin1Char(','));
    QCOMPARE(two[1].toDouble(), 2.0);
    QCOMPARE(float(two[5].toDouble()), float(2.0 / std::log(2.0)));
    QCOMPARE(float(two[6].toDouble()), float(two[2].toDouble() / std::log(2.0)));

    plot.setUnit(LossUnit::Perplexity);
    QVERIFY2(plot.exportCsv(path, &error), qPrintable(error));
    QFile again(path);
    QVERIFY(again.open(QIODevice::ReadOnly | QIODevice::Text));
    const QStringList perplexity = QString::fromUtf8(again.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    QVERIFY(perplexity[0].endsWith(QStringLiteral(",train_perplexity,train_perplexity_smoothed,val_perplexity")));
    QCOMPARE(float(perplexity[3].split(QLatin1Char(','))[7].toDouble()), float(std::exp(2.5)));
}

// The smoothed curve, computed by hand (smoothing 0.5): a point 2 steps after
// the last decays the past by 0.5^2; the sum is divided by the weight gathered.
void TestLossPlot::smoothingByHand() {
    GapSmoother smoother(0.5);
    QCOMPARE(smoother.add(1, 4.0), 4.0);  // the first point is its own average
    // sum 0.5*2 + 0.5*2 = 2, weight 0.5*0.5 + 0.5 = 0.75
    QCOMPARE(smoother.add(2, 2.0), 2.0 / 0.75);
    // gap 2: sum 0.25*2 + 0.75*8 = 6.5, weight 0.25*0.75 + 0.75 = 0.9375
    QCOMPARE(smoother.add(4, 8.0), 6.5 / 0.9375);
    // A diverged step is left out: the average stays, and so does the last step.
    QCOMPARE(smoother.add(5, std::nan("")), 6.5 / 0.9375);
    // gap 1 from step 4: sum 0.5*6.5 + 0.5*1 = 3.75, weight 0.5*0.9375 + 0.5 = 0.96875
    QCOMPARE(smoother.add(5, 1.0), 3.75 / 0.96875);
    smoother.reset();
    QCOMPARE(smoother.add(100, 3.0), 3.0);

    // At one point per step it is the usual debiased average:
    // sum_i (1-s) s^(n-i) x_i / (1 - s^n).
    GapSmoother everyStep(0.9);
    double biased = 0.0, result = 0.0;
    for (int n = 1; n <= 50; ++n) {
        const double x = 3.0 + std::sin(n);
        biased = 0.9 * biased + 0.1 * x;
        result = everyStep.add(n, x);
        QVERIFY(std::abs(result - biased / (1.0 - std::pow(0.9, n))) < 1e-12);
    }
    // No smoothing gives the points themselves.
    GapSmoother none(0.0);
    QCOMPARE(none.add(1, 5.0), 5.0);
    QCOMPARE(none.add(7, 2.5), 2.5);

    // The plot's smoothed curve is this average, and the slider rebuilds it.
    LossPlot plot;
    plot.setSmoothing(0.5);
    plot.appendSteps({1, 2, 4}, {4.0, 2.0, 8.0}, {1e-3, 1e-3, 1e-3});
    const QCPGraphDataContainer& smoothed = *plot.smoothedGraph()->data();
    QCOMPARE(smoothed.size(), 3);
    QCOMPARE(smoothed.at(1)->value, 2.0 / 0.75);
    QCOMPARE(smoothed.at(2)->value, 6.5 / 0.9375);
    plot.setSmoothing(0.0);
    QCOMPARE(plot.smoothedGraph()->data()->at(2)->value, 8.0);
}

// The same falling curve recorded at every step and at every tenth step
// smooths alike; averaging point by point, as before, the sparse curve would
// lag ten times as far behind.
void TestLossPlot::smoothingIgnoresHowDenselyPointsWereRecorded() {
    auto loss = [](int step) { return 1.2 + 3.0 * std::exp(-step / 400.0); };
    GapSmoother dense(0.95), sparse(0.95);
    double perPoint = 0.0;
    int sparsePoints = 0;
    for (int step = 1; step <= 3000; ++step) {
        const double d = dense.add(step, loss(step));
        if (step % 10 != 0)
            continue;
        const double s = sparse.add(step, loss(step));
        ++sparsePoints;
        perPoint = 0.95 * perPoint + 0.05 * loss(step);
        const double perPointDebiased = perPoint / (1.0 - std::pow(0.95, sparsePoints));
        if (step == 500 || step == 1000 || step == 3000) {
            // Within 1% of the dense curve's smoothing...
            QVERIFY2(std::abs(s - d) < 0.01 * d, qPrintable(QStringLiteral("step %1: %2 vs %3").arg(step).arg(s).arg(d)));
            // ...where the point-by-point average stays far behind it early on.
            if (step <= 1000)
                QVERIFY2(std::abs(perPointDebiased - d) > 10 * std::abs(s - d),
                         qPrintable(QStringLiteral("step %1: %2 vs %3").arg(step).arg(perPointDebiased).arg(d)));
        }
    }
}

void TestLossPlot::exportsReplaceOnlyRegularFiles_data() {
    QTest::addColumn<QString>("name");
    QTest::addColumn<QString>("kind");
    QTest::addColumn<bool>("lossPlot");  // the loss plot's export, or the other views' (ViewExport)
    for (const char* name : {"loss.csv", "loss.png", "loss.svg", "loss.pdf"})
        for (const char* kind : {"fifo", "hardlink"}) {
            QTest::newRow(qPrintable(QStringLiteral("loss plot, %1, %2").arg(name, kind))) << name << kind << true;
            QTest::newRow(qPrintable(QStringLiteral("view, %1, %2").arg(name, kind))) << name << kind << false;
        }
}

void TestLossPlot::exportsReplaceOnlyRegularFiles() {
    // A named pipe as the target blocked the export (a picture) or was replaced
    // by a file (CSV); a file with a second hard link was cut off from it. The
    // exports save as every file of the project is saved: refused, untouched,
    // with a message that names the file and says why.
    QFETCH(QString, name);
    QFETCH(QString, kind);
    QFETCH(bool, lossPlot);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(name);
    const QByteArray target = QFile::encodeName(path);
    const QString other = dir.filePath(QStringLiteral("other name"));
    if (kind == QLatin1String("fifo")) {
        QCOMPARE(::mkfifo(target.constData(), 0644), 0);
    } else {
        QFile before(path);
        QVERIFY(before.open(QIODevice::WriteOnly));
        before.write("the file before");
        before.close();
        QCOMPARE(::link(target.constData(), QFile::encodeName(other).constData()), 0);
    }
    struct stat before {};
    QCOMPARE(::lstat(target.constData(), &before), 0);

    QString error;
    bool written = false;
    if (lossPlot) {
        LossPlot plot;
        plot.setHistory({1, 2}, {3.0, 2.0}, {0, 2}, {4.0, 2.5}, {1e-3, 1e-3});
        written = plot.exportTo(path, &error);
    } else {
        written = ViewExport::write(
            path, QSize(40, 30), [](QPainter& painter, const QRectF& r) { painter.drawLine(r.topLeft(), r.bottomRight()); },
            [] { return QStringLiteral("a,b\n1,2\n"); }, &error);
    }
    QVERIFY(!written);
    const QString says = kind == QLatin1String("fifo") ? QStringLiteral("it is a named pipe (FIFO)")
                                                       : QStringLiteral("it has 2 hard links");
    QVERIFY2(error.contains(path) && error.contains(says), qPrintable(error));
    struct stat after {};
    QCOMPARE(::lstat(target.constData(), &after), 0);
    QCOMPARE(after.st_mode, before.st_mode);
    QCOMPARE(after.st_ino, before.st_ino);
    if (kind == QLatin1String("hardlink")) {
        QFile file(other);
        QVERIFY(file.open(QIODevice::ReadOnly));
        QCOMPARE(file.readAll(), QByteArray("the file before"));
    }
    const QStringList entries = QDir(dir.path()).entryList(QDir::AllEntries | QDir::Hidden | QDir::System);
    QVERIFY2(entries.filter(QStringLiteral(".tmp-")).isEmpty(), qPrintable(entries.join(' ')));
}

void TestLossPlot::aResizedPlotDrawsAfterThePage() {
    // A page shown for the first time resizes its plots inside the event that
    // shows it. Drawn there, each held the window before the page appeared:
    // the plot draws once the window has painted, once, at its new size.
    QWidget window;
    window.resize(400, 300);
    auto* plot = new Plot(&window);
    plot->resize(300, 200);
    plot->addGraph()->setData(QVector<double>{0, 1, 2}, QVector<double>{1, 3, 2});
    plot->rescaleAxes();
    QSignalSpy replots(plot, &QCustomPlot::afterReplot);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QTRY_VERIFY(replots.count() >= 1);
    QTest::qWait(50);
    replots.clear();
    PaintCounter painted;
    plot->installEventFilter(&painted);
    int paintsAtReplot = -1;
    connect(plot, &QCustomPlot::afterReplot, plot, [&] {
        if (paintsAtReplot < 0)
            paintsAtReplot = painted.paints;
    });

    window.resize(800, 600);
    plot->resize(700, 500);
    QCOMPARE(replots.count(), 0);  // not inside the resize
    QTRY_COMPARE(replots.count(), 1);
    QVERIFY2(paintsAtReplot >= 1, "the plot drew before the window painted");
    QTest::qWait(100);
    QCOMPARE(replots.count(), 1);  // the resize and the paint ask for one replot
    QCOMPARE(plot->viewport(), QRect(0, 0, 700, 500));
    QVERIFY(plot->axisRect()->outerRect().right() > 600);  // laid out at the new size
}

void TestLossPlot::aReplotLeavesThePaintingToTheWindow() {
    // A replot asked for by new data draws the plot's buffers; the window
    // paints them on its next pass, not inside the replot.
    Plot plot;
    plot.resize(400, 300);
    plot.addGraph()->setData(QVector<double>{0, 1, 2}, QVector<double>{1, 3, 2});
    plot.show();
    QVERIFY(QTest::qWaitForWindowExposed(&plot));
    QTest::qWait(50);
    PaintCounter painted;
    plot.installEventFilter(&painted);
    plot.replot();
    QCOMPARE(painted.paints, 0);
    QTRY_VERIFY(painted.paints >= 1);
}

CHARGPT_TEST_MAIN(TestLossPlot)
}  // namespace tst_lossplot
#include "tst_lossplot.moc"
