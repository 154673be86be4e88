// SPDX-License-Identifier: GPL-3.0-or-later
// Words that come with values from another thread are worded by the view that
// shows them, so a change of language rewords them: the Inside tab's red line
// and the Runs tab's note of the library. A translator that marks every
// sentence of a context stands in for Chinese.
#include <QLabel>
#include <QTest>
#include <QTranslator>

#include "MarkingTranslator.h"
#include "TestProgram.h"
#include "widgets/InsideData.h"
#include "widgets/InsidePage.h"
#include "widgets/RunsData.h"
#include "widgets/RunsPage.h"

namespace tst_retranslation {

namespace {

QLabel* labelSaying(const QWidget& widget, const QString& words) {
    for (QLabel* label : widget.findChildren<QLabel*>())
        if (label->text().contains(words)) return label;
    return nullptr;
}

}  // namespace

class TestRetranslation : public QObject {
    Q_OBJECT

private slots:
    void insideRedLineFollowsTheLanguage();
    void runLibraryNoteFollowsTheLanguage();
};

void TestRetranslation::insideRedLineFollowsTheLanguage() {
    InsidePage page;
    InsideFrame frame;
    frame.step = 40;
    frame.gaps = {InsideGap::ProbeTooShort};
    page.showFrame(frame);
    QLabel* line = labelSaying(page, QStringLiteral("logit lens."));
    QVERIFY(line);
    QCOMPARE(line->text(), QStringLiteral("The probe needs two characters the model knows for the logit lens."));
    MarkingTranslator marking("InsideData");
    QVERIFY(QCoreApplication::installTranslator(&marking));
    QCoreApplication::processEvents();
    QCOMPARE(line->text(), QStringLiteral("«The probe needs two characters the model knows for the logit lens.»"));
    QCoreApplication::removeTranslator(&marking);
    QCoreApplication::processEvents();
    QCOMPARE(line->text(), QStringLiteral("The probe needs two characters the model knows for the logit lens."));
    page.showFrame(InsideFrame());
    QVERIFY(!line->isVisibleTo(&page));
}

void TestRetranslation::runLibraryNoteFollowsTheLanguage() {
    RunsPage page;
    page.setLibraryNote(LibraryNote{LibraryNote::Kept, QStringLiteral("/data/runs.sqlite")});
    QLabel* note = page.findChild<QLabel*>(QStringLiteral("runsLibraryNote"));
    QVERIFY(note);
    QCOMPARE(note->text(), QStringLiteral("The run library: /data/runs.sqlite"));
    MarkingTranslator marking("RunsPage");
    QVERIFY(QCoreApplication::installTranslator(&marking));
    QCoreApplication::processEvents();
    QCOMPARE(note->text(), QStringLiteral("«The run library: /data/runs.sqlite»"));
    QCoreApplication::removeTranslator(&marking);
    QCoreApplication::processEvents();
    page.setLibraryNote(LibraryNote{LibraryNote::NoDataFolder, QString()});
    QCOMPARE(note->text(), QStringLiteral("There is no data folder, so runs are not kept."));
}

CHARGPT_TEST_MAIN(TestRetranslation)
}  // namespace tst_retranslation
#include "tst_retranslation.moc"
