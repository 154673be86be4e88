// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/io/Checkpoint.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <caffe2/serialize/inline_container.h>
#include <caffe2/serialize/read_adapter_interface.h>
#include <torch/csrc/jit/serialization/import_read.h>
#include <torch/csrc/jit/serialization/storage_context.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <set>

#include "model/runtime/Device.h"
#include "model/runtime/Error.h"
#include "model/io/PickleGuard.h"

#include <caffe2/serialize/inline_container.h>

namespace chargpt {

namespace {

using Dict = c10::impl::GenericDict;  // str -> any, as Python sees it

Dict makeDict() { return Dict(c10::StringType::get(), c10::AnyType::get()); }

// "blocks.<i>.<rest>" -> i and rest; false for other names.
bool splitBlockName(const std::string& name, int64_t& layer, std::string& rest) {
    static const std::string prefix = "blocks.";
    if (name.rfind(prefix, 0) != 0) return false;
    const std::size_t dot = name.find('.', prefix.size());
    if (dot == std::string::npos || dot == prefix.size()) return false;
    const std::string digits = name.substr(prefix.size(), dot - prefix.size());
    if (digits.find_first_not_of("0123456789") != std::string::npos || digits.size() > 6) return false;
    layer = std::stoll(digits);
    rest = name.substr(dot + 1);
    return true;
}

const char* const kProjections[3] = {"query", "key", "value"};  // order of the fused rows

std::string headName(int64_t layer, int64_t head, const char* projection) {
    return "blocks." + std::to_string(layer) + ".mha.heads." + std::to_string(head) + "." + projection +
           ".weight";
}

std::string describeShape(const torch::Tensor& t) {
    std::string s = "(";
    for (int64_t i = 0; i < t.dim(); ++i) s += (i ? ", " : "") + std::to_string(t.size(i));
    return s + ")";
}

// --- reading values out of an unpickled dict, each with a message on failure ---

c10::IValue field(const Dict& dict, const std::string& key, const std::string& where) {
    auto it = dict.find(key);
    if (it == dict.end()) throw Error("the checkpoint has no " + where + key + ".");
    return it->value();
}

int64_t intField(const Dict& dict, const std::string& key, const std::string& where = "") {
    c10::IValue v = field(dict, key, where);
    if (!v.isInt()) throw Error("the checkpoint's " + where + key + " is not an integer.");
    return v.toInt();
}

double numberField(const Dict& dict, const std::string& key, const std::string& where = "") {
    c10::IValue v = field(dict, key, where);
    if (v.isDouble()) return v.toDouble();
    if (v.isInt()) return static_cast<double>(v.toInt());
    throw Error("the checkpoint's " + where + key + " is not a number.");
}

Dict dictField(const Dict& dict, const std::string& key, const std::string& where = "") {
    c10::IValue v = field(dict, key, where);
    if (!v.isGenericDict()) throw Error("the checkpoint's " + where + key + " is not a dictionary.");
    Dict out = v.toGenericDict();
    for (const auto& entry : out)
        if (!entry.key().isString()) throw Error("the checkpoint's " + where + key + " has a key that is not text.");
    return out;
}

std::map<std::string, torch::Tensor> tensorMap(const Dict& dict, const std::string& what) {
    std::map<std::string, torch::Tensor> out;
    for (const auto& entry : dict) {
        const std::string& name = entry.key().toStringRef();
        if (!entry.value().isTensor()) throw Error("the checkpoint's " + what + " entry " + name + " is not a tensor.");
        out[name] = entry.value().toTensor();
    }
    return out;
}

template <typename T>
torch::Tensor vectorTensor(const std::vector<T>& v, torch::ScalarType type) {
    return torch::from_blob(const_cast<T*>(v.data()), {static_cast<int64_t>(v.size())}, type).clone();
}

template <typename T>
std::vector<T> tensorVector(const Dict& dict, const std::string& key, torch::ScalarType type) {
    c10::IValue v = field(dict, key, "history.");
    if (!v.isTensor()) throw Error("the checkpoint's history." + key + " is not a tensor.");
    torch::Tensor t = v.toTensor();
    if (t.dim() != 1) throw Error("the checkpoint's history." + key + " is not a list of numbers.");
    t = t.to(torch::kCPU, type).contiguous();
    return std::vector<T>(t.data_ptr<T>(), t.data_ptr<T>() + t.numel());
}

Dict configToDict(const RunConfig& c) {
    Dict d = makeDict();
    d.insert("vocab_size", c.vocab_size);
    d.insert("emb_size", c.emb_size);
    d.insert("head_size", c.head_size);
    d.insert("n_layer", c.n_layer);
    d.insert("sequence_len", c.sequence_len);
    d.insert("dropout", c.dropout);
    d.insert("batch_size", c.batch_size);
    d.insert("learning_rate", c.learning_rate);
    d.insert("min_learning_rate", c.min_learning_rate);
    d.insert("weight_decay", c.weight_decay);
    d.insert("beta1", c.beta1);
    d.insert("beta2", c.beta2);
    d.insert("grad_clip", c.grad_clip);
    d.insert("warmup_steps", c.warmup_steps);
    d.insert("max_steps", c.max_steps);
    d.insert("time_limit_s", c.time_limit_s);
    d.insert("eval_interval", c.eval_interval);
    d.insert("eval_iters", c.eval_iters);
    d.insert("val_fraction", c.val_fraction);
    d.insert("seed", static_cast<int64_t>(c.seed));
    d.insert("bf16", c.bf16);
    return d;
}

RunConfig configFromDict(const Dict& d) {
    const std::string w = "config.";
    RunConfig c;
    c.vocab_size = intField(d, "vocab_size", w);
    c.emb_size = intField(d, "emb_size", w);
    c.head_size = intField(d, "head_size", w);
    c.n_layer = intField(d, "n_layer", w);
    c.sequence_len = intField(d, "sequence_len", w);
    c.dropout = numberField(d, "dropout", w);
    c.batch_size = intField(d, "batch_size", w);
    c.learning_rate = numberField(d, "learning_rate", w);
    c.min_learning_rate = numberField(d, "min_learning_rate", w);
    c.weight_decay = numberField(d, "weight_decay", w);
    c.beta1 = numberField(d, "beta1", w);
    c.beta2 = numberField(d, "beta2", w);
    c.grad_clip = numberField(d, "grad_clip", w);
    c.warmup_steps = intField(d, "warmup_steps", w);
    c.max_steps = intField(d, "max_steps", w);
    c.time_limit_s = numberField(d, "time_limit_s", w);
    c.eval_interval = intField(d, "eval_interval", w);
    c.eval_iters = intField(d, "eval_iters", w);
    c.val_fraction = numberField(d, "val_fraction", w);
    c.seed = static_cast<uint64_t>(intField(d, "seed", w));
    if (auto bf16 = d.find("bf16"); bf16 != d.end()) {
        if (!bf16->value().isBool()) throw Error("the checkpoint's config.bf16 is not true or false.");
        c.bf16 = bf16->value().toBool();
    }
    if (const ConfigProblem problem = c.validate())
        throw Error("the checkpoint's settings are invalid: " + problem.message());
    if (c.vocab_size < 2) throw Error("the checkpoint's settings have no vocabulary size.");
    // Refuse sizes that would exhaust memory before allocating anything.
    if (c.emb_size > 16384 || c.n_layer > 1024 || c.sequence_len > 65536 || c.parameterCount() > (int64_t(1) << 31))
        throw Error("the checkpoint describes a model far larger than CharGPT Studio supports.");
    return c;
}

std::map<std::string, torch::Tensor> namedParameters(CharGPT& model) {
    std::map<std::string, torch::Tensor> out;
    for (const auto& item : model->named_parameters()) out[item.key()] = item.value();
    return out;
}

// Checks names, shapes, dtype and finiteness of `given` against the model's own
// parameters; returns them as float32 tensors.
std::map<std::string, torch::Tensor> checkAgainst(const std::map<std::string, torch::Tensor>& expected,
                                                  std::map<std::string, torch::Tensor> given,
                                                  const std::string& what) {
    for (const auto& [name, tensor] : given)
        if (!expected.count(name)) throw Error("the checkpoint's " + what + " has an unexpected entry " + name + ".");
    for (const auto& [name, ref] : expected) {
        auto it = given.find(name);
        if (it == given.end()) throw Error("the checkpoint's " + what + " lacks " + name + ".");
        torch::Tensor& t = it->second;
        if (!t.is_floating_point()) throw Error("the checkpoint's " + what + " " + name + " is not floating point.");
        if (t.sizes() != ref.sizes())
            throw Error("the checkpoint's " + what + " " + name + " has shape " + describeShape(t) +
                        " but the settings need " + describeShape(ref) + ".");
        t = t.to(torch::kCPU, torch::kFloat32);
        if (!torch::isfinite(t).all().item<bool>())
            throw Error("the checkpoint's " + what + " " + name + " holds non-finite values (NaN or infinity).");
    }
    return given;
}

// torch::pickle_load reads the archive through an adapter that copies whatever
// range the zip reader asks for: a truncated or damaged file made it read past
// the end of the buffer (found by fuzz/fuzz_checkpoint). This adapter hands out
// only the bytes that exist; the zip reader then reports the short read.
class BoundedReader final : public caffe2::serialize::ReadAdapterInterface {
public:
    explicit BoundedReader(const std::vector<char>& bytes) : bytes_(bytes) {}
    std::size_t size() const override { return bytes_.size(); }
    std::size_t read(uint64_t pos, void* buf, std::size_t n, const char*) const override {
        if (pos >= bytes_.size()) return 0;
        n = std::min<std::size_t>(n, bytes_.size() - static_cast<std::size_t>(pos));
        std::memcpy(buf, bytes_.data() + pos, n);
        return n;
    }

private:
    const std::vector<char>& bytes_;
};

// LibTorch's unpickler trusts the lengths and memo indices in the stream: a
// damaged string length made it allocate 4 GiB before noticing the stream had
// ended (found by fuzz/fuzz_checkpoint). This walks the opcodes first and refuses
// a length or memo index larger than the stream itself, and any opcode that the
// pickles of torch.save and torch::pickle_save (protocol 2) do not use.
void checkPickleLengths(const unsigned char* p, std::size_t size) {
    std::size_t i = 0;
    auto need = [&](std::size_t n) {
        if (n > size - i) throw Error("its data ends in the middle of a value");
    };
    auto little = [&](int bytes) {
        need(static_cast<std::size_t>(bytes));
        uint64_t v = 0;
        for (int k = bytes - 1; k >= 0; --k) v = (v << 8) | p[i + static_cast<std::size_t>(k)];
        i += static_cast<std::size_t>(bytes);
        return v;
    };
    auto skipBytes = [&](uint64_t n) {
        if (n > size - i) throw Error("it declares a value longer than the data");
        i += static_cast<std::size_t>(n);
    };
    auto skipLine = [&] {
        const void* nl = std::memchr(p + i, '\n', size - i);
        if (!nl) throw Error("its data ends in the middle of a value");
        i = static_cast<std::size_t>(static_cast<const unsigned char*>(nl) - p) + 1;
    };
    auto memo = [&](uint64_t id) {
        if (id > size) throw Error("it refers to a value that cannot exist");
    };
    // The value stack as Python's unpickler keeps it: each mark starts a new level,
    // and no instruction may take values from below the innermost mark.
    std::vector<std::size_t> marks;
    std::size_t depth = 0;
    auto take = [&](std::size_t n, std::size_t pushed) {
        if (depth - (marks.empty() ? 0 : marks.back()) < n) throw Error("its instructions use values that do not exist");
        depth = depth - n + pushed;
    };
    auto toMark = [&](std::size_t below, std::size_t pushed) {
        if (marks.empty() || marks.back() < below) throw Error("its instructions use values that do not exist");
        depth = marks.back() + pushed;
        marks.pop_back();
    };
    while (i < size) {
        const char op = static_cast<char>(p[i++]);  // the case labels are char literals
        switch (op) {
        case '.': take(1, 1); return;  // STOP
        case '(': marks.push_back(depth); break;
        case ')': case ']': case '}': case 'N': case '\x88': case '\x89': take(0, 1); break;
        case 'a': take(2, 1); break;                                      // APPEND
        case 's': take(3, 1); break;                                      // SETITEM
        case 'e': case 'u': toMark(1, 0); break;                          // APPENDS, SETITEMS
        case 't': toMark(0, 1); break;                                    // TUPLE
        case '1': toMark(0, 0); break;                                    // POP_MARK
        case '0': take(1, 0); break;                                      // POP
        case '2': take(1, 2); break;                                      // DUP
        case '\x85': case 'Q': case '\x94': take(1, 1); break;            // TUPLE1, BINPERSID, MEMOIZE
        case '\x86': case 'R': case 'b': case '\x81': take(2, 1); break;  // TUPLE2, REDUCE, BUILD, NEWOBJ
        case '\x87': take(3, 1); break;                                   // TUPLE3
        case '\x80': little(1); break;                                    // PROTO
        case 'K': little(1); take(0, 1); break;                           // BININT1
        case 'M': little(2); take(0, 1); break;                           // BININT2
        case 'J': little(4); take(0, 1); break;                           // BININT
        case 'G': little(8); take(0, 1); break;                           // BINFLOAT
        case 'q': memo(little(1)); take(1, 1); break;                     // BINPUT
        case 'r': memo(little(4)); take(1, 1); break;                     // LONG_BINPUT
        case 'h': memo(little(1)); take(0, 1); break;                     // BINGET
        case 'j': memo(little(4)); take(0, 1); break;                     // LONG_BINGET
        case 'U': case 'C': case '\x8c': case '\x8a': skipBytes(little(1)); take(0, 1); break;  // short strings, LONG1
        case 'X': case 'T': case 'B': case '\x8b': skipBytes(little(4)); take(0, 1); break;       // strings, bytes, LONG4
        case 'c': skipLine(); skipLine(); take(0, 1); break;              // GLOBAL module\nname\n
        case 'I': case 'L': case 'F': case 'S': case 'V': case 'P': case 'g': skipLine(); take(0, 1); break;
        case 'p': skipLine(); take(1, 1); break;                          // PUT (text)
        default:
            throw Error("it holds a pickle instruction (" + std::to_string(static_cast<unsigned char>(op)) +
                        ") that checkpoints never use");
        }
    }
    throw Error("its data has no end mark");
}

// The unpickler builds a tensor from the sizes and strides in the pickle over
// whatever storage record it names, without checking that the record is large
// enough: reading such a tensor read past its memory (found by
// fuzz/fuzz_checkpoint). Every tensor in `value` must lie inside its storage.
void checkTensorsInStorage(const c10::IValue& value) {
    if (value.isTensor()) {
        const torch::Tensor& t = value.toTensor();
        // Quantized or sparse tensors are never ours, and LibTorch asserts on some of them.
        if (t.is_quantized() || t.layout() != torch::kStrided || !t.device().is_cpu())
            throw Error("it holds a kind of tensor that checkpoints never use");
        if (!t.has_storage() || t.storage_offset() < 0) throw Error("it holds a tensor without data");
        double last = static_cast<double>(t.storage_offset());  // element index, exact below 2^53
        for (int64_t d = 0; d < t.dim(); ++d) {
            if (t.size(d) == 0) return;  // no element is ever read
            if (t.stride(d) < 0) throw Error("it holds a tensor with a negative stride");
            last += static_cast<double>(t.size(d) - 1) * static_cast<double>(t.stride(d));
        }
        if ((last + 1.0) * static_cast<double>(t.element_size()) > static_cast<double>(t.storage().nbytes()))
            throw Error("it holds a tensor larger than its data");
    } else if (value.isGenericDict()) {
        for (const auto& entry : value.toGenericDict()) checkTensorsInStorage(entry.value());
    } else if (value.isList()) {
        for (const c10::IValue& item : value.toListRef()) checkTensorsInStorage(item);
    } else if (value.isTuple()) {
        for (const c10::IValue& item : value.toTupleRef().elements()) checkTensorsInStorage(item);
    }
}

// torch::pickle_load with the bounded adapter and the checks above.
c10::IValue unpickleArchive(const std::vector<char>& bytes) {
    caffe2::serialize::PyTorchStreamReader reader(std::make_shared<BoundedReader>(bytes));
    {
        auto [data, size] = reader.getRecord("data.pkl");
        checkPickleLengths(static_cast<const unsigned char*>(data.get()), size);
    }
    // Each storage gets the size of its record, not the element count the pickle
    // claims for it, so that the check below compares with the bytes that exist.
    auto storages = std::make_shared<torch::jit::DeserializationStorageContext>();
    for (const std::string& name : reader.getAllRecords()) {
        if (name.rfind("data/", 0) != 0) continue;
        auto [data, size] = reader.getRecord(name);
        storages->addStorage(name.substr(5), c10::Storage(c10::Storage::use_byte_size_t(), size, std::move(data),
                                                          /*allocator=*/nullptr, /*resizable=*/false));
    }
    c10::IValue value = torch::jit::readArchiveAndTensors("data", /*pickle_prefix=*/"", /*tensor_prefix=*/"",
                                                          /*type_resolver=*/c10::nullopt, /*obj_loader=*/c10::nullopt,
                                                          /*device=*/c10::nullopt, reader,
                                                          torch::jit::Unpickler::defaultTypeParser, storages);
    checkTensorsInStorage(value);
    return value;
}

std::vector<char> readAll(const std::string& path) {
    std::error_code ec;
    if (!std::filesystem::exists(path, ec)) throw Error("no such checkpoint: " + path + ".");
    if (!std::filesystem::is_regular_file(path, ec)) throw Error(path + " is not a regular file.");
    std::ifstream in(path, std::ios::binary);
    if (!in) throw Error("cannot open " + path + ": " + std::strerror(errno) + ".");
    std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    return bytes;
}

std::string firstLine(const std::exception& e) {
    std::string why = e.what();
    return why.substr(0, why.find('\n'));
}

// Opens the zip as torch.save lays it out (<name>/data.pkl, <name>/version,
// <name>/data/<n>) and walks its pickle, so that a zip of something else or a
// pickle naming Python code is refused before anything is unpickled.
void refuseForeignArchive(const std::string& path, const std::vector<char>& bytes) {
    std::string pickle;
    try {
        // Bounded reads: LibTorch's MemoryReadAdapter reads past the end of a
        // truncated archive.
        caffe2::serialize::PyTorchStreamReader reader(std::make_shared<BoundedReader>(bytes));
        if (!reader.hasRecord("data.pkl"))
            throw Error(path + " is a zip archive but not a CharGPT checkpoint (it holds no data.pkl).");
        auto [data, size] = reader.getRecord("data.pkl");
        pickle.assign(static_cast<const char*>(data.get()), size);
    } catch (const Error&) {
        throw;
    } catch (const std::exception& e) {
        const std::string why = firstLine(e);
        // What LibTorch says of a zip laid out otherwise than torch.save does.
        if (why.find("failed locating file") != std::string::npos || why.find("hasRecord") != std::string::npos ||
            why.find("not in a subdirectory") != std::string::npos)
            throw Error(path + " is a zip archive but not a CharGPT checkpoint (not laid out as torch.save writes).");
        throw Error(path + " is damaged or truncated and cannot be read (" + why + ").");
    }
    const std::string foreign =
        foreignCodeInPickle(reinterpret_cast<const unsigned char*>(pickle.data()), pickle.size());
    if (!foreign.empty())
        throw Error(path + " is refused: " + foreign + ". Nothing in it was run.");
}

// A save killed half-way (power cut, SIGKILL) leaves its temporary file
// ".NAME.tmp-PID-XXXXXX" behind. The next save to NAME removes those whose
// process is gone and that have not changed for a minute (a process of another
// PID namespace sharing the folder could still be writing a fresh one), and
// those of the older pattern ".NAME.tmp-XXXXXX", which names no process, once
// they are an hour old. Nothing else is touched; errors are ignored.
void removeStaleTemporaries(const std::filesystem::path& dir, const std::string& name) {
    namespace fs = std::filesystem;
    const std::string prefix = "." + name + ".tmp-";
    std::error_code ec;
    fs::directory_iterator it(dir, ec), end;
    for (; !ec && it != end; it.increment(ec)) {
        const std::string entry = it->path().filename().string();
        if (entry.size() <= prefix.size() || entry.compare(0, prefix.size(), prefix) != 0) continue;
        const std::string rest = entry.substr(prefix.size());
        struct stat info {};
        if (::lstat(it->path().c_str(), &info) != 0 || !S_ISREG(info.st_mode)) continue;
        const double age = std::difftime(std::time(nullptr), info.st_mtime);
        bool stale = false;
        const std::size_t dash = rest.find('-');
        if (dash != std::string::npos && dash > 0 && rest.size() == dash + 7 &&
            std::all_of(rest.begin(), rest.begin() + static_cast<std::ptrdiff_t>(dash),
                        [](char c) { return c >= '0' && c <= '9'; }) && dash < 10) {
            const long pid = std::stol(rest.substr(0, dash));
            const bool gone = pid > 0 && ::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH;
            stale = gone && age > 60.0;
        } else if (rest.size() == 6) {
            stale = age > 3600.0;
        }
        if (stale) ::unlink(it->path().c_str());
    }
}

void writeAtomically(const std::string& path, const std::vector<char>& bytes) {
    namespace fs = std::filesystem;
    const fs::path target(path);
    const fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
    std::error_code ec;
    if (fs::is_directory(target, ec)) throw Error("cannot save to " + path + ": it is a folder.");
    removeStaleTemporaries(dir, target.filename().string());
    std::string tmp =
        (dir / ("." + target.filename().string() + ".tmp-" + std::to_string(::getpid()) + "-XXXXXX")).string();
    const int fd = ::mkstemp(tmp.data());
    if (fd < 0) throw Error("cannot save to " + path + ": " + std::strerror(errno) + ".");
    auto fail = [&](const std::string& what) {
        const int err = errno;
        ::close(fd);
        ::unlink(tmp.c_str());
        throw Error("cannot save to " + path + ": " + what + " failed (" + std::strerror(err) +
                    "); the previous file is unchanged.");
    };
    ::fchmod(fd, 0644);  // mkstemp makes it 0600; before the fsync, so the mode is on disk too
    std::size_t written = 0;
    while (written < bytes.size()) {
        const ssize_t n = ::write(fd, bytes.data() + written, bytes.size() - written);
        if (n < 0) {
            if (errno == EINTR) continue;
            fail("writing");
        }
        written += static_cast<std::size_t>(n);
    }
    if (::fsync(fd) != 0) fail("flushing to disk");
    if (::close(fd) != 0) {
        const int err = errno;
        ::unlink(tmp.c_str());
        throw Error("cannot save to " + path + ": " + std::strerror(err) + ".");
    }
    if (::rename(tmp.c_str(), path.c_str()) != 0) {
        const int err = errno;
        ::unlink(tmp.c_str());
        throw Error("cannot save to " + path + ": " + std::strerror(err) + "; the previous file is unchanged.");
    }
    // The rename itself must reach the disk for the new file to survive a crash.
    const int dirFd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY);
    if (dirFd >= 0) {
        ::fsync(dirFd);
        ::close(dirFd);
    }
}

}  // namespace

