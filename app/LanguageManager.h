// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QObject>
#include <QPointer>
#include <QString>
#include <QStringList>
#include <QTranslator>

// Installs the translators of the chosen user-interface language and remembers
// the choice. Installing a translator sends QEvent::LanguageChange to every
// widget, whose changeEvent() then sets its texts again.
class QActionGroup;

class LanguageManager : public QObject {
    Q_OBJECT

public:
    explicit LanguageManager(QObject* parent = nullptr);

    // Codes of the languages shipped, e.g. "en", "zh_CN".
    static QStringList availableLanguages();
    // The language's name in that language ("English", "中文"), never translated.
    static QString nativeName(const QString& language);
    // The saved choice, else the system's language when shipped, else English.
    static QString preferredLanguage();

    QString currentLanguage() const { return current_; }
    // Switches to `language` (one of availableLanguages(), else English). A
    // remembered choice wins over the system's language at the next start.
    enum class Remember { No, Yes };
    void setLanguage(const QString& language, Remember remember);
    // One checkable action per language for a menu, the current one checked:
    // choosing one switches to it and remembers it. Kept checked as the
    // language changes.
    QActionGroup* createActions(QObject* parent);

private:
    QTranslator appTranslator_;
    QTranslator qtTranslator_;  // Qt's own dialogs and buttons, when installed
    QString current_;
    QPointer<QActionGroup> actions_;
};
