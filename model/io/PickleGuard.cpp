// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/io/PickleGuard.h"

#include <cstdint>
#include <cstdio>
#include <optional>

namespace chargpt {

namespace {

// Every name a torch.save file of plain values refers to.
bool allowedGlobal(const std::string& module, const std::string& name) {
    if (module == "collections") return name == "OrderedDict";
    if (module == "torch._utils")
        return name == "_rebuild_tensor_v2" || name == "_rebuild_tensor" || name == "_rebuild_parameter";
    if (module == "torch.jit._pickle")
        return name == "build_intlist" || name == "build_tensorlist" || name == "build_doublelist" ||
               name == "build_boollist" || name == "build_tensor_from_id" || name == "restore_type_tag";
    if (module == "torch") {  // FloatStorage, LongStorage, BFloat16Storage, ...
        const std::string suffix = "Storage";
        if (name.size() <= suffix.size() ||
            name.compare(name.size() - suffix.size(), suffix.size(), suffix) != 0)
            return false;
        for (char c : name)
            if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'))) return false;
        return true;
    }
    return false;
}

// A name as it may be shown: printable ASCII, at most 60 characters.
std::string printable(const std::string& text) {
    std::string out;
    for (unsigned char c : text) {
        if (out.size() >= 60) return out + "...";
        out += (c >= 0x20 && c < 0x7f) ? static_cast<char>(c) : '?';
    }
    return out;
}

std::string hex(unsigned char c) {
    char buf[8];
    std::snprintf(buf, sizeof buf, "0x%02x", c);
    return buf;
}

class Walker {
public:
    Walker(const unsigned char* data, std::size_t size) : p_(data), end_(data + size), begin_(data) {}

    std::string run() {
        while (p_ < end_) {
            const std::size_t offset = static_cast<std::size_t>(p_ - begin_);
            const unsigned char op = *p_++;
            // The opcodes of one kind share a line.
            // clang-format off
            switch (op) {
                // No argument. REDUCE, BUILD, OBJ and NEWOBJ call what the stack holds,
                // which only GLOBAL, INST and STACK_GLOBAL can put there: those are checked.
                case 'N': case 0x88: case 0x89: case ']': case ')': case '}': case 0x8f: case 'l': case 't':
                case 0x85: case 0x86: case 0x87: case 'd': case 0x91: case '2': case 'R': case 'o': case 0x81:
                case 0x92: case 'Q': case 0x97: case 0x98: case 'a': case 'e': case 's': case 'u': case 0x90:
                case '0': case '(': case '1': case 'b':
                    pushOther();
                    break;
                case 0x94:  // MEMOIZE: the stack is unchanged
                    break;
                case '.':  // STOP
                    return "";
                case 0x80:  // PROTO
                    if (!skip(1)) return truncated();
                    if (p_[-1] > 5) return "it uses pickle protocol " + std::to_string(p_[-1]) + ", which is unknown";
                    break;
                case 0x95:  // FRAME: a length; the frame's instructions follow
                    if (!skip(8)) return truncated();
                    break;
                case 'K': case 'h': case 'q':
                    if (!skip(1)) return truncated();
                    if (op != 'q') pushOther();  // BINPUT only stores
                    break;
                case 'M':
                    if (!skip(2)) return truncated();
                    pushOther();
                    break;
                case 'J': case 'j': case 'r':
                    if (!skip(4)) return truncated();
                    if (op != 'r') pushOther();  // LONG_BINPUT only stores
                    break;
                case 'G':
                    if (!skip(8)) return truncated();
                    pushOther();
                    break;
                case 'I': case 'L': case 'F': case 'g': case 'p': case 'P': {
                    if (!line()) return truncated();
                    if (op != 'p') pushOther();
                    break;
                }
                case 'S': case 'V': {
                    std::string text;
                    if (!line(&text)) return truncated();
                    pushString(text);
                    break;
                }
                case 0x8a: case 'U': case 'C': case 0x8c: {  // one-byte length
                    std::string text;
                    if (!counted(1, &text)) return truncated();
                    if (op == 0x8c || op == 'U') pushString(text); else pushOther();
                    break;
                }
                case 0x8b: case 'T': case 'B': case 'X': {  // four-byte length
                    std::string text;
                    if (!counted(4, &text)) return truncated();
                    if (op == 'X' || op == 'T') pushString(text); else pushOther();
                    break;
                }
                case 0x8e: case 0x96: case 0x8d: {  // eight-byte length
                    std::string text;
                    if (!counted(8, &text)) return truncated();
                    if (op == 0x8d) pushString(text); else pushOther();
                    break;
                }
                case 'c': case 'i': {  // GLOBAL, INST: "module\nname\n"
                    std::string module, name;
                    if (!line(&module) || !line(&name)) return truncated();
                    if (!allowedGlobal(module, name)) return named(module, name);
                    pushOther();
                    break;
                }
                case 0x93: {  // STACK_GLOBAL: module and name were pushed just before
                    if (!last_[0] || !last_[1])
                        return "it names a Python object through values it computes (instruction STACK_GLOBAL at byte " +
                               std::to_string(offset) + ")";
                    const std::string module = *last_[0], name = *last_[1];
                    if (!allowedGlobal(module, name)) return named(module, name);
                    pushOther();
                    break;
                }
                case 0x82: case 0x83: case 0x84:  // EXT1, EXT2, EXT4: a name from the copyreg registry
                    return "it names a Python object through the copyreg extension registry (byte " +
                           std::to_string(offset) + ")";
                default:
                    return "it holds a pickle instruction that is not part of any pickle protocol (" + hex(op) +
                           " at byte " + std::to_string(offset) + ")";
            }
        }
        return truncated();
        // clang-format on
    }

private:
    bool skip(std::size_t n) {
        if (static_cast<std::size_t>(end_ - p_) < n) return false;
        p_ += n;
        return true;
    }
    // A newline-terminated argument.
    bool line(std::string* text = nullptr) {
        const unsigned char* start = p_;
        while (p_ < end_ && *p_ != '\n') ++p_;
        if (p_ == end_) return false;
        if (text) text->assign(reinterpret_cast<const char*>(start), static_cast<std::size_t>(p_ - start));
        ++p_;
        return true;
    }
    // A little-endian length of `width` bytes, then that many bytes.
    bool counted(std::size_t width, std::string* text) {
        if (static_cast<std::size_t>(end_ - p_) < width) return false;
        uint64_t n = 0;
        for (std::size_t i = 0; i < width; ++i) n |= uint64_t(p_[i]) << (8 * i);
        p_ += width;
        if (n > static_cast<uint64_t>(end_ - p_)) return false;
        // Only short strings can be module or function names; keep no copy of the rest.
        if (n <= 256)
            text->assign(reinterpret_cast<const char*>(p_), static_cast<std::size_t>(n));
        else
            text->clear();
        p_ += n;
        return true;
    }
    void pushString(const std::string& text) {
        last_[0] = last_[1];
        last_[1] = text;
    }
    void pushOther() {
        last_[0] = last_[1];
        last_[1].reset();
    }
    static std::string named(const std::string& module, const std::string& name) {
        return "it names the Python object " + printable(module) + "." + printable(name) +
               ", which a checkpoint never needs";
    }
    static std::string truncated() { return "its pickle data ends before its end mark"; }

    const unsigned char* p_;
    const unsigned char* end_;
    const unsigned char* begin_;
    std::optional<std::string> last_[2];  // the two values pushed last, when they are strings
};

}  // namespace

std::string foreignCodeInPickle(const unsigned char* data, std::size_t size) {
    return Walker(data, size).run();
}

}  // namespace chargpt
