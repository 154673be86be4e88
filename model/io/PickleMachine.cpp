// SPDX-License-Identifier: GPL-3.0-or-later
// The second pass over a pickle: the pickle machine, run on plain values within
// a Budget, and the walk that checks the shape of what it made.
#include <algorithm>
#include <cstdio>
#include <string_view>

#include "model/io/Pickle.h"
#include "model/io/PickleOps.h"
#include "model/text/Utf8.h"

namespace chargpt::pickle {

using ops::Decoder;
using ops::Instruction;

const Value* Value::find(const std::string& key) const {
    if (!keyIndex_) return nullptr;
    auto it = keyIndex_->find(key);
    return it == keyIndex_->end() ? nullptr : entries[it->second].second;
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

bool isContainer(const Value& v) {
    return v.kind == Value::Kind::Tuple || v.kind == Value::Kind::List || v.kind == Value::Kind::Dict ||
           v.kind == Value::Kind::Object;
}

// Whether `bytes` is valid UTF-8, decoded a slice at a time so that a long
// text costs no more than a small buffer.
bool validUtf8(std::string_view bytes) {
    constexpr std::size_t kSlice = 1 << 16;
    std::u32string buffer;
    std::size_t offset = 0;
    while (!bytes.empty()) {
        std::size_t end = std::min(bytes.size(), kSlice);
        // End the slice before a character that would be cut (at most 3 bytes back).
        if (end < bytes.size())
            for (std::size_t back = 0; back < 3 && end > 1 && (uint8_t(bytes[end]) & 0xC0) == 0x80; ++back) --end;
        buffer.clear();
        if (!utf8::decode(bytes.substr(0, end), buffer, offset)) return false;
        bytes.remove_prefix(end);
    }
    return true;
}

}  // namespace

class Machine {
public:
    Machine(const char* data, std::size_t size, StorageSource& storages, const Budget& budget)
        : decoder_(reinterpret_cast<const unsigned char*>(data), size), storages_(storages), budget_(budget) {}

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
                    walk(*result_.root_);
                    return std::move(result_);
                case '(':
                    if (marks_.size() >= budget_.maxDepth) refuseDepth();
                    marks_.push_back(stack_.size());
                    break;
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
                case 'q': case 'r': remember(in.number, top()); break;
                case 0x94: remember(memoCount_, top()); break;
                case 'h': case 'j': push(memo(in.number)); break;
                case 'c': {
                    if (!ops::allowedGlobal(in.text, in.text2)) fail(ops::namedObject(in.text, in.text2));
                    Value* g = make(K::Global);
                    g->text = std::string(in.text) + "." + std::string(in.text2);
                    push(g);
                    break;
                }
                case 0x93: {  // STACK_GLOBAL
                    Value* name = pop();
                    Value* module = pop();
                    if (name->kind != K::String || module->kind != K::String) fail("STACK_GLOBAL without names");
                    if (!ops::allowedGlobal(module->text, name->text)) fail(ops::namedObject(module->text, name->text));
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
        const char* name = ops::opInfo(in.op).name;
        char buf[128];
        std::snprintf(buf, sizeof buf, "unsupported pickle instruction 0x%02x%s%s%s at byte %zu", in.op,
                      name ? " (" : "", name ? name : "", name ? ")" : "", in.offset);
        fail(buf);
    }
    [[noreturn]] void refuseDepth() const {
        throw Refused("its pickle nests values more than " + std::to_string(budget_.maxDepth) +
                      " levels deep, which a checkpoint or state_dict never does");
    }
    [[noreturn]] void refuseValues() const {
        throw Refused("its pickle makes more than " + std::to_string(budget_.maxValues) +
                      " values, far more than a checkpoint or state_dict needs");
    }

