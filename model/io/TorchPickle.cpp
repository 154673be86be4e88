// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/io/TorchPickle.h"

#include <caffe2/serialize/inline_container.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>

#include "model/runtime/Error.h"
#include "model/text/Utf8.h"

namespace chargpt {

namespace {

// One value of the pickle machine. Containers are shared, as in Python: a dict
// put in the memo and filled afterwards is the same dict when fetched again.
struct PyValue;
using PyRef = std::shared_ptr<PyValue>;

struct PyValue {
    enum class Kind { None, Bool, Int, Float, String, Bytes, Tuple, List, Dict, Global, Storage, Tensor, Object };
    Kind kind = Kind::None;
    bool boolean = false;
    int64_t integer = 0;
    double number = 0.0;
    std::string text;                                // String, Bytes; Global and Object: "module.name"
    std::vector<PyRef> items;                        // Tuple, List; Object: its constructor arguments
    std::vector<std::pair<PyRef, PyRef>> entries;    // Dict, in insertion order
    torch::Tensor tensor;                            // Storage (1-D) or Tensor
};

PyRef make(PyValue::Kind kind) {
    auto v = std::make_shared<PyValue>();
    v->kind = kind;
    return v;
}

const char* kindName(PyValue::Kind kind) {
    switch (kind) {
        case PyValue::Kind::None: return "None";
        case PyValue::Kind::Bool: return "a boolean";
        case PyValue::Kind::Int: return "an integer";
        case PyValue::Kind::Float: return "a number";
        case PyValue::Kind::String: return "a string";
        case PyValue::Kind::Bytes: return "bytes";
        case PyValue::Kind::Tuple: return "a tuple";
        case PyValue::Kind::List: return "a list";
        case PyValue::Kind::Dict: return "a dictionary";
        case PyValue::Kind::Global: return "a class";
        case PyValue::Kind::Storage: return "a storage";
        case PyValue::Kind::Tensor: return "a tensor";
        case PyValue::Kind::Object: return "an object";
    }
    return "a value";
}

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

class Unpickler {
public:
    Unpickler(const char* data, std::size_t size, caffe2::serialize::PyTorchStreamReader& archive,
              std::string prefix, std::string path)
        : data_(data), size_(size), archive_(archive), prefix_(std::move(prefix)), path_(std::move(path)) {}

