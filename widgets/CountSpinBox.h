// SPDX-License-Identifier: GPL-3.0-or-later
// A spin box for a layer or a head: it holds the index counted from 0, as the
// code and the JSON count, and shows it counted from 1, as every label a
// person reads does ("Layer 1 · head 3").
#pragma once

#include <QLineEdit>
#include <QSpinBox>

class CountSpinBox : public QSpinBox {
public:
    explicit CountSpinBox(QWidget* parent = nullptr) : QSpinBox(parent) {
        // The base class wrote its text before this class could number it.
        lineEdit()->setText(textFromValue(value()));
    }

protected:
    QString textFromValue(int value) const override { return QSpinBox::textFromValue(value + 1); }
    int valueFromText(const QString& text) const override { return QSpinBox::valueFromText(text) - 1; }
    QValidator::State validate(QString& text, int& pos) const override {
        bool ok = false;
        const QString digits = text.trimmed();
        if (digits.isEmpty()) return QValidator::Intermediate;
        const int shown = locale().toInt(digits, &ok);
        if (!ok) return QValidator::Invalid;
        (void)pos;
        return shown - 1 >= minimum() && shown - 1 <= maximum() ? QValidator::Acceptable : QValidator::Intermediate;
    }
};
