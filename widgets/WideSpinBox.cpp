// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/WideSpinBox.h"

#include <QLineEdit>

#include <algorithm>
#include <cstdlib>

WideSpinBox::WideSpinBox(QWidget* parent) : QAbstractSpinBox(parent) {
    lineEdit()->setText(QString::number(value_));
    connect(lineEdit(), &QLineEdit::textEdited, this, &WideSpinBox::takeText);
    connect(this, &QAbstractSpinBox::editingFinished, this, [this] {
        lineEdit()->setText(QString::number(value_));  // what was left unfinished goes
    });
}

void WideSpinBox::setRange(qint64 minimum, qint64 maximum) {
    minimum_ = minimum;
    maximum_ = std::max(minimum, maximum);
    setValue(value_);
}

void WideSpinBox::setValue(qint64 value) {
    value = std::clamp(value, minimum_, maximum_);
    const QString text = QString::number(value);
    if (lineEdit()->text() != text)
        lineEdit()->setText(text);
    if (value == value_)
        return;
    value_ = value;
    emit valueChanged(value_);
}

void WideSpinBox::takeText(const QString& text) {
    bool ok = false;
    const qint64 typed = text.toLongLong(&ok);
    if (ok && typed >= minimum_ && typed <= maximum_ && typed != value_) {
        value_ = typed;
        emit valueChanged(value_);
    }
}

void WideSpinBox::stepBy(int steps) {
    // Saturating, so that a step at either end stays in the range.
    const qint64 room = steps > 0 ? maximum_ - value_ : value_ - minimum_;
    const qint64 by = std::min<qint64>(std::abs(qint64(steps)), room);
    setValue(steps > 0 ? value_ + by : value_ - by);
    selectAll();
}

QAbstractSpinBox::StepEnabled WideSpinBox::stepEnabled() const {
    StepEnabled enabled = StepNone;
    if (value_ > minimum_)
        enabled |= StepDownEnabled;
    if (value_ < maximum_)
        enabled |= StepUpEnabled;
    return enabled;
}

QValidator::State WideSpinBox::validate(QString& input, int&) const {
    if (input.isEmpty() || (input == QLatin1String("-") && minimum_ < 0))
        return QValidator::Intermediate;
    bool ok = false;
    const qint64 typed = input.toLongLong(&ok);
    for (const QChar c : input)
        if (!c.isDigit() && !(c == QLatin1Char('-') && minimum_ < 0))
            return QValidator::Invalid;
    if (!ok || typed > maximum_ || (typed < 0 && typed < minimum_))
        return QValidator::Invalid;
    return typed < minimum_ ? QValidator::Intermediate : QValidator::Acceptable;
}

void WideSpinBox::fixup(QString& input) const { input = QString::number(value_); }
