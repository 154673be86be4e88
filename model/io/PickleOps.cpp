// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/io/PickleOps.h"

#include <cstdio>
#include <cstring>

namespace chargpt::pickle::ops {

namespace {

// Every instruction of pickle protocols 0 to 5 (Python's Lib/pickletools.py).
struct OpTable {
    OpInfo ops[256];
    constexpr OpTable() : ops() {
        auto set = [this](unsigned char op, const char* name, Arg arg) { ops[op] = OpInfo{name, arg}; };
        // protocol 0 and 1
        set('(', "MARK", Arg::None);
        set('.', "STOP", Arg::None);
        set('0', "POP", Arg::None);
        set('1', "POP_MARK", Arg::None);
        set('2', "DUP", Arg::None);
        set('F', "FLOAT", Arg::Line);
        set('I', "INT", Arg::Line);
        set('J', "BININT", Arg::I4);
        set('K', "BININT1", Arg::U1);
        set('L', "LONG", Arg::Line);
        set('M', "BININT2", Arg::U2);
        set('N', "NONE", Arg::None);
        set('P', "PERSID", Arg::Line);
        set('Q', "BINPERSID", Arg::None);
        set('R', "REDUCE", Arg::None);
        set('S', "STRING", Arg::Line);
        set('T', "BINSTRING", Arg::Len4);
        set('U', "SHORT_BINSTRING", Arg::Len1);
        set('V', "UNICODE", Arg::Line);
        set('X', "BINUNICODE", Arg::Len4);
        set('a', "APPEND", Arg::None);
        set('b', "BUILD", Arg::None);
        set('c', "GLOBAL", Arg::TwoLines);
        set('d', "DICT", Arg::None);
        set('}', "EMPTY_DICT", Arg::None);
        set('e', "APPENDS", Arg::None);
        set('g', "GET", Arg::Line);
        set('h', "BINGET", Arg::U1);
        set('i', "INST", Arg::TwoLines);
        set('j', "LONG_BINGET", Arg::U4);
        set('l', "LIST", Arg::None);
        set(']', "EMPTY_LIST", Arg::None);
        set('o', "OBJ", Arg::None);
        set('p', "PUT", Arg::Line);
        set('q', "BINPUT", Arg::U1);
        set('r', "LONG_BINPUT", Arg::U4);
        set('s', "SETITEM", Arg::None);
        set('t', "TUPLE", Arg::None);
        set(')', "EMPTY_TUPLE", Arg::None);
        set('u', "SETITEMS", Arg::None);
        set('G', "BINFLOAT", Arg::F8);
        // protocol 2
        set(0x80, "PROTO", Arg::U1);
        set(0x81, "NEWOBJ", Arg::None);
        set(0x82, "EXT1", Arg::U1);
        set(0x83, "EXT2", Arg::U2);
        set(0x84, "EXT4", Arg::U4);
        set(0x85, "TUPLE1", Arg::None);
        set(0x86, "TUPLE2", Arg::None);
        set(0x87, "TUPLE3", Arg::None);
        set(0x88, "NEWTRUE", Arg::None);
        set(0x89, "NEWFALSE", Arg::None);
        set(0x8a, "LONG1", Arg::Len1);
        set(0x8b, "LONG4", Arg::Len4);
        // protocol 3
        set('B', "BINBYTES", Arg::Len4);
        set('C', "SHORT_BINBYTES", Arg::Len1);
        // protocol 4
        set(0x8c, "SHORT_BINUNICODE", Arg::Len1);
        set(0x8d, "BINUNICODE8", Arg::Len8);
        set(0x8e, "BINBYTES8", Arg::Len8);
        set(0x8f, "EMPTY_SET", Arg::None);
        set(0x90, "ADDITEMS", Arg::None);
        set(0x91, "FROZENSET", Arg::None);
        set(0x92, "NEWOBJ_EX", Arg::None);
        set(0x93, "STACK_GLOBAL", Arg::None);
        set(0x94, "MEMOIZE", Arg::None);
        set(0x95, "FRAME", Arg::U8);
        // protocol 5
        set(0x96, "BYTEARRAY8", Arg::Len8);
        set(0x97, "NEXT_BUFFER", Arg::None);
        set(0x98, "READONLY_BUFFER", Arg::None);
    }
};

constexpr OpTable kOpTable;

// A name as it may be shown: printable ASCII, at most 60 characters.
std::string printable(std::string_view text) {
    std::string out;
    for (unsigned char c : text) {
        if (out.size() >= 60) return out + "...";
        out += (c >= 0x20 && c < 0x7f) ? static_cast<char>(c) : '?';
    }
    return out;
}

}  // namespace

const OpInfo& opInfo(unsigned char op) { return kOpTable.ops[op]; }

Decoder::Status Decoder::next(Instruction& in) {
    in = Instruction{};
    in.offset = pos_;
    if (pos_ >= size_) return Status::Truncated;
    in.op = p_[pos_++];
    const OpInfo& info = kOpTable.ops[in.op];
    if (!info.name) return Status::Unknown;
    switch (info.arg) {
        case Arg::None: return Status::Ok;
        case Arg::U1: return little(1, in.number);
        case Arg::U2: return little(2, in.number);
        case Arg::U4: return little(4, in.number);
        case Arg::U8: return little(8, in.number);
        case Arg::I4: return little(4, in.number);
        case Arg::F8: {
            if (size_ - pos_ < 8) return Status::Truncated;
            uint64_t bits = 0;
            for (int i = 0; i < 8; ++i) bits = (bits << 8) | p_[pos_ + static_cast<std::size_t>(i)];
            pos_ += 8;
            std::memcpy(&in.real, &bits, 8);
            return Status::Ok;
        }
        case Arg::Line: return line(in.text);
        case Arg::TwoLines:
            if (line(in.text) != Status::Ok) return Status::Truncated;
            return line(in.text2);
        case Arg::Len1: return counted(1, in);
        case Arg::Len4: return counted(4, in);
        case Arg::Len8: return counted(8, in);
    }
    return Status::Unknown;
}

Decoder::Status Decoder::little(std::size_t width, uint64_t& out) {
    if (size_ - pos_ < width) return Status::Truncated;
    out = 0;
    for (std::size_t i = width; i-- > 0;) out = (out << 8) | p_[pos_ + i];
    pos_ += width;
    return Status::Ok;
}

Decoder::Status Decoder::line(std::string_view& out) {
    const void* nl = std::memchr(p_ + pos_, '\n', size_ - pos_);
    if (!nl) return Status::Truncated;
    const std::size_t end = static_cast<std::size_t>(static_cast<const unsigned char*>(nl) - p_);
    out = std::string_view(reinterpret_cast<const char*>(p_ + pos_), end - pos_);
    pos_ = end + 1;
    return Status::Ok;
}

// A length that does not fit in the data is refused before anything is allocated.
Decoder::Status Decoder::counted(std::size_t width, Instruction& in) {
    if (little(width, in.number) != Status::Ok) return Status::Truncated;
    if (in.number > size_ - pos_) return Status::Truncated;
    in.text = std::string_view(reinterpret_cast<const char*>(p_ + pos_), static_cast<std::size_t>(in.number));
    pos_ += static_cast<std::size_t>(in.number);
    return Status::Ok;
}

bool allowedGlobal(std::string_view module, std::string_view name) {
    if (module == "collections") return name == "OrderedDict";
    if (module == "torch._utils")
        return name == "_rebuild_tensor_v2" || name == "_rebuild_tensor" || name == "_rebuild_parameter" ||
               name == "_rebuild_parameter_with_state";
    if (module == "torch.jit._pickle")
        return name == "build_intlist" || name == "build_tensorlist" || name == "build_doublelist" ||
               name == "build_boollist" || name == "build_genericlist" || name == "build_tensor_from_id" ||
               name == "restore_type_tag";
    if (module == "torch") {  // FloatStorage, LongStorage, BFloat16Storage, ...
        constexpr std::string_view suffix = "Storage";
        if (name.size() <= suffix.size() || name.substr(name.size() - suffix.size()) != suffix) return false;
        for (char c : name)
            if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'))) return false;
        return true;
    }
    return false;
}

std::string namedObject(std::string_view module, std::string_view name) {
    return "it names the Python object " + printable(module) + "." + printable(name) +
           ", which a checkpoint never needs";
}

std::string hexByte(unsigned char c) {
    char buf[8];
    std::snprintf(buf, sizeof buf, "0x%02x", c);
    return buf;
}

}  // namespace chargpt::pickle::ops
