// SPDX-License-Identifier: GPL-3.0-or-later
// The first pass over a pickle: every instruction decoded, none executed, and
// every Python global it names checked against the allow-list.
#include <optional>

#include "model/io/Pickle.h"
#include "model/io/PickleOps.h"

namespace chargpt::pickle {

namespace {

using ops::Decoder;
using ops::Instruction;

// Instructions that push a text value, which STACK_GLOBAL may then take as a name.
bool pushesText(unsigned char op) { return op == 'S' || op == 'V' || op == 'U' || op == 'X' || op == 'T' || op == 0x8c || op == 0x8d; }
// Instructions that leave the stack as it is.
bool keepsStack(unsigned char op) {
    return op == 0x94 || op == 0x80 || op == 0x95 || op == 'p' || op == 'q' || op == 'r';
}

}  // namespace

std::string foreignCode(const unsigned char* data, std::size_t size) {
    Decoder decoder(data, size);
    // The texts pushed by the last two instructions that pushed anything, when
    // those were literal strings: STACK_GLOBAL's module and name.
    std::optional<std::string> last[2];
    const std::string truncated = "its pickle data ends before its end mark";
    while (!decoder.atEnd()) {
        Instruction in;
        switch (decoder.next(in)) {
            case Decoder::Status::Truncated: return truncated;
            case Decoder::Status::Unknown:
                return "it holds a pickle instruction that is not part of any pickle protocol (" + ops::hexByte(in.op) +
                       " at byte " + std::to_string(in.offset) + ")";
            case Decoder::Status::Ok: break;
        }
        const unsigned char op = in.op;
        if (op == '.') return "";  // STOP
        if (op == 0x80 && in.number > 5)
            return "it uses pickle protocol " + std::to_string(in.number) + ", which is unknown";
        if (op == 'c' || op == 'i') {  // GLOBAL, INST
            if (!ops::allowedGlobal(in.text, in.text2)) return ops::namedObject(in.text, in.text2);
        } else if (op == 0x93) {  // STACK_GLOBAL: module and name were pushed just before
            if (!last[0] || !last[1])
                return "it names a Python object through values it computes (instruction STACK_GLOBAL at byte " +
                       std::to_string(in.offset) + ")";
            if (!ops::allowedGlobal(*last[0], *last[1])) return ops::namedObject(*last[0], *last[1]);
        } else if (op == 0x82 || op == 0x83 || op == 0x84) {  // EXT1, EXT2, EXT4
            return "it names a Python object through the copyreg extension registry (byte " +
                   std::to_string(in.offset) + ")";
        }
        if (keepsStack(op)) continue;
        last[0] = std::move(last[1]);
        // Only short strings can be module or function names; keep no copy of the rest.
        if (pushesText(op) && in.text.size() <= 256)
            last[1] = std::string(in.text);
        else
            last[1].reset();
    }
    return truncated;
}

}  // namespace chargpt::pickle