    PyRef run() {
        while (true) {
            const uint8_t op = byte();
            switch (op) {
                case 0x80: byte(); break;              // PROTO
                case 0x95: bytes(8); break;            // FRAME
                case '.': return pop();                // STOP
                case '(': marks_.push_back(stack_.size()); break;
                case '}': push(make(PyValue::Kind::Dict)); break;
                case ']': push(make(PyValue::Kind::List)); break;
                case ')': push(make(PyValue::Kind::Tuple)); break;
                case 't': push(sequence(PyValue::Kind::Tuple, popMark())); break;
                case 'l': push(sequence(PyValue::Kind::List, popMark())); break;
                case 0x85: push(sequence(PyValue::Kind::Tuple, stack_.size() - 1)); break;
                case 0x86: push(sequence(PyValue::Kind::Tuple, stack_.size() - 2)); break;
                case 0x87: push(sequence(PyValue::Kind::Tuple, stack_.size() - 3)); break;
                case 'd': {
                    const std::size_t from = popMark();
                    auto dict = make(PyValue::Kind::Dict);
                    addItems(*dict, from);
                    push(dict);
                    break;
                }
                case 'a': {
                    PyRef v = pop();
                    expectKind(top(), PyValue::Kind::List, "APPEND").items.push_back(v);
                    break;
                }
                case 'e': {
                    const std::size_t from = popMark();
                    if (from == 0) fail("APPENDS without a list");
                    PyValue& list = expectKind(stack_[from - 1], PyValue::Kind::List, "APPENDS");
                    list.items.insert(list.items.end(), stack_.begin() + long(from), stack_.end());
                    stack_.resize(from);
                    break;
                }
                case 's': {
                    if (stack_.size() < 3) fail("SETITEM on a short stack");
                    addItems(expectKind(stack_[stack_.size() - 3], PyValue::Kind::Dict, "SETITEM"), stack_.size() - 2);
                    break;
                }
                case 'u': {
                    const std::size_t from = popMark();
                    if (from == 0) fail("SETITEMS without a dictionary");
                    addItems(expectKind(stack_[from - 1], PyValue::Kind::Dict, "SETITEMS"), from);
                    break;
                }
                case 'N': push(make(PyValue::Kind::None)); break;
                case 0x88: push(boolean(true)); break;
                case 0x89: push(boolean(false)); break;
                case 'K': push(integer(byte())); break;
                case 'M': push(integer(int64_t(little(2)))); break;
                case 'J': push(integer(int64_t(int32_t(uint32_t(little(4)))))); break;
                case 0x8a: {  // LONG1: little-endian two's complement of n bytes
                    const std::size_t n = byte();
                    if (n > 8) fail("an integer wider than 64 bits");
                    uint64_t v = little(n);
                    if (n > 0 && n < 8 && (v >> (8 * n - 1)) & 1) v |= ~uint64_t(0) << (8 * n);
                    push(integer(int64_t(v)));
                    break;
                }
                case 'G': {  // BINFLOAT: big-endian IEEE double
                    const char* p = bytes(8);
                    uint64_t bits = 0;
                    for (int i = 0; i < 8; ++i) bits = (bits << 8) | uint8_t(p[i]);
                    auto v = make(PyValue::Kind::Float);
                    std::memcpy(&v->number, &bits, 8);
                    push(v);
                    break;
                }
                case 'X': push(unicode(little(4))); break;
                case 0x8c: push(unicode(byte())); break;
                case 0x8d: push(unicode(little(8))); break;
                case 'T': push(string(PyValue::Kind::String, little(4))); break;
                case 'U': push(string(PyValue::Kind::String, byte())); break;
                case 'B': push(string(PyValue::Kind::Bytes, little(4))); break;
                case 'C': push(string(PyValue::Kind::Bytes, byte())); break;
                case 'q': memo_[byte()] = top(); break;
                case 'r': memo_[little(4)] = top(); break;
                case 0x94: memo_[memo_.size()] = top(); break;
                case 'h': push(memo(byte())); break;
                case 'j': push(memo(little(4))); break;
                case 'c': {
                    const std::string module = line(), name = line();
                    auto g = make(PyValue::Kind::Global);
                    g->text = module + "." + name;
                    push(g);
                    break;
                }
                case 0x93: {  // STACK_GLOBAL
                    PyRef name = pop(), module = pop();
                    if (name->kind != PyValue::Kind::String || module->kind != PyValue::Kind::String)
                        fail("STACK_GLOBAL without names");
                    auto g = make(PyValue::Kind::Global);
                    g->text = module->text + "." + name->text;
                    push(g);
                    break;
                }
                case 'R': {
                    PyRef args = pop(), callable = pop();
                    push(reduce(callable, args));
                    break;
                }
                case 0x81: {  // NEWOBJ: cls.__new__(cls, *args)
                    PyRef args = pop(), cls = pop();
                    auto object = make(PyValue::Kind::Object);
                    object->text = cls->kind == PyValue::Kind::Global ? cls->text : "?";
                    push(object);
                    break;
                }
                case 'b': {  // BUILD: an OrderedDict's __dict__ (state_dict's _metadata) is of no use here
                    pop();
                    break;
                }
                case 'Q': push(persistent(pop())); break;
                case '0': pop(); break;
                case '1': stack_.resize(popMark()); break;
                case '2': push(top()); break;
                default: {
                    char buf[96];
                    std::snprintf(buf, sizeof buf, "unsupported pickle instruction 0x%02x at byte %zu", op, pos_ - 1);
                    fail(buf);
                }
            }
        }
    }

private:
    [[noreturn]] void fail(const std::string& what) const {
        throw Error(path_ + " cannot be read as a state_dict saved by torch.save (" + what + ").");
    }
    uint8_t byte() {
        if (pos_ >= size_) fail("the data ends early");
        return uint8_t(data_[pos_++]);
    }
    const char* bytes(std::size_t n) {
        if (n > size_ - pos_) fail("the data ends early");
        const char* p = data_ + pos_;
        pos_ += n;
        return p;
    }
    uint64_t little(std::size_t n) {
        const char* p = bytes(n);
        uint64_t v = 0;
        for (std::size_t i = n; i-- > 0;) v = (v << 8) | uint8_t(p[i]);
        return v;
    }
    std::string line() {
        const std::size_t start = pos_;
        while (pos_ < size_ && data_[pos_] != '\n') ++pos_;
        if (pos_ >= size_) fail("the data ends early");
        return std::string(data_ + start, data_ + pos_++);
    }
    void push(PyRef v) { stack_.push_back(std::move(v)); }
    PyRef& top() {
        if (stack_.empty()) fail("an empty stack");
        return stack_.back();
    }
    PyRef pop() {
        if (stack_.size() <= (marks_.empty() ? 0 : marks_.back())) fail("an empty stack");
        PyRef v = std::move(stack_.back());
        stack_.pop_back();
        return v;
    }
    std::size_t popMark() {
        if (marks_.empty()) fail("a missing MARK");
        const std::size_t from = marks_.back();
        marks_.pop_back();
        return from;
    }
    PyRef memo(uint64_t key) {
        auto it = memo_.find(key);
        if (it == memo_.end()) fail("a reference to an unknown memo entry");
        return it->second;
    }
    PyValue& expectKind(const PyRef& v, PyValue::Kind kind, const char* op) {
        if (!v || v->kind != kind) fail(std::string(op) + " on " + (v ? kindName(v->kind) : "nothing"));
        return *v;
    }
    PyRef sequence(PyValue::Kind kind, std::size_t from) {
        if (from > stack_.size() || (!marks_.empty() && from < marks_.back())) fail("a short stack");
        auto v = make(kind);
        v->items.assign(stack_.begin() + long(from), stack_.end());
        stack_.resize(from);
        return v;
    }
    void addItems(PyValue& dict, std::size_t from) {
        if ((stack_.size() - from) % 2 != 0) fail("a dictionary with a key but no value");
        for (std::size_t i = from; i < stack_.size(); i += 2) {
            bool replaced = false;
            if (stack_[i]->kind == PyValue::Kind::String)
                for (auto& entry : dict.entries)
                    if (entry.first->kind == PyValue::Kind::String && entry.first->text == stack_[i]->text) {
                        entry.second = stack_[i + 1];
                        replaced = true;
                    }
            if (!replaced) dict.entries.emplace_back(stack_[i], stack_[i + 1]);
        }
        stack_.resize(from);
    }
    static PyRef boolean(bool b) {
        auto v = make(PyValue::Kind::Bool);
        v->boolean = b;
        return v;
    }
    static PyRef integer(int64_t i) {
        auto v = make(PyValue::Kind::Int);
        v->integer = i;
        return v;
    }
    PyRef string(PyValue::Kind kind, uint64_t n) {
        auto v = make(kind);
        v->text.assign(bytes(std::size_t(n)), std::size_t(n));
        return v;
    }