std::map<std::string, torch::Tensor> toSeedNames(const std::map<std::string, torch::Tensor>& fused,
                                                 const RunConfig& config) {
    const int64_t C = config.emb_size, H = config.head_size, nh = config.n_head();
    std::map<std::string, torch::Tensor> out;
    for (const auto& [name, tensor] : fused) {
        int64_t layer = 0;
        std::string rest;
        if (splitBlockName(name, layer, rest) && rest == "mha.qkv.weight") {
            auto thirds = tensor.split(C, 0);  // q, k, v: (C, C) each
            for (int p = 0; p < 3; ++p)
                for (int64_t h = 0; h < nh; ++h)
                    out[headName(layer, h, kProjections[p])] = thirds[p].narrow(0, h * H, H).clone();
        } else {
            out[name] = tensor.detach().clone();
        }
    }
    return out;
}

std::map<std::string, torch::Tensor> fromSeedNames(const std::map<std::string, torch::Tensor>& seed,
                                                   const RunConfig& config) {
    const int64_t nh = config.n_head();
    std::map<std::string, torch::Tensor> out;
    for (const auto& [name, tensor] : seed) {
        int64_t layer = 0;
        std::string rest;
        if (splitBlockName(name, layer, rest) && rest.rfind("mha.heads.", 0) == 0) continue;  // fused below
        out[name] = tensor;
    }
    std::set<std::string> fusedHeads;
    for (int64_t layer = 0; layer < config.n_layer; ++layer) {
        std::vector<torch::Tensor> rows;
        for (const char* projection : kProjections)
            for (int64_t h = 0; h < nh; ++h) {
                auto it = seed.find(headName(layer, h, projection));
                if (it == seed.end()) throw Error("the checkpoint lacks " + headName(layer, h, projection) + ".");
                if (it->second.dim() != 2 || it->second.size(0) != config.head_size ||
                    it->second.size(1) != config.emb_size)
                    throw Error("the checkpoint's " + headName(layer, h, projection) + " has shape " +
                                describeShape(it->second) + " but the settings need (" +
                                std::to_string(config.head_size) + ", " + std::to_string(config.emb_size) + ").");
                rows.push_back(it->second);
                fusedHeads.insert(it->first);
            }
        out["blocks." + std::to_string(layer) + ".mha.qkv.weight"] = torch::cat(rows, 0);
    }
    // Any other head entry (a layer or head the config does not have) would vanish silently.
    for (const auto& [name, tensor] : seed) {
        int64_t layer = 0;
        std::string rest;
        if (splitBlockName(name, layer, rest) && rest.rfind("mha.heads.", 0) == 0 && !fusedHeads.count(name))
            throw Error("the checkpoint has an unexpected entry " + name + ".");
    }
    return out;
}

