// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QAbstractSpinBox>

#include <limits>

// A spin box of 64-bit whole numbers, for a field whose range QSpinBox's int
// does not hold (the seed). Like QSpinBox: a key that would make the text a
// number outside the range is refused, and text left unfinished goes back to
// the value when editing ends.
class WideSpinBox : public QAbstractSpinBox {
    Q_OBJECT

public:
    explicit WideSpinBox(QWidget* parent = nullptr);

    qint64 value() const { return value_; }
    qint64 minimum() const { return minimum_; }
    qint64 maximum() const { return maximum_; }
    void setRange(qint64 minimum, qint64 maximum);

    void stepBy(int steps) override;
    QValidator::State validate(QString& input, int& pos) const override;
    void fixup(QString& input) const override;

public slots:
    // Clamped to the range; emits valueChanged when the value changes.
    void setValue(qint64 value);

signals:
    void valueChanged(qint64 value);

protected:
    StepEnabled stepEnabled() const override;

private:
    void takeText(const QString& text);

    qint64 value_ = 0;
    qint64 minimum_ = 0;
    qint64 maximum_ = std::numeric_limits<qint64>::max();
};
