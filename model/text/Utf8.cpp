// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/text/Utf8.h"

#include "model/runtime/Error.h"

namespace chargpt::utf8 {

bool decode(std::string_view bytes, std::u32string& out, std::size_t& errorOffset) {
    out.clear();
    out.reserve(bytes.size());
    const auto* s = reinterpret_cast<const unsigned char*>(bytes.data());
    const std::size_t n = bytes.size();
    std::size_t i = 0;
    while (i < n) {
        const unsigned char b = s[i];
        if (b < 0x80) {
            out.push_back(b);
            ++i;
            continue;
        }
        int extra;
        char32_t cp, min;
        if ((b & 0xE0) == 0xC0) {
            extra = 1; cp = b & 0x1F; min = 0x80;
        } else if ((b & 0xF0) == 0xE0) {
            extra = 2; cp = b & 0x0F; min = 0x800;
        } else if ((b & 0xF8) == 0xF0) {
            extra = 3; cp = b & 0x07; min = 0x10000;
        } else {
            errorOffset = i;
            return false;
        }
        if (i + static_cast<std::size_t>(extra) >= n) {  // truncated sequence
            errorOffset = i;
            return false;
        }
        for (int k = 1; k <= extra; ++k) {
            const unsigned char c = s[i + k];
            if ((c & 0xC0) != 0x80) {
                errorOffset = i;
                return false;
            }
            cp = (cp << 6) | (c & 0x3F);
        }
        if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
            errorOffset = i;
            return false;
        }
        out.push_back(cp);
        i += static_cast<std::size_t>(extra) + 1;
    }
    return true;
}

std::u32string decodeOrThrow(std::string_view bytes, const std::string& what) {
    std::u32string out;
    std::size_t offset = 0;
    if (!decode(bytes, out, offset))
        throw Error(what + " is not valid UTF-8 text (invalid byte sequence at byte offset " +
                    std::to_string(offset) + ").");
    return out;
}

std::string encode(char32_t c) {
    std::string out;
    if (c < 0x80) {
        out.push_back(static_cast<char>(c));
    } else if (c < 0x800) {
        out.push_back(static_cast<char>(0xC0 | (c >> 6)));
        out.push_back(static_cast<char>(0x80 | (c & 0x3F)));
    } else if (c < 0x10000) {
        out.push_back(static_cast<char>(0xE0 | (c >> 12)));
        out.push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3F)));
        out.push_back(static_cast<char>(0x80 | (c & 0x3F)));
    } else {
        out.push_back(static_cast<char>(0xF0 | (c >> 18)));
        out.push_back(static_cast<char>(0x80 | ((c >> 12) & 0x3F)));
        out.push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3F)));
        out.push_back(static_cast<char>(0x80 | (c & 0x3F)));
    }
    return out;
}

std::string encode(std::u32string_view text) {
    std::string out;
    out.reserve(text.size());
    for (char32_t c : text) out += encode(c);
    return out;
}

}  // namespace chargpt::utf8