    // Python's str: UTF-8, so that names can go into messages as they are.
    PyRef unicode(uint64_t n) {
        PyRef v = string(PyValue::Kind::String, n);
        std::u32string decoded;
        std::size_t offset = 0;
        if (!utf8::decode(v->text, decoded, offset)) fail("a string that is not valid UTF-8");
        return v;
    }

    // ('storage', torch.FloatStorage, key, location, numel)
    PyRef persistent(const PyRef& id) {
        if (id->kind != PyValue::Kind::Tuple || id->items.size() < 5 || id->items[0]->kind != PyValue::Kind::String ||
            id->items[0]->text != "storage" || id->items[1]->kind != PyValue::Kind::Global ||
            id->items[2]->kind != PyValue::Kind::String)
            fail("a persistent reference that is not a tensor storage");
        torch::ScalarType type;
        if (!storageType(id->items[1]->text, type)) fail("tensors of type " + id->items[1]->text);
        const std::string& key = id->items[2]->text;
        auto cached = storages_.find(key);
        if (cached != storages_.end()) return cached->second;
        const std::string record = prefix_ + "data/" + key;
        if (!archive_.hasRecord(record)) fail("the storage " + key + " is missing from the archive");
        auto [pointer, bytes] = archive_.getRecord(record);
        const std::size_t element = c10::elementSize(type);
        if (bytes % element != 0) fail("the storage " + key + " has a size that is not a whole number of elements");
        auto storage = make(PyValue::Kind::Storage);
        storage->tensor = torch::empty({int64_t(bytes / element)}, torch::TensorOptions().dtype(type));
        if (bytes > 0) std::memcpy(storage->tensor.data_ptr(), pointer.get(), bytes);
        storages_[key] = storage;
        return storage;
    }

