// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <torch/torch.h>

#include <cstddef>
#include <cstdint>
#include <deque>
#include <map>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace caffe2::serialize {
class PyTorchStreamReader;
}

namespace chargpt::pickle {

// The pickles of torch.save archives: Python's torch.save (protocols 2 to 5)
// and LibTorch's torch::pickle_save, as written by chargpt checkpoints and by
// `torch.save(model.state_dict(), path)`. One table of the pickle instructions
// (Pickle.cpp) serves both passes over a pickle:
//
//  - foreignCode() walks the instructions without executing any and refuses a
//    pickle that names Python code: only the globals a file of tensors,
//    numbers, strings, lists and dicts needs are allowed (the allow-list of
//    PyTorch's weights_only unpickler, restricted to what such files use);
//  - unpickle() then runs the pickle machine on plain values, rebuilding
//    tensors as views of the archive's storages, each checked to lie inside
//    its storage.
//
// Neither recurses on the input's nesting: the machine keeps its own stack,
// and the values live in one arena (no recursive destruction; a list that
// holds itself is just a pointer).

// One value of the pickle machine. Containers are shared, as in Python: a dict
// put in the memo and filled afterwards is the same dict when fetched again.
struct Value {
    enum class Kind { None, Bool, Int, Float, String, Bytes, Tuple, List, Dict, Global, Storage, Tensor, Object };
    Kind kind = Kind::None;
    bool boolean = false;
    int64_t integer = 0;
    double number = 0.0;
    std::string text;                                        // String, Bytes; Global and Object: "module.name"
    std::vector<const Value*> items;                         // Tuple, List; Object: its constructor arguments
    std::vector<std::pair<const Value*, const Value*>> entries;  // Dict, in insertion order
    torch::Tensor tensor;                                    // Storage (1-D) or Tensor

    bool is(Kind k) const { return kind == k; }
    // A dict's value under the text key `key`; nullptr when there is none.
    const Value* find(const std::string& key) const;

private:
    friend class Machine;
    std::map<std::string, std::size_t> keyIndex_;  // Dict: text key -> its entry
};

// "a dictionary", "a tensor", ... for messages.
const char* kindName(Value::Kind kind);

// What a pickle holds, and the values it is made of.
class Unpickled {
public:
    const Value& root() const { return *root_; }

private:
    friend class Machine;
    std::deque<Value> arena_;
    const Value* root_ = nullptr;
};

// A pickle that cannot be read: damaged, truncated, or using what these files
// never use. what() says which, e.g. "the data ends early".
struct Malformed : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// "" when every global `data` names is allowed and every instruction is one of
// the pickle protocols 0 to 5 with its argument inside the data; otherwise a
// sentence saying what was found, e.g. "it names the Python object os.system,
// which a checkpoint never needs".
std::string foreignCode(const unsigned char* data, std::size_t size);

// Runs the pickle `data`; persistent references ('storage', torch.FloatStorage,
// key, location, numel) are read from the record "data/<key>" of `archive`.
// Throws Malformed.
Unpickled unpickle(const char* data, std::size_t size, caffe2::serialize::PyTorchStreamReader& archive);

}  // namespace chargpt::pickle
