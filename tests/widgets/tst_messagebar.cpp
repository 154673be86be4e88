// SPDX-License-Identifier: GPL-3.0-or-later
// Text read from files (a weight name, a corpus file's name, a run's name) is
// shown as text, never as markup: a link in it is not live, an image is not
// loaded. The message bar, and the labels of other panels that show messages.
#include <QLabel>
#include <QTest>

#include "widgets/CorpusPanel.h"
#include "widgets/MessageBar.h"
#include "TestProgram.h"

namespace tst_messagebar {

namespace {

const QString kHostile = QStringLiteral("weight <a href=\"x\">link</a><img src=\"/etc/x.png\"> is refused");

}  // namespace

class TestMessageBar : public QObject {
    Q_OBJECT

private slots:
    void showsMarkupAsText();
    void corpusErrorShowsMarkupAsText();
};

void TestMessageBar::showsMarkupAsText() {
    for (const MessageBar::Level level : {MessageBar::Level::Error, MessageBar::Level::Info}) {
        MessageBar bar;
        bar.showMessage(kHostile, level);
        auto* label = bar.findChild<QLabel*>(QStringLiteral("messageLabel"));
        QVERIFY(label);
        QCOMPARE(label->textFormat(), Qt::PlainText);
        QVERIFY(label->text().contains(QLatin1String("<a href")));
        QCOMPARE(bar.text(), kHostile);
        QVERIFY(!label->openExternalLinks());
    }
}

void TestMessageBar::corpusErrorShowsMarkupAsText() {
    CorpusPanel panel;
    panel.showError(QStringLiteral("/tmp/<img src=\"/etc/x.png\">.txt"), kHostile);
    bool found = false;
    for (QLabel* label : panel.findChildren<QLabel*>()) {
        if (!label->text().contains(QLatin1String("<a href"))) continue;
        found = true;
        QCOMPARE(label->textFormat(), Qt::PlainText);
    }
    QVERIFY(found);
}

CHARGPT_TEST_MAIN(TestMessageBar)
}  // namespace tst_messagebar
#include "tst_messagebar.moc"
