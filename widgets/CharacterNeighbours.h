// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QWidget>

#include "widgets/InsideData.h"

class QComboBox;
class QLabel;

// Under the characters' map: choose a character and read its nearest
// characters by the cosine of their embeddings in the frame shown, so the
// list follows the timeline's step. The choice stays from frame to frame
// (by the character, not its place in the list).
class CharacterNeighbours : public QWidget {
    Q_OBJECT

public:
    explicit CharacterNeighbours(QWidget* parent = nullptr);

    void setFrame(const CharacterMapFrame& frame);
    // Chooses `character` when the frame has it.
    void choose(const QString& character);
    QString chosen() const { return chosen_; }
    // "Nearest to “e” at step 40, by cosine: …", or empty.
    QString neighboursText() const;

    QComboBox* characterBox() const { return box_; }
    QLabel* neighboursLabel() const { return label_; }

protected:
    void changeEvent(QEvent* event) override;

private:
    void fillBox();
    void updateText();

    QLabel* caption_ = nullptr;
    QComboBox* box_ = nullptr;
    QLabel* label_ = nullptr;
    CharacterMapFrame frame_;
    QString chosen_;
};