Checkpoint checkpointFromTrainer(Trainer& trainer, const CharTokenizer& tokenizer) {
    Checkpoint c;
    c.config = trainer.config();
    c.tokenizer = tokenizer;
    c.model = trainer.model();
    c.step = trainer.step();
    c.tokensSeen = trainer.tokensSeen();
    c.history = trainer.history();
    CharGPT model = trainer.model();
    const FusedAdamW& optimizer = trainer.optimizer();
    if (optimizer.stepCount() > 0) {
        c.optimizerStep = optimizer.stepCount();
        for (const auto& item : model->named_parameters()) {
            c.expAvg[item.key()] = optimizer.expAvg(item.value());
            c.expAvgSq[item.key()] = optimizer.expAvgSq(item.value());
        }
    }
    return c;
}

void restoreOptimizer(const Checkpoint& checkpoint, Trainer& trainer) {
    FusedAdamW& optimizer = trainer.optimizer();
    optimizer.resetState();
    if (checkpoint.expAvg.empty()) return;
    torch::NoGradGuard noGrad;
    CharGPT model = trainer.model();
    for (const auto& item : model->named_parameters()) {
        auto avg = checkpoint.expAvg.find(item.key());
        auto sq = checkpoint.expAvgSq.find(item.key());
        if (avg == checkpoint.expAvg.end() || sq == checkpoint.expAvgSq.end())
            throw Error("the checkpoint's optimizer state lacks " + item.key() + ".");
        optimizer.expAvg(item.value()).copy_(avg->second);
        optimizer.expAvgSq(item.value()).copy_(sq->second);
    }
    optimizer.setStepCount(checkpoint.optimizerStep);
}

