// SPDX-License-Identifier: GPL-3.0-or-later
#include "app/cli/TerminalText.h"

#include <cstdio>

namespace {

// The length of the valid UTF-8 sequence at text[i] and its code point, or 0
// when the bytes there are not one (a stray continuation byte, a truncated or
// overlong sequence, a surrogate, a value past U+10FFFF).
std::size_t utf8Sequence(const std::string& text, std::size_t i, char32_t& codePoint) {
    const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
    const unsigned char lead = byte(i);
    std::size_t length = 0;
    char32_t value = 0, minimum = 0;
    if (lead < 0x80) {
        codePoint = lead;
        return 1;
    } else if (lead >= 0xC2 && lead <= 0xDF) {
        length = 2, value = lead & 0x1F, minimum = 0x80;
    } else if (lead >= 0xE0 && lead <= 0xEF) {
        length = 3, value = lead & 0x0F, minimum = 0x800;
    } else if (lead >= 0xF0 && lead <= 0xF4) {
        length = 4, value = lead & 0x07, minimum = 0x10000;
    } else {
        return 0;
    }
    if (i + length > text.size()) return 0;
    for (std::size_t k = 1; k < length; ++k) {
        if ((byte(i + k) & 0xC0) != 0x80) return 0;
        value = (value << 6) | (byte(i + k) & 0x3F);
    }
    if (value < minimum || value > 0x10FFFF || (value >= 0xD800 && value <= 0xDFFF)) return 0;
    codePoint = value;
    return length;
}

// Bidirectional embeddings, overrides and isolates: shown, they reorder the
// text around them (a file name that reads backwards, a message whose end
// seems to be elsewhere).
bool isBidiControl(char32_t c) { return (c >= 0x202A && c <= 0x202E) || (c >= 0x2066 && c <= 0x2069); }

}  // namespace

std::string terminalSafe(const std::string& text, LineBreaks breaks) {
    std::string out;
    out.reserve(text.size());
    char escape[16];
    for (std::size_t i = 0; i < text.size();) {
        char32_t c = 0;
        const std::size_t length = utf8Sequence(text, i, c);
        if (length == 0) {  // not UTF-8: the byte itself, escaped (0x9B alone is a C1 CSI to some terminals)
            std::snprintf(escape, sizeof escape, "\\x%02X", static_cast<unsigned char>(text[i]));
            out += escape;
            ++i;
            continue;
        }
        const bool kept = (c == '\n' || c == '\t') && breaks == LineBreaks::Keep;
        if (c < 0x20 && !kept) {
            std::snprintf(escape, sizeof escape, "\\x%02X", static_cast<unsigned>(c));
            out += escape;
        } else if ((c >= 0x7F && c <= 0x9F) || isBidiControl(c)) {  // \u: valid in JSON as well
            std::snprintf(escape, sizeof escape, "\\u%04X", static_cast<unsigned>(c));
            out += escape;
        } else {
            out.append(text, i, length);
        }
        i += length;
    }
    return out;
}
