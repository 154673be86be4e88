// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QWidget>

#include "widgets/AttributionData.h"

class QLabel;
class QPushButton;

// Why the model gave a character: a sentence with its logit and the gap of
// the sum, a bar chart of the parts that add most to its logit (direct logit
// attribution: blue adds, red takes away) and the characters the model read,
// each on a colour of its gradient x input, and where the heads that add
// most looked from there.
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
    // The attention paths of the heads that add most, as rich text: a line per
    // head, its name, the characters read on the green of its weight, and the
    // two it looked at most.
    QString pathsText() const;
    QString summary() const;

    static constexpr int kBars = 16;
    // Asks for a file and exports the view there (AttributionExport.h).
    QPushButton* exportButton() const { return exportButton_; }
    // Asks for the patching lab on this character (patchRequested).
    QPushButton* patchButton() const { return patchButton_; }

signals:
    // The characters read, as one prompt, and the character explained.
    void patchRequested(const QString& prompt, const QString& target);

protected:
    void changeEvent(QEvent* event) override;

private:
    class Bars;
    void retranslateUi();
    void chooseExportFile();

    CharacterAttribution attribution_;
    QLabel* summary_ = nullptr;
    QPushButton* exportButton_ = nullptr;
    QPushButton* patchButton_ = nullptr;
    QLabel* inputsTitle_ = nullptr;
    QLabel* inputs_ = nullptr;
    QLabel* pathsTitle_ = nullptr;
    QLabel* paths_ = nullptr;
    QLabel* barsTitle_ = nullptr;
    Bars* bars_ = nullptr;
};