    static bool intTuple(const PyRef& v, std::vector<int64_t>& out) {
        if (v->kind != PyValue::Kind::Tuple && v->kind != PyValue::Kind::List) return false;
        out.clear();
        for (const auto& item : v->items) {
            if (item->kind != PyValue::Kind::Int || item->integer < 0) return false;
            out.push_back(item->integer);
        }
        return true;
    }

    PyRef reduce(const PyRef& callable, const PyRef& args) {
        if (callable->kind != PyValue::Kind::Global) fail("a call of something that is not a class or function");
        const std::string& name = callable->text;
        if (args->kind != PyValue::Kind::Tuple) fail("a call of " + name + " without an argument tuple");
        const auto& a = args->items;
        if (name == "collections.OrderedDict") {
            if (!a.empty()) fail("an OrderedDict built from arguments");
            return make(PyValue::Kind::Dict);
        }
        if (name == "torch._utils._rebuild_tensor_v2" || name == "torch._utils._rebuild_tensor") {
            std::vector<int64_t> sizes, strides;
            if (a.size() < 4 || a[0]->kind != PyValue::Kind::Storage || a[1]->kind != PyValue::Kind::Int ||
                !intTuple(a[2], sizes) || !intTuple(a[3], strides) || sizes.size() != strides.size())
                fail("a tensor with invalid shape information");
            const torch::Tensor& storage = a[0]->tensor;
            int64_t last = a[1]->integer;  // highest element index the view touches
            bool empty = false;
            for (std::size_t i = 0; i < sizes.size(); ++i) {
                if (sizes[i] == 0) empty = true;
                else if (sizes[i] - 1 > (int64_t(1) << 40) / std::max<int64_t>(strides[i], 1)) fail("a tensor too large");
                else last += (sizes[i] - 1) * strides[i];
            }
            if (a[1]->integer < 0 || (!empty && last >= storage.numel()))
                fail("a tensor that reaches past the end of its storage");
            auto tensor = make(PyValue::Kind::Tensor);
            tensor->tensor = empty ? torch::empty(sizes, storage.options())
                                   : storage.as_strided(sizes, strides, a[1]->integer).clone();
            return tensor;
        }
        // LibTorch's own pickler (torch::pickle_save) tags typed containers.
        if (name == "torch.jit._pickle.restore_type_tag" || name == "torch.jit._pickle.build_intlist" ||
            name == "torch.jit._pickle.build_doublelist" || name == "torch.jit._pickle.build_boollist" ||
            name == "torch.jit._pickle.build_tensorlist" || name == "torch.jit._pickle.build_genericlist") {
            if (a.empty()) fail("a call of " + name + " without arguments");
            return a[0];
        }
        if (name == "torch._utils._rebuild_parameter" || name == "torch._utils._rebuild_parameter_with_state") {
            if (a.empty() || a[0]->kind != PyValue::Kind::Tensor) fail("a parameter without data");
            return a[0];
        }
        auto object = make(PyValue::Kind::Object);
        object->text = name;
        object->items = a;
        return object;
    }

