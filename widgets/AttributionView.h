// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QWidget>

#include "widgets/AttributionData.h"

class QLabel;

// Why the model gave a character: a sentence with its logit and the gap of
// the sum, a bar chart of the parts that add most to its logit (direct logit
// attribution: blue adds, red takes away) and the characters the model read,
// each on a colour of its gradient x input.
class AttributionView : public QWidget {
    Q_OBJECT

public:
    explicit AttributionView(QWidget* parent = nullptr);

    void setAttribution(const CharacterAttribution& attribution);
    const CharacterAttribution& attribution() const { return attribution_; }
    // The parts drawn, largest |logit| first (at most kBars).
    QVector<AttributionBar> shownBars() const;
    // The name of a part: "L2 H3", "token embedding", ...
    static QString partName(const AttributionBar& bar);
    // The characters read as rich text, each on the colour of its gradient x input.
    QString colouredText() const;
    QString summary() const;

    static constexpr int kBars = 16;

protected:
    void changeEvent(QEvent* event) override;

private:
    class Bars;
    void retranslateUi();

    CharacterAttribution attribution_;
    QLabel* summary_ = nullptr;
    QLabel* inputsTitle_ = nullptr;
    QLabel* inputs_ = nullptr;
    QLabel* barsTitle_ = nullptr;
    Bars* bars_ = nullptr;
};
