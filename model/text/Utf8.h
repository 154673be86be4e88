// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace chargpt::utf8 {

// Decodes UTF-8 into code points. Returns false on the first invalid sequence
// (overlong forms, surrogates and values past U+10FFFF included) and sets
// errorOffset to its byte offset.
bool decode(std::string_view bytes, std::u32string& out, std::size_t& errorOffset);

// Decodes UTF-8 and throws chargpt::Error naming `what` and the byte offset.
std::u32string decodeOrThrow(std::string_view bytes, const std::string& what);

std::string encode(std::u32string_view text);
std::string encode(char32_t codePoint);

}  // namespace chargpt::utf8
