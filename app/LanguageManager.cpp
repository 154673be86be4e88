// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/LanguageManager.h"

#include <QAction>
#include <QActionGroup>
#include <QCoreApplication>
#include <QLibraryInfo>
#include <QLocale>
#include <QSettings>

namespace {

const char* const kLanguageKey = "ui/language";
const char* const kEnglish = "en";
const char* const kChinese = "zh_CN";

}  // namespace

LanguageManager::LanguageManager(QObject* parent) : QObject(parent) {}

QStringList LanguageManager::availableLanguages() {
    return {QString::fromLatin1(kEnglish), QString::fromLatin1(kChinese)};
}

QString LanguageManager::nativeName(const QString& language) {
    if (language == QLatin1String(kChinese))
        return QStringLiteral("中文");
    return QStringLiteral("English");
}

QString LanguageManager::preferredLanguage() {
    const QString saved = QSettings().value(kLanguageKey).toString();
    if (availableLanguages().contains(saved))
        return saved;
    if (QLocale::system().language() == QLocale::Chinese)
        return QString::fromLatin1(kChinese);
    return QString::fromLatin1(kEnglish);
}

void LanguageManager::setLanguage(const QString& language, Remember remember) {
    const QString chosen = availableLanguages().contains(language) ? language : QString::fromLatin1(kEnglish);
    if (remember == Remember::Yes)
        QSettings().setValue(kLanguageKey, chosen);
    if (chosen == current_)
        return;

    // Dates and numbers in the chosen language's own form (the Runs tab's
    // dates): Chinese where the system's locale is not; English as the
    // system writes them. Set before the translators, whose LanguageChange
    // makes every view write its text again.
    const QLocale system = QLocale::system();
    if (chosen == QLatin1String(kChinese) && system.language() != QLocale::Chinese)
        QLocale::setDefault(QLocale(QLocale::Chinese, QLocale::China));
    else
        QLocale::setDefault(system);

    QCoreApplication::removeTranslator(&appTranslator_);
    QCoreApplication::removeTranslator(&qtTranslator_);
    if (appTranslator_.load(QStringLiteral(":/i18n/chargpt_%1.qm").arg(chosen)))
        QCoreApplication::installTranslator(&appTranslator_);
    if (qtTranslator_.load(QStringLiteral("qtbase_%1").arg(chosen),
                           QLibraryInfo::path(QLibraryInfo::TranslationsPath)))
        QCoreApplication::installTranslator(&qtTranslator_);

    current_ = chosen;
    if (actions_)
        for (QAction* action : actions_->actions())
            action->setChecked(action->data().toString() == current_);
}

QActionGroup* LanguageManager::createActions(QObject* parent) {
    actions_ = new QActionGroup(parent);
    actions_->setExclusive(true);
    for (const QString& language : availableLanguages()) {
        QAction* action = actions_->addAction(nativeName(language));
        action->setCheckable(true);
        action->setData(language);
        action->setChecked(language == current_);
    }
    connect(actions_, &QActionGroup::triggered, this,
            [this](QAction* action) { setLanguage(action->data().toString(), Remember::Yes); });
    return actions_;
}
