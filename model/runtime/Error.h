// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <stdexcept>
#include <string>

namespace chargpt {

// Every error a user can cause (a bad corpus, setting or checkpoint) is thrown as
// this type with a message meant to be shown as it is.
class Error : public std::runtime_error {
public:
    explicit Error(const std::string& message) : std::runtime_error(message) {}
};

// The first line of an exception's message: what LibTorch's errors say, without
// the stack and the source lines it appends, to be quoted in a message of ours.
inline std::string firstLine(const std::exception& e) {
    const std::string why = e.what();
    return why.substr(0, why.find('\n'));
}

}  // namespace chargpt
