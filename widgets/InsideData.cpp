// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/InsideData.h"

#include <QChar>
#include <QCoreApplication>
#include <QRegularExpression>
#include <algorithm>

namespace {

template <typename Frames>
int lastFrameAtOrBefore(const Frames& frames, qint64 step) {
    if (frames.isEmpty()) return -1;
    int found = 0;
    for (int i = 0; i < frames.size(); ++i)
        if (frames[i].step <= step) found = i;
    return found;
}

}  // namespace

QStringList LogitLens::defaultLayerLabels(int blocks) {
    QStringList labels{QCoreApplication::translate("InsideData", "embeddings")};
    for (int b = 1; b <= blocks; ++b) labels << QCoreApplication::translate("InsideData", "block %1").arg(b);
    return labels;
}

double Knockout::headIncrease(int layer, int head) const {
    for (const KnockoutRow& row : rows)
        if (row.kind == KnockoutKind::Head && row.layer == layer && row.head == head) return row.increase;
    return std::numeric_limits<double>::quiet_NaN();
}

QVector<KnockoutPart> KnockoutPart::allOf(int layers, int heads) {
    QVector<KnockoutPart> parts;
    for (int layer = 0; layer < layers; ++layer)
        for (int head = 0; head < heads; ++head) parts.append({KnockoutKind::Head, layer, head});
    for (int layer = 0; layer < layers; ++layer) parts.append({KnockoutKind::Attention, layer, std::nullopt});
    for (int layer = 0; layer < layers; ++layer)
        parts.append({KnockoutKind::FeedForward, layer, std::nullopt});
    return parts;
}

QString knockoutPartName(const KnockoutPart& part) {
    switch (part.kind) {
        case KnockoutKind::Head:
            return headName(part.layer, part.head.value_or(0));
        case KnockoutKind::Attention:
            return QCoreApplication::translate("InsideData", "L%1 attention").arg(part.layer + 1);
        case KnockoutKind::FeedForward:
            return QCoreApplication::translate("InsideData", "L%1 feed-forward").arg(part.layer + 1);
    }
    return QString();
}

std::optional<KnockoutPart> knockoutPartNamed(const QString& name) {
    static const QRegularExpression form(
        QStringLiteral("^L([0-9]{1,6})[ _-]?(?:H([0-9]{1,6})|(attention)|(feed[ _-]?forward))$"),
        QRegularExpression::CaseInsensitiveOption);
    const QRegularExpressionMatch m = form.match(name.trimmed());
    if (!m.hasMatch()) return std::nullopt;
    const int layer = m.captured(1).toInt() - 1;
    if (layer < 0) return std::nullopt;
    if (m.capturedLength(2) > 0) {
        const int head = m.captured(2).toInt() - 1;
        if (head < 0) return std::nullopt;
        return KnockoutPart{KnockoutKind::Head, layer, head};
    }
    return KnockoutPart{m.capturedLength(3) > 0 ? KnockoutKind::Attention : KnockoutKind::FeedForward, layer,
                        std::nullopt};
}

double HeadRoles::score(HeadRole role, int frame, int layer, int head) const {
    if (frame < 0 || frame >= frames.size() || layer < 0 || layer >= layers || head < 0 || head >= heads)
        return std::numeric_limits<double>::quiet_NaN();
    const QVector<float>& scores =
        role == HeadRole::Induction ? frames[frame].induction : frames[frame].previousToken;
    const qsizetype index = qsizetype(layer) * heads + head;
    return index < scores.size() ? double(scores[index]) : std::numeric_limits<double>::quiet_NaN();
}

int HeadRoles::frameAt(qint64 step) const { return lastFrameAtOrBefore(frames, step); }

QString headRoleName(HeadRole role) {
    return role == HeadRole::Induction ? QCoreApplication::translate("InsideData", "Induction score")
                                       : QCoreApplication::translate("InsideData", "Previous-token score");
}

QString headName(int layer, int head) {
    return QCoreApplication::translate("InsideData", "L%1 H%2").arg(layer + 1).arg(head + 1);
}

