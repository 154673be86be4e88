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

}  // namespace chargpt