void saveCheckpoint(const std::string& path, const Checkpoint& c) {
    if (!c.model) throw Error("there is no model to save.");
    torch::NoGradGuard noGrad;
    std::map<std::string, torch::Tensor> fused;
    for (const auto& item : c.model->named_parameters()) fused[item.key()] = item.value().to(torch::kCPU);

    auto toDict = [&](const std::map<std::string, torch::Tensor>& tensors) {
        c10::Dict<std::string, torch::Tensor> d;
        for (const auto& [name, t] : toSeedNames(tensors, c.config)) d.insert(name, t.to(torch::kCPU).contiguous());
        return d;
    };

    Dict root = makeDict();
    root.insert("format", std::string(kCheckpointFormat));
    root.insert("version", kCheckpointVersion);
    root.insert("config", configToDict(c.config));
    c10::List<std::string> vocab;
    for (const auto& entry : c.tokenizer.vocabulary()) vocab.push_back(entry);
    root.insert("vocab", vocab);
    root.insert("model", toDict(fused));
    if (!c.expAvg.empty()) {
        Dict optimizer = makeDict();
        optimizer.insert("step", c.optimizerStep);
        optimizer.insert("exp_avg", toDict(c.expAvg));
        optimizer.insert("exp_avg_sq", toDict(c.expAvgSq));
        root.insert("optimizer", optimizer);
    }
    root.insert("step", c.step);
    root.insert("tokens_seen", c.tokensSeen);
    Dict history = makeDict();
    history.insert("steps", vectorTensor(c.history.steps, torch::kInt64));
    history.insert("train_loss", vectorTensor(c.history.trainLoss, torch::kFloat32));
    history.insert("learning_rate", vectorTensor(c.history.learningRate, torch::kFloat32));
    history.insert("eval_steps", vectorTensor(c.history.evalSteps, torch::kInt64));
    history.insert("eval_train_loss", vectorTensor(c.history.evalTrainLoss, torch::kFloat32));
    history.insert("eval_val_loss", vectorTensor(c.history.evalValLoss, torch::kFloat32));
    root.insert("history", history);

    std::vector<char> bytes;
    try {
        bytes = torch::pickle_save(root);
    } catch (const std::exception& e) {
        throw Error(std::string("cannot encode the checkpoint: ") + e.what());
    }
    writeAtomically(path, bytes);
}

