// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/CharacterNeighbours.h"

#include <QComboBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QLabel>
#include <QLocale>

#include "widgets/AttentionData.h"

CharacterNeighbours::CharacterNeighbours(QWidget* parent) : QWidget(parent) {
    caption_ = new QLabel(this);
    box_ = new QComboBox(this);
    box_->setObjectName(QStringLiteral("neighboursCharacter"));
    box_->setMaxVisibleItems(20);
    label_ = new QLabel(this);
    label_->setTextFormat(Qt::PlainText);  // characters of the corpus: never markup
    label_->setWordWrap(true);
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(caption_);
    layout->addWidget(box_);
    layout->addWidget(label_, 1);
    connect(box_, &QComboBox::currentIndexChanged, this, [this](int index) {
        if (index >= 0) chosen_ = box_->itemData(index).toString();
        updateText();
    });
    caption_->setText(tr("Nearest characters of"));
}

void CharacterNeighbours::setFrame(const CharacterMapFrame& frame) {
    frame_ = frame;
    if (chosen_.isEmpty() || !frame_.characters.contains(chosen_))
        chosen_ = frame_.characters.contains(QStringLiteral("e")) ? QStringLiteral("e")
                                                                  : frame_.characters.value(0);
    fillBox();
    updateText();
}

void CharacterNeighbours::choose(const QString& character) {
    const int index = box_->findData(character);
    if (index >= 0) box_->setCurrentIndex(index);
}

void CharacterNeighbours::fillBox() {
    const QSignalBlocker block(box_);
    box_->clear();
    for (const QString& c : frame_.characters) box_->addItem(displayCharacter(c), c);
    box_->setCurrentIndex(box_->findData(chosen_));
    box_->setEnabled(box_->count() > 0);
}

QString CharacterNeighbours::neighboursText() const {
    const qsizetype index = frame_.characters.indexOf(chosen_);
    if (index < 0 || index >= frame_.neighbours.size()) return QString();
    QStringList near;
    for (const CharacterNeighbour& n : frame_.neighbours[index])
        near << tr("“%1” %2").arg(displayCharacter(n.character), QLocale().toString(double(n.cosine), 'f', 2));
    if (near.isEmpty()) return tr("no other character to compare with.");
    return tr("at step %1, by the cosine of their embeddings (1: the same direction): %2")
        .arg(frame_.step)
        .arg(near.join(QStringLiteral("   ")));
}

void CharacterNeighbours::updateText() { label_->setText(neighboursText()); }

void CharacterNeighbours::changeEvent(QEvent* event) {
    if (event->type() == QEvent::LanguageChange) {
        caption_->setText(tr("Nearest characters of"));
        updateText();
    }
    QWidget::changeEvent(event);
}
