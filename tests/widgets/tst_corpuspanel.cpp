// SPDX-License-Identifier: GPL-3.0-or-later
// The corpus box names the text being loaded while it loads (the Python
// library takes seconds), through a change of language too, and the text
// loaded once it is there or once the new one failed.
#include <QComboBox>
#include <QEvent>
#include <QLabel>
#include <QTest>

#include "TestProgram.h"
#include "widgets/CorpusPanel.h"

namespace tst_corpuspanel {

class TestCorpusPanel : public QObject {
    Q_OBJECT

private slots:
    void namesTheTextBeingLoaded();
};

void TestCorpusPanel::namesTheTextBeingLoaded() {
    CorpusPanel panel;
    panel.setPythonAvailable(true);
    CorpusSummary tang;
    tang.source = QStringLiteral("builtin:tang300");
    tang.bytes = 1000;
    tang.characters = 900;
    tang.vocabularySize = 300;
    panel.showCorpus(tang);
    auto* choice = panel.findChild<QComboBox*>(QStringLiteral("corpusChoice"));
    auto* stats = panel.findChild<QLabel*>(QStringLiteral("corpusStats"));
    QVERIFY(choice && stats);
    QCOMPARE(choice->currentData().toString(), tang.source);

    panel.setLoading(QStringLiteral("builtin:python"));
    QCOMPARE(choice->currentData().toString(), QStringLiteral("builtin:python"));
    QVERIFY2(stats->text().startsWith(QStringLiteral("Loading")), qPrintable(stats->text()));
    QEvent change(QEvent::LanguageChange);
    QCoreApplication::sendEvent(&panel, &change);
    QCOMPARE(choice->currentData().toString(), QStringLiteral("builtin:python"));
    // It failed: the text loaded before, named again.
    panel.showError(QStringLiteral("builtin:python"), QStringLiteral("no Python"));
    QCOMPARE(choice->currentData().toString(), tang.source);

    // A file opened from the menu is named while it loads, then once loaded.
    const QString file = QStringLiteral("/tmp/poems/notes.txt");
    panel.setLoading(file);
    QCOMPARE(choice->currentData().toString(), file);
    QVERIFY2(choice->currentText().contains(QStringLiteral("notes.txt")), qPrintable(choice->currentText()));
    CorpusSummary notes = tang;
    notes.source = file;
    panel.showCorpus(notes);
    QCOMPARE(choice->currentData().toString(), file);
}

CHARGPT_TEST_MAIN(TestCorpusPanel)
}  // namespace tst_corpuspanel
#include "tst_corpuspanel.moc"
