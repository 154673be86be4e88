// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/MessageBar.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QToolButton>

MessageBar::MessageBar(QWidget* parent) : QFrame(parent) {
    setObjectName(QStringLiteral("messageBar"));
    setFrameShape(QFrame::StyledPanel);
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(8, 4, 4, 4);
    label_ = new QLabel(this);
    label_->setTextFormat(Qt::PlainText);  // messages name files and hold text read from them: never markup
    label_->setObjectName(QStringLiteral("messageLabel"));
    label_->setWordWrap(true);
    label_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    action_ = new QToolButton(this);
    action_->setObjectName(QStringLiteral("messageAction"));
    action_->setAutoRaise(true);
    action_->setCursor(Qt::PointingHandCursor);
    action_->setStyleSheet(QStringLiteral("QToolButton { color: #1a5fb4; text-decoration: underline; }"));
    action_->hide();
    connect(action_, &QToolButton::clicked, this, &MessageBar::actionTriggered);
    auto* close = new QToolButton(this);
    close->setText(QStringLiteral("✕"));
    close->setAutoRaise(true);
    layout->addWidget(label_, 1);
    layout->addWidget(action_);
    layout->addWidget(close);
    connect(close, &QToolButton::clicked, this, &QWidget::hide);
    hide();
}

void MessageBar::showMessage(const QString& text, Level level, const QString& action) {
    level_ = level;
    label_->setText(text);
    action_->setText(action);
    action_->setVisible(!action.isEmpty());
    setStyleSheet(level == Level::Error
                      ? QStringLiteral("#messageBar { background: #fde7e9; border: 1px solid #e0a0a8; }")
                      : QStringLiteral("#messageBar { background: #e7f1fd; border: 1px solid #a0b8e0; }"));
    show();
}

QString MessageBar::text() const { return isHidden() ? QString() : label_->text(); }

QString MessageBar::action() const { return isHidden() || action_->isHidden() ? QString() : action_->text(); }
