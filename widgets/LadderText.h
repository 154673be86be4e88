// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The words of the architecture ladder in the user's language: each rung's
// short title and what it adds (model/train/Ladder.h's, translated), and the
// sentence that says what a ladder's numbers show.

#include <QString>
#include <QVector>

#include "widgets/LadderData.h"

// Rung `number` (1 to 7): "bigram", "one attention head"... ("" for another number).
QString ladderRungTitle(int number);
// What rung `number` adds to the rung before, in one sentence.
QString ladderRungAdds(int number);
// What the finished rungs show, every rung against the others and against
// both floors: a simpler rung that beats every later one (and why: too little
// text for the parameters), the first rung under the bigram floor, or under
// the unigram floor with the bigram floor out of reach or not yet reached, and
// the biggest drop between two rungs and the part that made it, unless a
// simpler rung wins (without floors, NaN, no word on them). Empty while no
// rung has a loss.
QString ladderLesson(const LadderFloors& floors, const QVector<LadderRungData>& rungs);
