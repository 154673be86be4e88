// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/LadderText.h"

#include <QCoreApplication>
#include <QLocale>
#include <QStringList>
#include <algorithm>
#include <cmath>
#include <limits>

#include "model/train/Ladder.h"

namespace {

QString loss(double value) { return QString::number(value, 'f', 2); }

}  // namespace

QString ladderRungTitle(int number) {
    if (number < 1 || number > chargpt::kLadderRungs) return QString();
    return QCoreApplication::translate("LadderView", chargpt::kLadder[number - 1].title);
}

QString ladderRungAdds(int number) {
    if (number < 1 || number > chargpt::kLadderRungs) return QString();
    return QCoreApplication::translate("LadderView", chargpt::kLadder[number - 1].adds);
}

QString ladderLesson(const LadderFloors& floors, const QVector<LadderRungData>& rungs) {
    QVector<const LadderRungData*> measured;
    for (const LadderRungData& rung : rungs)
        if (rung.state != LadderRungData::State::Training && std::isfinite(rung.bestValLoss))
            measured << &rung;
    if (measured.isEmpty()) return QString();
    const LadderRungData* best = measured.first();
    const LadderRungData* belowUnigram = nullptr;
    const LadderRungData* belowBigram = nullptr;
    const LadderRungData* dropAt = nullptr;
    double biggestDrop = 0.0;
    for (qsizetype i = 0; i < measured.size(); ++i) {
        const LadderRungData& rung = *measured[i];
        if (rung.bestValLoss < best->bestValLoss) best = &rung;
        if (!belowUnigram && std::isfinite(floors.unigram) && rung.bestValLoss < floors.unigram)
            belowUnigram = &rung;
        if (!belowBigram && std::isfinite(floors.bigram) && rung.bestValLoss < floors.bigram)
            belowBigram = &rung;
        if (i > 0 && measured[i - 1]->bestValLoss - rung.bestValLoss > biggestDrop) {
            biggestDrop = measured[i - 1]->bestValLoss - rung.bestValLoss;
            dropAt = &rung;
        }
    }
    // The rungs after the best one, each with more parts: all of them worse
    // means a simpler model wins, and that is the ladder's lesson.
    double laterLow = std::numeric_limits<double>::infinity(), laterHigh = -laterLow;
    qint64 laterParameters = 0;
    for (const LadderRungData* rung : measured)
        if (rung->number > best->number) {
            laterLow = std::min(laterLow, rung->bestValLoss);
            laterHigh = std::max(laterHigh, rung->bestValLoss);
            laterParameters = std::max(laterParameters, rung->parameters);
        }
    const bool simplerWins = std::isfinite(laterLow);

    QStringList sentences;
    if (simplerWins)
        sentences
            << (laterLow == laterHigh
                    ? QCoreApplication::translate(
                          "LadderView",
                          "Rung %1 (%2) has the lowest loss, %3 nats; the later rung, with more parts, does "
                          "worse (%4).")
                          .arg(best->number)
                          .arg(ladderRungTitle(best->number), loss(best->bestValLoss), loss(laterLow))
                    : QCoreApplication::translate("LadderView",
                                                  "Rung %1 (%2) has the lowest loss, %3 nats; every later "
                                                  "rung, with more parts, does "
                                                  "worse (%4 to %5).")
                          .arg(best->number)
                          .arg(ladderRungTitle(best->number), loss(best->bestValLoss), loss(laterLow),
                               loss(laterHigh)));
    if (simplerWins && laterParameters > best->parameters && best->parameters > 0)
        sentences
            << QCoreApplication::translate(
                   "LadderView",
                   "This text is too little for their parameters (up to %1): they learn the training text "
                   "by heart instead of what carries over to new text. More text, not more parts, would "
                   "help.")
                   .arg(QLocale().toString(laterParameters));
    else if (simplerWins)
        sentences << QCoreApplication::translate(
            "LadderView",
            "This text is too little for the larger models: they learn the training text by heart "
            "instead of what carries over to new text. More text, not more parts, would help.");

    // The bigram floor is the validation text's own pairs counted on itself:
    // on a small text with many characters it lies far below anything a
    // model trained on other text reaches (the best rung more than twice as
    // far from it as from the unigram floor, the two floors a nat apart).
    const bool bigramOutOfReach =
        std::isfinite(floors.bigram) && std::isfinite(floors.unigram) && !belowBigram &&
        floors.unigram - floors.bigram > 1.0 &&
        best->bestValLoss - floors.bigram > 2.0 * (floors.unigram - best->bestValLoss);
    if (belowBigram)
        sentences
            << QCoreApplication::translate(
                   "LadderView",
                   "Rung %1 (%2) is the first below the bigram floor: %3 against %4 nats, so it uses more "
                   "than the one character before.")
                   .arg(belowBigram->number)
                   .arg(ladderRungTitle(belowBigram->number), loss(belowBigram->bestValLoss),
                        loss(floors.bigram));
    else if (belowUnigram && bigramOutOfReach)
        sentences
            << QCoreApplication::translate(
                   "LadderView",
                   "Rung %1 (%2) is the first below the unigram floor (%3 against %4 nats). The bigram floor "
                   "(%5) counts the validation text's own pairs on itself: on a text this small no model "
                   "trained on other text comes near it.")
                   .arg(belowUnigram->number)
                   .arg(ladderRungTitle(belowUnigram->number), loss(belowUnigram->bestValLoss),
                        loss(floors.unigram), loss(floors.bigram));
    else if (belowUnigram)
        sentences << QCoreApplication::translate("LadderView",
                                                 "Rung %1 (%2) is the first below the unigram floor (%3 "
                                                 "against %4 nats); no rung beats the "
                                                 "bigram floor (%5) yet.")
                         .arg(belowUnigram->number)
                         .arg(ladderRungTitle(belowUnigram->number), loss(belowUnigram->bestValLoss),
                              loss(floors.unigram), loss(floors.bigram));
    else if (std::isfinite(
                 floors.unigram))  // unknown floors (a ladder of a corpus no longer there): no word on them
        sentences << QCoreApplication::translate(
                         "LadderView", "No rung is below the unigram floor (%1 nats) yet: train longer.")
                         .arg(loss(floors.unigram));
    // The biggest drop, when the rung it comes at is the best one so far:
    // a drop between two rungs that a simpler one beats is no progress.
    if (dropAt && !simplerWins)
        sentences << QCoreApplication::translate(
                         "LadderView", "The biggest drop, %1 nats, comes at rung %2 (%3), which adds: %4")
                         .arg(loss(biggestDrop))
                         .arg(dropAt->number)
                         .arg(ladderRungTitle(dropAt->number), ladderRungAdds(dropAt->number));
    // Chinese runs sentences together, English puts a space between them.
    QString text = sentences.value(0);
    for (qsizetype i = 1; i < sentences.size(); ++i)
        text = QCoreApplication::translate("LadderView", "%1 %2", "two sentences, one after the other")
                   .arg(text, sentences[i]);
    return text;
}
