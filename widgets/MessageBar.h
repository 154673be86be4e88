// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QFrame>
#include <QString>

class QLabel;

// A closable bar above the tabs for what the user must read: a blue note or
// a red error, the text selectable. Hidden until the first message.
class MessageBar : public QFrame {
    Q_OBJECT

public:
    enum class Level { Info, Error };

    explicit MessageBar(QWidget* parent = nullptr);

    void showMessage(const QString& text, Level level);
    // The shown text, or empty while hidden.
    QString text() const;
    Level level() const { return level_; }

private:
    QLabel* label_ = nullptr;
    Level level_ = Level::Info;
};
