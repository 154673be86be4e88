// SPDX-License-Identifier: GPL-3.0-or-later
#include "widgets/PatchingData.h"

namespace {

QStringList codePoints(const QString& text) {
    QStringList out;
    for (const char32_t c : text.toUcs4()) out.append(QString::fromUcs4(&c, 1));
    return out;
}

bool isShownLetter(const QString& c) { return !c.isEmpty() && c.at(0).isLetter(); }

}  // namespace

PatchingPrompts PatchingPrompts::corruptedFrom(const QString& prompt, const QString& target,
                                               const QString& alphabet, quint32 seed) {
    QStringList characters = codePoints(prompt);
    const QStringList letters = codePoints(alphabet);
    // Letters of the prompt, latest first, a name or a word to change; not the
    // last two characters when there are others (the next character depends on
    // them too plainly: the change should have to travel through attention).
    QVector<int> candidates;
    for (int i = int(characters.size()) - 3; i >= 0; --i)
        if (isShownLetter(characters[i])) candidates.append(i);
    if (candidates.isEmpty())
        for (int i = int(characters.size()) - 1; i >= 0; --i)
            if (isShownLetter(characters[i])) candidates.append(i);
    if (candidates.isEmpty())
        for (int i = int(characters.size()) - 1; i >= 0; --i) candidates.append(i);
    if (candidates.isEmpty() || letters.isEmpty()) return {};
    const int position = candidates[int(seed % quint32(candidates.size()))];
    const QString was = characters[position];
    for (int k = 0; k < letters.size(); ++k) {
        const QString other = letters[int((seed / 3 + quint32(k) * 7919u) % quint32(letters.size()))];
        if (other != was && (isShownLetter(other) == isShownLetter(was))) {
            characters[position] = other;
            return {prompt, characters.join(QString()), target};
        }
    }
    for (const QString& other : letters)
        if (other != was) {
            characters[position] = other;
            return {prompt, characters.join(QString()), target};
        }
    return {};
}

PatchingPrompts PatchingPrompts::presetFrom(const QString& text, int length, quint32 seed) {
    const QStringList characters = codePoints(text);
    const int n = int(characters.size());
    if (length < 2 || n < length + 1) return {};
    // Where: a start after a line break or a space when there is one, so that
    // the prompt begins with a word.
    const int span = n - length;  // starts 0 .. span - 1 leave the target inside
    int start = int((quint64(seed) * 2654435761u) % quint64(span));
    for (int tries = 0; tries < span && start > 0; ++tries) {
        const QString before = characters[start - 1];
        if (before == QLatin1String("\n") || before == QLatin1String(" ")) break;
        start = (start + 1) % span;
    }
    const QString clean = characters.mid(start, length).join(QString());
    return corruptedFrom(clean, characters[start + length], text, seed);
}