Checkpoint loadCheckpoint(const std::string& path) {
    const std::vector<char> bytes = readAll(path);
    if (bytes.empty()) throw Error(path + " is empty, not a checkpoint.");
    if (bytes.size() < 4 || bytes[0] != 'P' || bytes[1] != 'K')
        throw Error(path + " is not a CharGPT checkpoint (not a torch.save archive).");
    refuseForeignArchive(path, bytes);
    c10::IValue rootValue;
    try {
        rootValue = unpickleArchive(bytes);
    } catch (const std::exception& e) {
        std::string why = e.what();
        why = why.substr(0, why.find('\n'));
        throw Error(path + " is damaged or truncated and cannot be read (" + why + ").");
    }
    if (!rootValue.isGenericDict()) throw Error(path + " is not a CharGPT checkpoint (it holds no dictionary).");
    Dict root = rootValue.toGenericDict();
    for (const auto& entry : root)
        if (!entry.key().isString()) throw Error(path + " is not a CharGPT checkpoint.");
    auto format = root.find("format");
    if (format == root.end() || !format->value().isString() || format->value().toStringRef() != kCheckpointFormat)
        throw Error(path + " is not a CharGPT checkpoint (its format tag is missing or different).");
    const int64_t version = intField(root, "version");
    if (version > kCheckpointVersion)
        throw Error(path + " was written by a newer CharGPT Studio (format version " + std::to_string(version) +
                    "; this one reads up to " + std::to_string(kCheckpointVersion) + ").");
    if (version < 1) throw Error(path + " has an invalid format version.");

    Checkpoint c;
    c.config = configFromDict(dictField(root, "config"));

    c10::IValue vocabValue = field(root, "vocab", "");
    if (!vocabValue.isList()) throw Error("the checkpoint's vocab is not a list.");
    std::vector<std::string> vocab;
    for (const c10::IValue& entry : vocabValue.toListRef()) {
        if (!entry.isString()) throw Error("the checkpoint's vocab holds something that is not text.");
        vocab.push_back(entry.toStringRef());
    }
    c.tokenizer = CharTokenizer::fromVocabulary(vocab);
    if (c.tokenizer.vocabSize() != c.config.vocab_size)
        throw Error("the checkpoint's vocabulary has " + std::to_string(c.tokenizer.vocabSize()) +
                    " entries but its settings say " + std::to_string(c.config.vocab_size) + ".");

    c.model = CharGPT(c.config);
    const auto expected = namedParameters(c.model);
    auto weights = checkAgainst(expected, fromSeedNames(tensorMap(dictField(root, "model"), "model"), c.config), "weight");
    {
        torch::NoGradGuard noGrad;
        for (auto& [name, param] : expected) const_cast<torch::Tensor&>(param).copy_(weights.at(name));
    }
    c.model->to(computeDevice());

    if (root.contains("optimizer")) {
        Dict optimizer = dictField(root, "optimizer");
        c.optimizerStep = intField(optimizer, "step", "optimizer.");
        c.expAvg = checkAgainst(expected,
                                fromSeedNames(tensorMap(dictField(optimizer, "exp_avg", "optimizer."), "optimizer"), c.config),
                                "optimizer state");
        c.expAvgSq = checkAgainst(expected,
                                  fromSeedNames(tensorMap(dictField(optimizer, "exp_avg_sq", "optimizer."), "optimizer"), c.config),
                                  "optimizer state");
    }
    c.step = intField(root, "step");
    c.tokensSeen = intField(root, "tokens_seen");
    if (c.step < 0 || c.tokensSeen < 0) throw Error("the checkpoint's step count is negative.");

    Dict history = dictField(root, "history");
    c.history.steps = tensorVector<int64_t>(history, "steps", torch::kInt64);
    c.history.trainLoss = tensorVector<float>(history, "train_loss", torch::kFloat32);
    c.history.learningRate = tensorVector<float>(history, "learning_rate", torch::kFloat32);
    c.history.evalSteps = tensorVector<int64_t>(history, "eval_steps", torch::kInt64);
    c.history.evalTrainLoss = tensorVector<float>(history, "eval_train_loss", torch::kFloat32);
    c.history.evalValLoss = tensorVector<float>(history, "eval_val_loss", torch::kFloat32);
    if (c.history.trainLoss.size() != c.history.steps.size() ||
        c.history.learningRate.size() != c.history.steps.size() ||
        c.history.evalTrainLoss.size() != c.history.evalSteps.size() ||
        c.history.evalValLoss.size() != c.history.evalSteps.size())
        throw Error("the checkpoint's loss history has lists of different lengths.");
    return c;
}

}  // namespace chargpt