    const char* data_;
    std::size_t size_;
    std::size_t pos_ = 0;
    caffe2::serialize::PyTorchStreamReader& archive_;
    std::string prefix_;
    std::string path_;
    std::vector<PyRef> stack_;
    std::vector<std::size_t> marks_;
    std::map<uint64_t, PyRef> memo_;
    std::map<std::string, PyRef> storages_;
};

// A dict whose every value is a tensor, keyed by text.
bool tensorDict(const PyValue& v, std::vector<std::pair<std::string, torch::Tensor>>& out) {
    if (v.kind != PyValue::Kind::Dict || v.entries.empty()) return false;
    out.clear();
    for (const auto& [key, value] : v.entries) {
        if (key->kind != PyValue::Kind::String || value->kind != PyValue::Kind::Tensor) return false;
        out.emplace_back(key->text, value->tensor);
    }
    return true;
}

}  // namespace

PickledStateDict readTorchStateDict(const std::string& path) {
    std::error_code ec;
    if (!std::filesystem::exists(path, ec)) throw Error("no such file: " + path + ".");
    if (!std::filesystem::is_regular_file(path, ec)) throw Error(path + " is not a regular file.");
    {
        std::ifstream in(path, std::ios::binary);
        char magic[2] = {0, 0};
        in.read(magic, 2);
        if (!in) throw Error(path + " is empty or cannot be read.");
        if (magic[0] != 'P' || magic[1] != 'K') {
            if (uint8_t(magic[0]) == 0x80)
                throw Error(path + " was saved in PyTorch's legacy format, which CharGPT Studio does not read; "
                                   "save it again with a current torch.save (the default zip format).");
            throw Error(path + " is not a file written by torch.save (not a zip archive).");
        }
    }

    std::unique_ptr<caffe2::serialize::PyTorchStreamReader> archive;
    std::string prefix;
    try {
        archive = std::make_unique<caffe2::serialize::PyTorchStreamReader>(path);
        if (!archive->hasRecord("data.pkl")) throw Error(path + " is a zip archive without the data.pkl of torch.save.");
    } catch (const c10::Error& e) {
        const std::string what = e.what_without_backtrace();
        throw Error(path + " is damaged or not a torch.save archive (" + what.substr(0, what.find('\n')) + ").");
    }
    PyRef root;
    try {
        auto [pointer, size] = archive->getRecord("data.pkl");
        Unpickler unpickler(static_cast<const char*>(pointer.get()), size, *archive, prefix, path);
        root = unpickler.run();
    } catch (const c10::Error& e) {
        const std::string what = e.what_without_backtrace();
        throw Error(path + " is damaged and cannot be read (" + what.substr(0, what.find('\n')) + ").");
    }

    PickledStateDict result;
    if (tensorDict(*root, result.tensors)) return result;
    if (root->kind == PyValue::Kind::Dict) {
        for (const auto& [key, value] : root->entries)
            if (key->kind == PyValue::Kind::String && key->text == "format" && value->kind == PyValue::Kind::String &&
                value->text == "chargpt-checkpoint")
                throw Error(path + " is a CharGPT Studio checkpoint already: open it as a checkpoint, no import needed.");
        // A training checkpoint of the common shape {"model": state_dict, "optimizer": ..., "epoch": ...}.
        static const char* const preferred[] = {"model", "state_dict", "model_state_dict", "model_state", "net"};
        for (const char* wanted : preferred)
            for (const auto& [key, value] : root->entries)
                if (key->kind == PyValue::Kind::String && key->text == wanted && tensorDict(*value, result.tensors)) {
                    result.foundUnder = wanted;
                    return result;
                }
        std::vector<std::string> holders;
        for (const auto& [key, value] : root->entries) {
            std::vector<std::pair<std::string, torch::Tensor>> tensors;
            if (key->kind == PyValue::Kind::String && tensorDict(*value, tensors)) {
                holders.push_back(key->text);
                result.tensors = std::move(tensors);
                result.foundUnder = key->text;
            }
        }
        if (holders.size() == 1) return result;
        if (holders.size() > 1)
            throw Error(path + " holds several dictionaries of tensors (" + holders[0] + ", " + holders[1] +
                        ", ...); save the model's state_dict on its own.");
        throw Error(path + " holds a dictionary but no model weights: its values are not tensors.");
    }
    if (root->kind == PyValue::Kind::Object)
        throw Error(path + " holds a whole pickled " + root->text +
                    " object, not a state_dict: in Python, save it with torch.save(model.state_dict(), path).");
    throw Error(path + " holds " + kindName(root->kind) + ", not a state_dict of model weights.");
}

}  // namespace chargpt
