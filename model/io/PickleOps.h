// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The pickle instruction set, shared by the two passes over a pickle
// (model/io/Pickle.h): the table of every instruction of protocols 0 to 5, a
// decoder that reads one instruction at a time by that table, and the Python
// globals a file of tensors may name.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace chargpt::pickle::ops {

// How an instruction's argument is laid out after its opcode.
enum class Arg : uint8_t {
    None,
    U1, U2, U4, U8,       // little-endian unsigned
    I4,                   // little-endian signed
    F8,                   // big-endian IEEE double
    Line,                 // text up to a newline
    TwoLines,             // "module\nname\n"
    Len1, Len4, Len8,     // a little-endian length of 1, 4 or 8 bytes, then that many bytes
};

struct OpInfo {
    const char* name = nullptr;  // nullptr: not an instruction of any protocol
    Arg arg = Arg::None;
};

// The table entry of `op` (Python's Lib/pickletools.py).
const OpInfo& opInfo(unsigned char op);

// One decoded instruction.
struct Instruction {
    unsigned char op = 0;
    std::size_t offset = 0;  // of the opcode
    uint64_t number = 0;     // U*, I4 (as two's complement), Len* (the length)
    double real = 0.0;       // F8
    std::string_view text;   // Line, Len*; TwoLines: the module
    std::string_view text2;  // TwoLines: the name
};

// Reads instructions one at a time, by the table. Every length is checked
// against the data before anything is taken from it.
class Decoder {
public:
    enum class Status { Ok, Truncated, Unknown };

    Decoder(const unsigned char* data, std::size_t size) : p_(data), size_(size) {}

    bool atEnd() const { return pos_ >= size_; }
    std::size_t position() const { return pos_; }
    Status next(Instruction& in);

private:
    Status little(std::size_t width, uint64_t& out);
    Status line(std::string_view& out);
    Status counted(std::size_t width, Instruction& in);

    const unsigned char* p_;
    std::size_t size_;
    std::size_t pos_ = 0;
};

// Whether module.name is one of the globals a torch.save file of plain values
// refers to (the allow-list of PyTorch's weights_only unpickler, restricted to
// what such files use).
bool allowedGlobal(std::string_view module, std::string_view name);

// "it names the Python object os.system, which a checkpoint never needs".
std::string namedObject(std::string_view module, std::string_view name);

// "0x9f".
std::string hexByte(unsigned char c);

}  // namespace chargpt::pickle::ops