    Value* make(Value::Kind kind) {
        result_.arena_.emplace_back();
        Value* v = &result_.arena_.back();
        v->kind = kind;
        return v;
    }
    // Every push counts against the budget, whether the value is new or fetched
    // again (from the memo, or DUP): the stack, the containers' items and the
    // arena each grow at most by one per push.
    void push(Value* v) {
        if (++pushes_ > budget_.maxValues) refuseValues();
        stack_.push_back(v);
    }
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
    // The memo as Python numbers it, 0, 1, 2, ...: an index past the value
    // budget cannot be one a model file uses, and is refused before the memo grows.
    void remember(uint64_t key, Value* v) {
        if (key >= budget_.maxValues) refuseValues();
        if (key >= memo_.size())
            memo_.resize(std::min(budget_.maxValues, std::max<std::size_t>(std::size_t(key) + 1, memo_.size() * 2)), nullptr);
        if (!memo_[key]) ++memoCount_;
        memo_[key] = v;
    }
    Value* memo(uint64_t key) {
        if (key >= memo_.size() || !memo_[key]) fail("a reference to an unknown memo entry");
        return memo_[key];
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
    // again replaces the earlier value, as in Python. Each key costs O(log n).
    void addItems(Value& dict, std::size_t from) {
        if ((stack_.size() - from) % 2 != 0) fail("a dictionary with a key but no value");
        for (std::size_t i = from; i < stack_.size(); i += 2) {
            const Value* key = stack_[i];
            const Value* value = stack_[i + 1];
            if (key->kind == Value::Kind::String) {
                if (!dict.keyIndex_) dict.keyIndex_ = std::make_unique<std::map<std::string, std::size_t>>();
                auto [it, added] = dict.keyIndex_->emplace(key->text, dict.entries.size());
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
        if (!validUtf8(bytes)) fail("a string that is not valid UTF-8");
        return text(Value::Kind::String, bytes);
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
        auto cached = storageValues_.find(key);
        if (cached != storageValues_.end()) {
            if (cached->second->tensor.scalar_type() != type) fail("the storage " + key + " read as two types");
            return cached->second;
        }
        Value* storage = make(K::Storage);
        storage->tensor = storages_.storage(key, type);
        storageValues_[key] = storage;
        return storage;
    }

    bool intTuple(const Value* v, std::vector<int64_t>& out) const {
        if (v->kind != Value::Kind::Tuple && v->kind != Value::Kind::List) return false;
        if (v->items.size() > budget_.maxDims) return false;
        out.clear();
        for (const Value* item : v->items) {
            if (item->kind != Value::Kind::Int || item->integer < 0) return false;
            out.push_back(item->integer);
        }
        return true;
    }

    // A view of `storage` from size/stride/offset, checked before it is made:
    // every element it reaches lies inside the storage, and it shows no more
    // elements than the storage holds (a stride-0 or overlapping view would
    // turn a few bytes of file into gigabytes once a reader copies it).
    Value* rebuildTensor(const std::vector<const Value*>& a) {
        using K = Value::Kind;
        std::vector<int64_t> sizes, strides;
        if (a.size() < 4 || a[0]->kind != K::Storage || a[1]->kind != K::Int || !intTuple(a[2], sizes) ||
            !intTuple(a[3], strides) || sizes.size() != strides.size())
            fail("a tensor with invalid shape information");
        const torch::Tensor& storage = a[0]->tensor;
        const int64_t offset = a[1]->integer;
        int64_t last = offset;  // the highest element index the view touches
        bool empty = false;
        for (std::size_t i = 0; i < sizes.size(); ++i) {
            if (sizes[i] < 0 || strides[i] < 0) fail("a tensor with a negative size or stride");
            if (sizes[i] == 0)
                empty = true;
            else if (sizes[i] - 1 > (int64_t(1) << 40) / std::max<int64_t>(strides[i], 1) ||
                     __builtin_add_overflow(last, (sizes[i] - 1) * strides[i], &last))
                fail("a tensor too large");
        }
        if (offset < 0 || offset > (int64_t(1) << 40) || (!empty && last >= storage.numel()))
            fail("a tensor that reaches past the end of its storage");
        if (!empty) {
            // Every size is at least 1 here, so the product only grows: stop once it passes the storage.
            int64_t elements = 1;
            for (int64_t s : sizes) {
                // Checked: a size up to 2^40 times a product up to the storage's
                // elements can pass int64's range (2^23 bytes of storage shown
                // 2^40 + 1 times); no file torch.save writes holds such a tensor.
                if (__builtin_mul_overflow(elements, s, &elements)) fail("a tensor too large");
                if (elements > storage.numel()) {
                    std::string shape;
                    for (std::size_t i = 0; i < sizes.size(); ++i) shape += (i ? ", " : "") + std::to_string(sizes[i]);
                    const int64_t held = storage.numel();
                    throw Refused("it holds a tensor of shape (" + shape + ") drawn from a storage of " +
                                  std::to_string(held) + (held == 1 ? " element" : " elements") +
                                  " (a stride-0 or overlapping view, which a model's file never holds)");
                }
            }
        }
        Value* tensor = make(K::Tensor);
        // A view: a pickle that rebuilds one storage many times costs no copies.
        tensor->tensor = empty ? torch::empty(sizes, storage.options()) : storage.as_strided(sizes, strides, offset);
        return tensor;
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
        if (name == "torch._utils._rebuild_tensor_v2" || name == "torch._utils._rebuild_tensor") return rebuildTensor(a);
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

    // The result walked once as a tree, iteratively, before anyone reads it: a
    // container met again on its own path holds itself; a path deeper than the
    // budget, or more steps than the budget (shared containers are walked again
    // each time they are met, as any reader of the tree would), refuse the file.
    // Without sharing, the steps are at most the pushes, so only shared values
    // can exhaust maxVisits (maxVisits > maxValues).
    void walk(const Value& root) const {
        struct Frame {
            const Value* value;
            std::size_t next;
        };
        std::vector<Frame> path;
        std::size_t visits = 0;
        auto enter = [&](const Value& v) {
            if (++visits > budget_.maxVisits)
                throw Refused("its pickle shares its values too deeply to be a checkpoint or state_dict (reading "
                              "them would take more than " + std::to_string(budget_.maxVisits) + " steps)");
            if (!isContainer(v)) return;
            if (v.onPath_)
                throw Refused(std::string("its pickle holds ") + kindName(v.kind) +
                              " that contains itself, which a checkpoint or state_dict never does");
            if (path.size() >= budget_.maxDepth) refuseDepth();
            v.onPath_ = true;
            path.push_back({&v, 0});
        };
        enter(root);
        while (!path.empty()) {
            Frame& frame = path.back();
            const Value& v = *frame.value;
            const bool dict = v.kind == Value::Kind::Dict;
            const std::size_t count = dict ? 2 * v.entries.size() : v.items.size();
            if (frame.next == count) {
                v.onPath_ = false;
                path.pop_back();
                continue;
            }
            const std::size_t i = frame.next++;
            const Value* child = dict ? (i % 2 == 0 ? v.entries[i / 2].first : v.entries[i / 2].second) : v.items[i];
            enter(*child);  // may grow `path`: `frame` is not used after this
        }
    }

    Decoder decoder_;
    StorageSource& storages_;
    const Budget budget_;
    Unpickled result_;
    std::vector<Value*> stack_;
    std::vector<std::size_t> marks_;
    std::vector<Value*> memo_;
    std::size_t memoCount_ = 0;
    std::size_t pushes_ = 0;
    std::map<std::string, Value*> storageValues_;
};

Unpickled unpickle(const char* data, std::size_t size, StorageSource& storages, const Budget& budget) {
    return Machine(data, size, storages, budget).run();
}

}  // namespace chargpt::pickle
