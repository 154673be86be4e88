// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/io/Pickle.h"

#include <caffe2/serialize/inline_container.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <optional>
#include <string_view>

#include "model/text/Utf8.h"

namespace chargpt::pickle {

namespace {

// ---- the instruction table ---------------------------------------------------

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

// One decoded instruction.
struct Instruction {
    unsigned char op = 0;
    std::size_t offset = 0;  // of the opcode
    uint64_t number = 0;     // U*, I4 (as two's complement), Len* (the length)
    double real = 0.0;       // F8
    std::string_view text;   // Line, Len*; TwoLines: the module
    std::string_view text2;  // TwoLines: the name
};

// Reads instructions one at a time, by the table.
class Decoder {
public:
    enum class Status { Ok, Truncated, Unknown };

    Decoder(const unsigned char* data, std::size_t size) : p_(data), size_(size) {}

    bool atEnd() const { return pos_ >= size_; }
    std::size_t position() const { return pos_; }

    Status next(Instruction& in) {
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

private:
    Status little(std::size_t width, uint64_t& out) {
        if (size_ - pos_ < width) return Status::Truncated;
        out = 0;
        for (std::size_t i = width; i-- > 0;) out = (out << 8) | p_[pos_ + i];
        pos_ += width;
        return Status::Ok;
    }
    Status line(std::string_view& out) {
        const void* nl = std::memchr(p_ + pos_, '\n', size_ - pos_);
        if (!nl) return Status::Truncated;
        const std::size_t end = static_cast<std::size_t>(static_cast<const unsigned char*>(nl) - p_);
        out = std::string_view(reinterpret_cast<const char*>(p_ + pos_), end - pos_);
        pos_ = end + 1;
        return Status::Ok;
    }
    // A length that does not fit in the data is refused before anything is allocated.
    Status counted(std::size_t width, Instruction& in) {
        if (little(width, in.number) != Status::Ok) return Status::Truncated;
        if (in.number > size_ - pos_) return Status::Truncated;
        in.text = std::string_view(reinterpret_cast<const char*>(p_ + pos_), static_cast<std::size_t>(in.number));
        pos_ += static_cast<std::size_t>(in.number);
        return Status::Ok;
    }

    const unsigned char* p_;
    std::size_t size_;
    std::size_t pos_ = 0;
};

// ---- the allowed globals -----------------------------------------------------

// Every name a torch.save file of plain values refers to.
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

// A name as it may be shown: printable ASCII, at most 60 characters.
std::string printable(std::string_view text) {
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

std::string named(std::string_view module, std::string_view name) {
    return "it names the Python object " + printable(module) + "." + printable(name) +
           ", which a checkpoint never needs";
}

// Instructions that push a text value, which STACK_GLOBAL may then take as a name.
bool pushesText(unsigned char op) { return op == 'S' || op == 'V' || op == 'U' || op == 'X' || op == 'T' || op == 0x8c || op == 0x8d; }
// Instructions that leave the stack as it is.
bool keepsStack(unsigned char op) {
    return op == 0x94 || op == 0x80 || op == 0x95 || op == 'p' || op == 'q' || op == 'r';
}

}  // namespace

// ---- the check ---------------------------------------------------------------

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
                return "it holds a pickle instruction that is not part of any pickle protocol (" + hex(in.op) +
                       " at byte " + std::to_string(in.offset) + ")";
            case Decoder::Status::Ok: break;
        }
        const unsigned char op = in.op;
        if (op == '.') return "";  // STOP
        if (op == 0x80 && in.number > 5)
            return "it uses pickle protocol " + std::to_string(in.number) + ", which is unknown";
        if (op == 'c' || op == 'i') {  // GLOBAL, INST
            if (!allowedGlobal(in.text, in.text2)) return named(in.text, in.text2);
        } else if (op == 0x93) {  // STACK_GLOBAL: module and name were pushed just before
            if (!last[0] || !last[1])
                return "it names a Python object through values it computes (instruction STACK_GLOBAL at byte " +
                       std::to_string(in.offset) + ")";
            if (!allowedGlobal(*last[0], *last[1])) return named(*last[0], *last[1]);
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

// ---- the machine -------------------------------------------------------------

const Value* Value::find(const std::string& key) const {
    auto it = keyIndex_.find(key);
    return it == keyIndex_.end() ? nullptr : entries[it->second].second;
}

const char* kindName(Value::Kind kind) {
    switch (kind) {
        case Value::Kind::None: return "None";
        case Value::Kind::Bool: return "a boolean";
        case Value::Kind::Int: return "an integer";
        case Value::Kind::Float: return "a number";
        case Value::Kind::String: return "a string";
        case Value::Kind::Bytes: return "bytes";
        case Value::Kind::Tuple: return "a tuple";
        case Value::Kind::List: return "a list";
        case Value::Kind::Dict: return "a dictionary";
        case Value::Kind::Global: return "a class";
        case Value::Kind::Storage: return "a storage";
        case Value::Kind::Tensor: return "a tensor";
        case Value::Kind::Object: return "an object";
    }
    return "a value";
}

namespace {

// torch.<Name>Storage -> element type.
bool storageType(const std::string& global, torch::ScalarType& type) {
    static const std::map<std::string, torch::ScalarType> types = {
        {"torch.FloatStorage", torch::kFloat32},  {"torch.DoubleStorage", torch::kFloat64},
        {"torch.HalfStorage", torch::kFloat16},   {"torch.BFloat16Storage", torch::kBFloat16},
        {"torch.LongStorage", torch::kInt64},     {"torch.IntStorage", torch::kInt32},
        {"torch.ShortStorage", torch::kInt16},    {"torch.CharStorage", torch::kInt8},
        {"torch.ByteStorage", torch::kUInt8},     {"torch.BoolStorage", torch::kBool},
    };
    auto it = types.find(global);
    if (it == types.end()) return false;
    type = it->second;
    return true;
}

}  // namespace

class Machine {
public:
    Machine(const char* data, std::size_t size, caffe2::serialize::PyTorchStreamReader& archive)
        : decoder_(reinterpret_cast<const unsigned char*>(data), size), archive_(archive) {}

    Unpickled run() {
        using K = Value::Kind;
        while (true) {
            Instruction in;
            switch (decoder_.next(in)) {
                case Decoder::Status::Truncated: fail("the data ends early");
                case Decoder::Status::Unknown: unsupported(in);
                case Decoder::Status::Ok: break;
            }
            switch (in.op) {
                case 0x80: break;  // PROTO
                case 0x95: break;  // FRAME
                case '.':          // STOP
                    result_.root_ = pop();
                    return std::move(result_);
                case '(': marks_.push_back(stack_.size()); break;
                case '}': push(make(K::Dict)); break;
                case ']': push(make(K::List)); break;
                case ')': push(make(K::Tuple)); break;
                case 't': push(sequence(K::Tuple, popMark())); break;
                case 'l': push(sequence(K::List, popMark())); break;
                case 0x85: push(sequence(K::Tuple, below(1))); break;
                case 0x86: push(sequence(K::Tuple, below(2))); break;
                case 0x87: push(sequence(K::Tuple, below(3))); break;
                case 'd': {
                    const std::size_t from = popMark();
                    Value* dict = make(K::Dict);
                    addItems(*dict, from);
                    push(dict);
                    break;
                }
                case 'a': {
                    Value* v = pop();
                    expectKind(top(), K::List, "APPEND").items.push_back(v);
                    break;
                }
                case 'e': {
                    const std::size_t from = popMark();
                    if (from == 0 || (!marks_.empty() && from <= marks_.back())) fail("APPENDS without a list");
                    Value& list = expectKind(stack_[from - 1], K::List, "APPENDS");
                    list.items.insert(list.items.end(), stack_.begin() + long(from), stack_.end());
                    stack_.resize(from);
                    break;
                }
                case 's': {
                    const std::size_t from = below(2);
                    if (from == 0 || (!marks_.empty() && from <= marks_.back())) fail("SETITEM on a short stack");
                    addItems(expectKind(stack_[from - 1], K::Dict, "SETITEM"), from);
                    break;
                }
                case 'u': {
                    const std::size_t from = popMark();
                    if (from == 0 || (!marks_.empty() && from <= marks_.back())) fail("SETITEMS without a dictionary");
                    addItems(expectKind(stack_[from - 1], K::Dict, "SETITEMS"), from);
                    break;
                }
                case 'N': push(make(K::None)); break;
                case 0x88: push(boolean(true)); break;
                case 0x89: push(boolean(false)); break;
                case 'K': push(integer(int64_t(in.number))); break;
                case 'M': push(integer(int64_t(in.number))); break;
                case 'J': push(integer(int64_t(int32_t(uint32_t(in.number))))); break;
                case 0x8a: {  // LONG1: little-endian two's complement of n bytes
                    const std::size_t n = in.text.size();
                    if (n > 8) fail("an integer wider than 64 bits");
                    uint64_t v = 0;
                    for (std::size_t i = n; i-- > 0;) v = (v << 8) | uint8_t(in.text[i]);
                    if (n > 0 && n < 8 && (v >> (8 * n - 1)) & 1) v |= ~uint64_t(0) << (8 * n);
                    push(integer(int64_t(v)));
                    break;
                }
                case 'G': {
                    Value* v = make(K::Float);
                    v->number = in.real;
                    push(v);
                    break;
                }
                case 'X': case 0x8c: case 0x8d: push(unicode(in.text)); break;
                case 'T': case 'U': push(text(K::String, in.text)); break;
                case 'B': case 'C': push(text(K::Bytes, in.text)); break;
                case 'q': case 'r': memo_[in.number] = top(); break;
                case 0x94: memo_[memo_.size()] = top(); break;
                case 'h': case 'j': push(memo(in.number)); break;
                case 'c': {
                    if (!allowedGlobal(in.text, in.text2)) fail(named(in.text, in.text2));
                    Value* g = make(K::Global);
                    g->text = std::string(in.text) + "." + std::string(in.text2);
                    push(g);
                    break;
                }
                case 0x93: {  // STACK_GLOBAL
                    Value* name = pop();
                    Value* module = pop();
                    if (name->kind != K::String || module->kind != K::String) fail("STACK_GLOBAL without names");
                    if (!allowedGlobal(module->text, name->text)) fail(named(module->text, name->text));
                    Value* g = make(K::Global);
                    g->text = module->text + "." + name->text;
                    push(g);
                    break;
                }
                case 'R': {
                    Value* args = pop();
                    Value* callable = pop();
                    push(reduce(*callable, *args));
                    break;
                }
                case 0x81: {  // NEWOBJ: cls.__new__(cls, *args)
                    pop();
                    Value* cls = pop();
                    Value* object = make(K::Object);
                    object->text = cls->kind == K::Global ? cls->text : "?";
                    push(object);
                    break;
                }
                case 'b': pop(); break;  // BUILD: an OrderedDict's __dict__ (state_dict's _metadata) is of no use here
                case 'Q': push(persistent(*pop())); break;
                case '0': pop(); break;
                case '1': stack_.resize(popMark()); break;
                case '2': push(top()); break;
                default: unsupported(in);
            }
        }
    }

private:
    [[noreturn]] static void fail(const std::string& what) { throw Malformed(what); }
    [[noreturn]] static void unsupported(const Instruction& in) {
        const char* name = kOpTable.ops[in.op].name;
        char buf[128];
        std::snprintf(buf, sizeof buf, "unsupported pickle instruction 0x%02x%s%s%s at byte %zu", in.op,
                      name ? " (" : "", name ? name : "", name ? ")" : "", in.offset);
        fail(buf);
    }

    Value* make(Value::Kind kind) {
        result_.arena_.emplace_back();
        Value* v = &result_.arena_.back();
        v->kind = kind;
        return v;
    }
    void push(Value* v) { stack_.push_back(v); }
    // The stack's floor: nothing below the innermost mark may be taken.
    std::size_t floor() const { return marks_.empty() ? 0 : marks_.back(); }
    Value* top() {
        if (stack_.size() <= floor()) fail("an empty stack");
        return stack_.back();
    }
    Value* pop() {
        Value* v = top();
        stack_.pop_back();
        return v;
    }
    // The index of the n-th value from the top, checked against the floor.
    std::size_t below(std::size_t n) {
        if (stack_.size() < floor() + n) fail("a short stack");
        return stack_.size() - n;
    }
    std::size_t popMark() {
        if (marks_.empty()) fail("a missing MARK");
        const std::size_t from = marks_.back();
        marks_.pop_back();
        return from;
    }
    Value* memo(uint64_t key) {
        auto it = memo_.find(key);
        if (it == memo_.end()) fail("a reference to an unknown memo entry");
        return it->second;
    }
    static Value& expectKind(Value* v, Value::Kind kind, const char* op) {
        if (!v || v->kind != kind) fail(std::string(op) + " on " + (v ? kindName(v->kind) : "nothing"));
        return *v;
    }
    Value* sequence(Value::Kind kind, std::size_t from) {
        Value* v = make(kind);
        v->items.assign(stack_.begin() + long(from), stack_.end());
        stack_.resize(from);
        return v;
    }
    // The key/value pairs from `from` to the top into `dict`; a text key given
    // again replaces the earlier value, as in Python.
    void addItems(Value& dict, std::size_t from) {
        if ((stack_.size() - from) % 2 != 0) fail("a dictionary with a key but no value");
        for (std::size_t i = from; i < stack_.size(); i += 2) {
            const Value* key = stack_[i];
            const Value* value = stack_[i + 1];
            if (key->kind == Value::Kind::String) {
                auto [it, added] = dict.keyIndex_.emplace(key->text, dict.entries.size());
                if (!added) {
                    dict.entries[it->second].second = value;
                    continue;
                }
            }
            dict.entries.emplace_back(key, value);
        }
        stack_.resize(from);
    }
    Value* boolean(bool b) {
        Value* v = make(Value::Kind::Bool);
        v->boolean = b;
        return v;
    }
    Value* integer(int64_t i) {
        Value* v = make(Value::Kind::Int);
        v->integer = i;
        return v;
    }
    Value* text(Value::Kind kind, std::string_view bytes) {
        Value* v = make(kind);
        v->text.assign(bytes.data(), bytes.size());
        return v;
    }
    // Python's str: UTF-8, so that names can go into messages as they are.
    Value* unicode(std::string_view bytes) {
        Value* v = text(Value::Kind::String, bytes);
        std::u32string decoded;
        std::size_t offset = 0;
        if (!utf8::decode(v->text, decoded, offset)) fail("a string that is not valid UTF-8");
        return v;
    }

    // ('storage', torch.FloatStorage, key, location, numel)
    Value* persistent(const Value& id) {
        using K = Value::Kind;
        if (id.kind != K::Tuple || id.items.size() < 5 || id.items[0]->kind != K::String ||
            id.items[0]->text != "storage" || id.items[1]->kind != K::Global || id.items[2]->kind != K::String)
            fail("a persistent reference that is not a tensor storage");
        torch::ScalarType type;
        if (!storageType(id.items[1]->text, type)) fail("tensors of type " + id.items[1]->text);
        const std::string& key = id.items[2]->text;
        auto cached = storages_.find(key);
        if (cached != storages_.end()) {
            if (cached->second->tensor.scalar_type() != type) fail("the storage " + key + " read as two types");
            return cached->second;
        }
        const std::string record = "data/" + key;
        if (!archive_.hasRecord(record)) fail("the storage " + key + " is missing from the archive");
        auto [pointer, bytes] = archive_.getRecord(record);
        const std::size_t element = c10::elementSize(type);
        if (bytes % element != 0) fail("the storage " + key + " has a size that is not a whole number of elements");
        Value* storage = make(K::Storage);
        storage->tensor = torch::empty({int64_t(bytes / element)}, torch::TensorOptions().dtype(type));
        if (bytes > 0) std::memcpy(storage->tensor.data_ptr(), pointer.get(), bytes);
        storages_[key] = storage;
        return storage;
    }

    static bool intTuple(const Value* v, std::vector<int64_t>& out) {
        if (v->kind != Value::Kind::Tuple && v->kind != Value::Kind::List) return false;
        out.clear();
        for (const Value* item : v->items) {
            if (item->kind != Value::Kind::Int || item->integer < 0) return false;
            out.push_back(item->integer);
        }
        return true;
    }

    Value* reduce(const Value& callable, const Value& args) {
        using K = Value::Kind;
        if (callable.kind != K::Global) fail("a call of something that is not a class or function");
        const std::string& name = callable.text;
        if (args.kind != K::Tuple) fail("a call of " + name + " without an argument tuple");
        const auto& a = args.items;
        if (name == "collections.OrderedDict") {
            if (!a.empty()) fail("an OrderedDict built from arguments");
            return make(K::Dict);
        }
        if (name == "torch._utils._rebuild_tensor_v2" || name == "torch._utils._rebuild_tensor") {
            std::vector<int64_t> sizes, strides;
            if (a.size() < 4 || a[0]->kind != K::Storage || a[1]->kind != K::Int || !intTuple(a[2], sizes) ||
                !intTuple(a[3], strides) || sizes.size() != strides.size())
                fail("a tensor with invalid shape information");
            const torch::Tensor& storage = a[0]->tensor;
            const int64_t offset = a[1]->integer;
            int64_t last = offset;  // the highest element index the view touches
            bool empty = false;
            for (std::size_t i = 0; i < sizes.size(); ++i) {
                if (sizes[i] == 0)
                    empty = true;
                else if (sizes[i] - 1 > (int64_t(1) << 40) / std::max<int64_t>(strides[i], 1))
                    fail("a tensor too large");
                else
                    last += (sizes[i] - 1) * strides[i];
            }
            if (offset < 0 || offset > (int64_t(1) << 40) || (!empty && last >= storage.numel()))
                fail("a tensor that reaches past the end of its storage");
            Value* tensor = make(K::Tensor);
            // A view: a pickle that rebuilds one storage many times costs no copies.
            tensor->tensor = empty ? torch::empty(sizes, storage.options()) : storage.as_strided(sizes, strides, offset);
            return tensor;
        }
        // LibTorch's own pickler (torch::pickle_save) tags typed containers.
        if (name.rfind("torch.jit._pickle.", 0) == 0) {
            if (a.empty()) fail("a call of " + name + " without arguments");
            return const_cast<Value*>(a[0]);
        }
        if (name == "torch._utils._rebuild_parameter" || name == "torch._utils._rebuild_parameter_with_state") {
            if (a.empty() || a[0]->kind != K::Tensor) fail("a parameter without data");
            return const_cast<Value*>(a[0]);
        }
        Value* object = make(K::Object);
        object->text = name;
        object->items = a;
        return object;
    }

    Decoder decoder_;
    caffe2::serialize::PyTorchStreamReader& archive_;
    Unpickled result_;
    std::vector<Value*> stack_;
    std::vector<std::size_t> marks_;
    std::map<uint64_t, Value*> memo_;
    std::map<std::string, Value*> storages_;
};

Unpickled unpickle(const char* data, std::size_t size, caffe2::serialize::PyTorchStreamReader& archive) {
    return Machine(data, size, archive).run();
}

}  // namespace chargpt::pickle
