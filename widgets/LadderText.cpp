// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/LadderText.h"

#include <QCoreApplication>

#include <cmath>

#include "model/train/Ladder.h"

namespace {

QString loss(double value) { return QString::number(value, 'f', 2); }

}  // namespace

QString ladderRungTitle(int number) {
    if (number < 1 || number > chargpt::kLadderRungs)
        return QString();
    return QCoreApplication::translate("LadderView", chargpt::kLadder[number - 1].title);
}

QString ladderRungAdds(int number) {
    if (number < 1 || number > chargpt::kLadderRungs)
        return QString();
    return QCoreApplication::translate("LadderView", chargpt::kLadder[number - 1].adds);
}

QString ladderLesson(const LadderFloors& floors, const QVector<LadderRungData>& rungs) {
    QStringList sentences;
    const LadderRungData* previous = nullptr;
    const LadderRungData* belowUnigram = nullptr;
    const LadderRungData* belowBigram = nullptr;
    const LadderRungData* dropAt = nullptr;
    double biggestDrop = 0.0;
    int measured = 0;
    for (const LadderRungData& rung : rungs) {
        if (rung.state == LadderRungData::State::Training || !std::isfinite(rung.bestValLoss))
            continue;
        ++measured;
        if (!belowUnigram && std::isfinite(floors.unigram) && rung.bestValLoss < floors.unigram)
            belowUnigram = &rung;
        if (!belowBigram && std::isfinite(floors.bigram) && rung.bestValLoss < floors.bigram)
            belowBigram = &rung;
        if (previous && previous->bestValLoss - rung.bestValLoss > biggestDrop) {
            biggestDrop = previous->bestValLoss - rung.bestValLoss;
            dropAt = &rung;
        }
        previous = &rung;
    }
    if (measured == 0)
        return QString();
    if (belowBigram)
        sentences << QCoreApplication::translate(
                         "LadderView", "Rung %1 (%2) is the first below the bigram floor: %3 against %4 nats, so it "
                                       "uses more than the one character before.")
                         .arg(belowBigram->number)
                         .arg(ladderRungTitle(belowBigram->number), loss(belowBigram->bestValLoss), loss(floors.bigram));
    else if (belowUnigram)
        sentences << QCoreApplication::translate(
                         "LadderView", "Rung %1 (%2) is the first below the unigram floor (%3 against %4 nats); no "
                                       "rung beats the bigram floor (%5) yet.")
                         .arg(belowUnigram->number)
                         .arg(ladderRungTitle(belowUnigram->number), loss(belowUnigram->bestValLoss),
                              loss(floors.unigram), loss(floors.bigram));
    else if (std::isfinite(floors.unigram))  // unknown floors (a ladder of a corpus no longer there): no word on them
        sentences << QCoreApplication::translate(
                         "LadderView", "No rung is below the unigram floor (%1 nats) yet: train longer.")
                         .arg(loss(floors.unigram));
    if (dropAt)
        sentences << QCoreApplication::translate(
                         "LadderView", "The biggest drop, %1 nats, comes at rung %2 (%3), which adds: %4")
                         .arg(loss(biggestDrop))
                         .arg(dropAt->number)
                         .arg(ladderRungTitle(dropAt->number), ladderRungAdds(dropAt->number));
    if (sentences.size() == 2)  // Chinese runs sentences together, English puts a space between them
        return QCoreApplication::translate("LadderView", "%1 %2", "two sentences, one after the other")
            .arg(sentences[0], sentences[1]);
    return sentences.join(QString());
}
