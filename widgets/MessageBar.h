// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QFrame>
#include <QString>

class QLabel;
class QToolButton;

// A closable bar above the tabs for what the user must read: a blue note or
// a red error, the text selectable, and optionally a link after it (a health
// warning's "Show the plot") that emits actionTriggered. Hidden until the
// first message.
class MessageBar : public QFrame {
    Q_OBJECT

public:
    enum class Level { Info, Error };

    explicit MessageBar(QWidget* parent = nullptr);

    // `action`: the link's words, none when empty.
    void showMessage(const QString& text, Level level, const QString& action = QString());
    // The shown text, or empty while hidden.
    QString text() const;
    Level level() const { return level_; }
    // The link's words, or empty when the message has none.
    QString action() const;

signals:
    void actionTriggered();

private:
    QLabel* label_ = nullptr;
    QToolButton* action_ = nullptr;
    Level level_ = Level::Info;
};
