// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/LadderHistory.h"

#include <QHash>

#include <algorithm>
#include <cmath>
#include <numeric>

#include "model/train/Ladder.h"

namespace {

// The rung whose preset `preset` is, 0 for none.
int rungNumber(const QString& preset) {
    for (const chargpt::LadderRung& rung : chargpt::kLadder)
        if (preset == QLatin1String(rung.name))
            return rung.number;
    return 0;
}

// A loss read from a file anyone can hand us: a character model's loss is a
// few nats (ln of the vocabulary's size at most, about 15 for all of
// Unicode), so what is not a number between 0 and 1000 is unknown.
double plausibleLoss(double loss) { return std::isfinite(loss) && loss >= 0.0 && loss < 1000.0 ? loss : kLadderNoLoss; }

LadderRungData rungOf(const RunRow& run, int number) {
    LadderRungData rung;
    rung.number = number;
    if (!run.endReason)
        rung.state = LadderRungData::State::Unended;
    else
        switch (*run.endReason) {
        case chargpt::EndReason::Finished:
        case chargpt::EndReason::TimeLimit: rung.state = LadderRungData::State::Finished; break;
        case chargpt::EndReason::Stopped: rung.state = LadderRungData::State::Stopped; break;
        case chargpt::EndReason::NonFiniteLoss:
        case chargpt::EndReason::Error:
        case chargpt::EndReason::Other: rung.state = LadderRungData::State::Failed; break;
        }
    rung.parameters = std::max<qint64>(0, run.parameters);
    rung.bestValLoss = plausibleLoss(run.bestValLoss);
    rung.currentValLoss = plausibleLoss(run.lastValLoss);
    rung.step = std::max<qint64>(0, run.step);
    bool ok = false;
    const qint64 total = run.setting(QStringLiteral("max_steps")).toLongLong(&ok);
    rung.totalSteps = ok && total > 0 ? total : 0;
    rung.seconds = std::isfinite(run.elapsedSeconds) && run.elapsedSeconds >= 0.0 ? run.elapsedSeconds : 0.0;
    rung.runId = run.id;
    return rung;
}

}  // namespace

QVector<qint64> LadderRecord::runIds() const {
    QVector<qint64> ids;
    for (const LadderRungData& rung : rungs)
        if (rung.runId) ids.append(*rung.runId);
    return ids;
}

QString LadderRecord::floorsKey() const {
    return QStringLiteral("%1 %2 %3").arg(corpusHash).arg(sequenceLen).arg(valFraction, 0, 'g', 17);
}

QVector<LadderRecord> laddersOf(const QVector<RunRow>& runs) {
    QVector<const RunRow*> rungRuns;
    for (const RunRow& run : runs)
        if (run.firstStep == 0 && rungNumber(run.preset) > 0)
            rungRuns.append(&run);
    std::sort(rungRuns.begin(), rungRuns.end(), [](const RunRow* a, const RunRow* b) { return a->id < b->id; });

    QVector<LadderRecord> ladders;
    QVector<qint64> lastId;       // per ladder: the id of its last run
    QHash<QString, int> current;  // per corpus fingerprint: the ladder its next rung may join
    for (const RunRow* run : rungRuns) {
        const int number = rungNumber(run->preset);
        auto at = current.constFind(run->corpusHash);
        if (at == current.constEnd() || ladders[*at].rungs.back().number >= number) {
            LadderRecord ladder;
            ladder.corpus = run->corpus;
            ladder.corpusHash = run->corpusHash;
            ladder.started = run->started;
            bool ok = false;
            const qint64 context = run->setting(QStringLiteral("sequence_len")).toLongLong(&ok);
            ladder.sequenceLen = ok && context > 0 ? context : 0;
            const double share = run->setting(QStringLiteral("val_fraction")).toDouble(&ok);
            ladder.valFraction = ok && share > 0.0 && share < 1.0 ? share : 0.0;
            ladders.append(ladder);
            lastId.append(run->id);
            current.insert(run->corpusHash, int(ladders.size()) - 1);
        }
        const int index = current.value(run->corpusHash);
        ladders[index].rungs.append(rungOf(*run, number));
        lastId[index] = run->id;
    }

    QVector<int> order(ladders.size());
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(), [&](int a, int b) { return lastId[a] > lastId[b]; });
    QVector<LadderRecord> newestFirst;
    for (int i = 0; i < order.size() && i < kMaxListedLadders; ++i)
        newestFirst.append(ladders[order[i]]);
    return newestFirst;
}

QString plainCorpusName(const QString& corpus, int maxChars) {
    maxChars = std::max(maxChars, 3);
    QString name = corpus;
    if (name.size() > maxChars) {
        const int head = (maxChars - 1) / 2, tail = maxChars - 1 - head;
        name = corpus.left(head) + QChar(0x2026) + corpus.right(tail);
    }
    for (QChar& c : name)
        if (c.category() == QChar::Other_Control || c.category() == QChar::Separator_Line ||
            c.category() == QChar::Separator_Paragraph)
            c = QChar(u' ');
    return name;
}
