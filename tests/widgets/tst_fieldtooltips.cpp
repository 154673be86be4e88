// SPDX-License-Identifier: GPL-3.0-or-later
// A row's tooltip in the settings panel is its field's help from the settings
// table (model/train/RunFields.h), with the field's range and the value a user
// starts from, translated as the field's label is: the same words `chargpt`'s
// option for it prints, so one edit of the table changes both.
#include <QCoreApplication>
#include <QLocale>
#include <QTest>
#include <QTranslator>

#include <algorithm>
#include <limits>
#include <string_view>

#include "MarkingTranslator.h"
#include "TestProgram.h"
#include "model/train/RunFields.h"
#include "widgets/SettingsPanel.h"

namespace tst_fieldtooltips {

namespace {

// The fields whose row the panel shows with a help of the table's.
QList<const chargpt::RunField*> explainedRows() {
    QList<const chargpt::RunField*> fields;
    for (const chargpt::RunField& field : chargpt::runFields())
        if (field.shown() && *field.help) fields.append(&field);
    return fields;
}

QString localeNumber(const chargpt::RunField& field, double value) {
    const QLocale locale;
    if (field.kind == chargpt::FieldKind::Real)
        return locale.toString(value, 'g', QLocale::FloatingPointShortest);
    return locale.toString(value < 9.2e18 ? qint64(value) : std::numeric_limits<qint64>::max());
}

}  // namespace

class TestFieldTooltips : public QObject {
    Q_OBJECT

private slots:
    void tooltipIsTheFieldsHelpRangeAndDefault();
    void tooltipIsTranslatedAsTheTable();
};

void TestFieldTooltips::tooltipIsTheFieldsHelpRangeAndDefault() {
    const QList<const chargpt::RunField*> fields = explainedRows();
    // The rows that had a tooltip of their own, and the ones the CLI sets.
    for (const char* key : {"emb_size", "head_size", "weight_decay", "max_steps", "batch_size",
                            "learning_rate", "dropout", "seed"})
        QVERIFY2(std::any_of(fields.cbegin(), fields.cend(),
                             [key](const chargpt::RunField* f) { return std::string_view(f->key) == key; }),
                 key);
    SettingsPanel panel;
    const chargpt::RunConfig fast = chargpt::fastPresetSettings();
    for (const chargpt::RunField* field : fields) {
        const QWidget* editor = panel.findChild<QWidget*>(QString::fromLatin1(field->key));
        QVERIFY2(editor, field->key);
        const QString tip = editor->toolTip();
        QCOMPARE(tip, SettingsPanel::fieldToolTip(*field));
        QVERIFY2(tip.startsWith(QString::fromUtf8(field->help) + QStringLiteral(" (")), qPrintable(tip));
        QVERIFY2(tip.contains(
                     QStringLiteral("from %1 to %2")
                         .arg(localeNumber(*field, field->minimum), localeNumber(*field, field->maximum))),
                 qPrintable(tip));
        // The value a run starts from: the fast preset's where a preset sets it.
        const QString start =
            localeNumber(*field, field->numberIn(field->presetSets ? fast : chargpt::RunConfig()));
        QVERIFY2(
            tip.endsWith(field->presetSets ? QStringLiteral("default the preset's, %1 in fast)").arg(start)
                                           : QStringLiteral("default %1)").arg(start)),
            qPrintable(tip));
    }
}

void TestFieldTooltips::tooltipIsTranslatedAsTheTable() {
    SettingsPanel panel;
    MarkingTranslator marking("RunFields");
    QVERIFY(QCoreApplication::installTranslator(&marking));
    QCoreApplication::processEvents();
    for (const chargpt::RunField* field : explainedRows()) {
        const QWidget* editor = panel.findChild<QWidget*>(QString::fromLatin1(field->key));
        QVERIFY2(editor, field->key);
        QVERIFY2(editor->toolTip().startsWith(QStringLiteral("«%1» (").arg(QString::fromUtf8(field->help))),
                 qPrintable(editor->toolTip()));
        QCOMPARE(editor->toolTip(), SettingsPanel::fieldToolTip(*field));
    }
    QCoreApplication::removeTranslator(&marking);
    QCoreApplication::processEvents();
    for (const chargpt::RunField* field : explainedRows())
        QVERIFY(panel.findChild<QWidget*>(QString::fromLatin1(field->key))
                    ->toolTip()
                    .startsWith(QString::fromUtf8(field->help)));
}

CHARGPT_TEST_MAIN(TestFieldTooltips)
}  // namespace tst_fieldtooltips
#include "tst_fieldtooltips.moc"