CharacterKind characterKind(const QString& character) {
    if (character.isEmpty()) return CharacterKind::Other;
    const char32_t c = character.toUcs4().value(0);
    switch (QChar::script(c)) {
        case QChar::Script_Han:
        case QChar::Script_Hiragana:
        case QChar::Script_Katakana:
        case QChar::Script_Hangul:
        case QChar::Script_Bopomofo:
            return CharacterKind::Cjk;
        default:
            break;
    }
    if (QChar::isSpace(c)) return CharacterKind::Space;
    if (QChar::isLetter(c)) return CharacterKind::Letter;
    if (QChar::isDigit(c)) return CharacterKind::Digit;
    if (QChar::isPunct(c) || QChar::isSymbol(c)) return CharacterKind::Punctuation;
    return CharacterKind::Other;
}

QString characterKindName(CharacterKind kind) {
    switch (kind) {
        case CharacterKind::Letter:
            return QCoreApplication::translate("InsideData", "letter");
        case CharacterKind::Digit:
            return QCoreApplication::translate("InsideData", "digit");
        case CharacterKind::Punctuation:
            return QCoreApplication::translate("InsideData", "punctuation");
        case CharacterKind::Cjk:
            return QCoreApplication::translate("InsideData", "CJK");
        case CharacterKind::Space:
            return QCoreApplication::translate("InsideData", "space");
        case CharacterKind::Other:
            return QCoreApplication::translate("InsideData", "other");
    }
    return QString();
}

QColor characterKindColor(CharacterKind kind) {
    // Okabe-Ito colours, told apart by colour-blind readers too.
    switch (kind) {
        case CharacterKind::Letter:
            return QColor(0x00, 0x72, 0xb2);
        case CharacterKind::Digit:
            return QColor(0xe6, 0x9f, 0x00);
        case CharacterKind::Punctuation:
            return QColor(0x00, 0x9e, 0x73);
        case CharacterKind::Cjk:
            return QColor(0xd5, 0x5e, 0x00);
        case CharacterKind::Space:
            return QColor(0xcc, 0x79, 0xa7);
        case CharacterKind::Other:
            return QColor(0x59, 0x59, 0x59);
    }
    return QColor(Qt::black);
}

QList<CharacterKind> allCharacterKinds() {
    return {CharacterKind::Letter, CharacterKind::Digit, CharacterKind::Punctuation,
            CharacterKind::Cjk,    CharacterKind::Space, CharacterKind::Other};
}

QRectF CharacterMap::bounds() const {
    bool any = false;
    double left = 0, right = 0, top = 0, bottom = 0;
    for (const CharacterMapFrame& frame : frames) {
        // Where the characters were at step A too: every line drawn stays in view.
        for (const QPointF& p : frame.points + frame.comparedPoints) {
            if (!std::isfinite(p.x()) || !std::isfinite(p.y())) continue;
            if (!any) {
                left = right = p.x();
                top = bottom = p.y();
                any = true;
                continue;
            }
            left = std::min(left, p.x());
            right = std::max(right, p.x());
            top = std::min(top, p.y());
            bottom = std::max(bottom, p.y());
        }
    }
    return any ? QRectF(QPointF(left, top), QPointF(right, bottom)) : QRectF();
}

int CharacterMap::frameAt(qint64 step) const { return lastFrameAtOrBefore(frames, step); }

QString insideGapText(InsideGap gap) {
    switch (gap) {
    case InsideGap::ProbeTooShort:
        return QCoreApplication::translate("InsideData",
                                           "The probe needs two characters the model knows for the logit lens.");
    case InsideGap::NoPositions:
        return QCoreApplication::translate(
            "InsideData", "This model has no position embeddings to compare (a rung of the architecture ladder).");
    case InsideGap::NoLayers:
        return QCoreApplication::translate("InsideData",
                                           "This model has no heads to score: it is a bigram model without layers "
                                           "(a rung of the architecture ladder).");
    case InsideGap::NoTextForHeads:
        return QCoreApplication::translate("InsideData", "No text of two known characters to score the heads on.");
    }
    return QString();
}
