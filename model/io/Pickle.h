// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <torch/torch.h>

#include <cstddef>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace chargpt::pickle {

// The pickles of torch.save archives: Python's torch.save (protocols 2 to 5)
// and LibTorch's torch::pickle_save, as written by chargpt checkpoints and by
// `torch.save(model.state_dict(), path)`. One table of the pickle instructions
// (model/io/PickleOps.h) serves both passes over a pickle:
//
//  - foreignCode() (PickleCheck.cpp) walks the instructions without executing
//    any and refuses a pickle that names Python code: only the globals a file
//    of tensors, numbers, strings, lists and dicts needs are allowed;
//  - unpickle() (PickleMachine.cpp) then runs the pickle machine on plain
//    values, rebuilding tensors as views of the archive's storages, each
//    checked to lie inside its storage and to show no more elements than it
//    holds, and finally walks the result once to check its shape.
//
// Nothing recurses on the input's nesting: the machine keeps its own stack,
// the values live in one arena (no recursive destruction; a list that holds
// itself is just a pointer), and the walk keeps its own path. Everything is
// bounded by a Budget decided before the machine starts: the values the
// machine may push, how deep values may nest, and how many steps a walk over
// the result may take when shared values are walked again each time they are
// met (a pickle of 64 tuples each holding the previous one twice is 1 KB and
// 2^64 steps; it is refused after Budget::maxVisits).

// Every bound on what a pickle may make. The defaults are far above what any
// checkpoint or state_dict of a model CharGPT Studio supports needs, and low
// enough that a pickle at the limits takes a few hundred MB and a few seconds.
struct Budget {
    std::size_t maxValues = std::size_t(1) << 21;  // values pushed, made or fetched again (and memo entries)
    std::size_t maxDepth = 100;                    // nesting of containers, and of MARKs
    std::size_t maxVisits = std::size_t(1) << 22;  // steps of the walk over the result, shared values counted each time
    std::size_t maxDims = 32;                      // dimensions of one tensor
};

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
    // Dict: text key -> its entry (O(log n) per key); apart, so that the many
    // values that are not dicts stay small (the budget counts values, not bytes).
    std::unique_ptr<std::map<std::string, std::size_t>> keyIndex_;
    mutable bool onPath_ = false;                  // the walk over the result is inside this container
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

// A pickle over its Budget, or shaped as no model file is (a container that
// holds itself): what() says which, e.g. "its pickle nests values more than
// 100 levels deep, which a checkpoint or state_dict never does".
struct Refused : Malformed {
    using Malformed::Malformed;
};

// Where the machine finds the storages that persistent references name
// (model/io/TorchArchive.h reads them from the archive's data/<key> records).
class StorageSource {
public:
    virtual ~StorageSource() = default;
    // The storage `key` as a one-dimensional tensor of `type`, read once per
    // key; throws Malformed when it is missing or not a whole number of elements.
    virtual torch::Tensor storage(const std::string& key, torch::ScalarType type) = 0;
};

// "" when every global `data` names is allowed and every instruction is one of
// the pickle protocols 0 to 5 with its argument inside the data; otherwise a
// sentence saying what was found, e.g. "it names the Python object os.system,
// which a checkpoint never needs".
std::string foreignCode(const unsigned char* data, std::size_t size);

// Runs the pickle `data`; persistent references ('storage', torch.FloatStorage,
// key, location, numel) are read from `storages`. Throws Refused when the pickle
// goes over `budget` or holds a container inside itself, Malformed for any
// other fault.
Unpickled unpickle(const char* data, std::size_t size, StorageSource& storages, const Budget& budget = {});

}  // namespace chargpt::pickle
