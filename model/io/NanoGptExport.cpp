// SPDX-License-Identifier: GPL-3.0-or-later
// A checkpoint as nanoGPT's train.py saves one (ckpt.pt) and the meta.pkl of its vocabulary.
#include "model/io/NanoGpt.h"

#include <caffe2/serialize/inline_container.h>

#include <algorithm>
#include <cstring>
#include <filesystem>

#include "model/io/AtomicFile.h"
#include "model/io/PyTorchInteropDetail.h"
#include "model/runtime/Error.h"

namespace chargpt {

namespace {

// The pickle (protocol 2) of plain values and tensors that Python's torch.save
// writes: dicts, lists, tuples, numbers, strings, and tensors rebuilt by
// torch._utils._rebuild_tensor_v2 from storages named by persistent ids. No
// other global, so that torch.load(weights_only=True) reads it too.
class PickleWriter {
public:
    PickleWriter() { out_ += "\x80\x02"; }
    std::string finish() { return out_ + "."; }

    void none() { out_ += 'N'; }
    void boolean(bool b) { out_ += b ? '\x88' : '\x89'; }
    void integer(int64_t v) {
        if (v >= INT32_MIN && v <= INT32_MAX) {
            out_ += 'J';
            raw(uint32_t(int32_t(v)), 4);
        } else {  // LONG1: 8 bytes, little-endian two's complement
            out_ += "\x8a\x08";
            raw(uint64_t(v), 8);
        }
    }
    void number(double v) {  // BINFLOAT, big-endian
        uint64_t bits = 0;
        std::memcpy(&bits, &v, 8);
        out_ += 'G';
        for (int i = 7; i >= 0; --i) out_ += char((bits >> (8 * i)) & 0xFF);
    }
    void text(const std::string& s) {
        out_ += 'X';
        raw(uint32_t(s.size()), 4);
        out_ += s;
    }
    void global(const char* module, const char* name) { out_ += std::string("c") + module + "\n" + name + "\n"; }
    void mark() { out_ += '('; }
    void dict() { out_ += '}'; }
    void list() { out_ += ']'; }
    void setItems() { out_ += 'u'; }  // after a mark and key, value pairs
    void appends() { out_ += 'e'; }   // after a mark and items
    void tuple() { out_ += 't'; }     // after a mark and items
    void orderedDict() {              // collections.OrderedDict()
        global("collections", "OrderedDict");
        out_ += ")R";
    }
    // A float32 tensor over storage `key` (numel elements), contiguous.
    void tensor(const std::string& key, int64_t storageNumel, const torch::Tensor& t) {
        global("torch._utils", "_rebuild_tensor_v2");
        mark();
        mark();
        text("storage");
        global("torch", "FloatStorage");
        text(key);
        text("cpu");
        integer(storageNumel);
        tuple();
        out_ += 'Q';  // BINPERSID
        integer(0);   // storage offset
        mark();
        for (const int64_t size : t.sizes()) integer(size);
        tuple();
        mark();
        for (const int64_t stride : t.strides()) integer(stride);
        tuple();
        boolean(false);  // requires_grad
        orderedDict();   // backward hooks
        tuple();
        out_ += 'R';
    }

private:
    void raw(uint64_t v, int bytes) {
        for (int i = 0; i < bytes; ++i) out_ += char((v >> (8 * i)) & 0xFF);
    }
    std::string out_;
};

// Our parameter name -> nanoGPT's (the import's rules, backwards).
std::string nanoName(const std::string& name) {
    int64_t layer = 0;
    std::string rest;
    if (statedict::blockKey(name, layer, rest) && rest == "mha.qkv.weight")
        return "transformer.h." + std::to_string(layer) + ".attn.c_attn.weight";
    return statedict::seedToForeign(name, StateDictNaming::NanoGPT);
}

}  // namespace

std::string nanoGptExportProblem(const RunConfig& c) {
    std::string problems;
    auto add = [&problems](bool wrong, const char* what) {
        if (wrong) problems += (problems.empty() ? "" : "; ") + std::string(what);
    };
    add(!c.isFull(), "it lacks parts of the model (a rung of the architecture ladder)");
    add(c.activation != ModelConfig::GeluErf, "its feed-forward is not the exact GELU nanoGPT's nn.GELU() computes");
    add(!c.tied_head, "its head is not tied to the token embedding (nanoGPT's lm_head is wte)");
    add(c.head_bias, "its head has a bias (nanoGPT's lm_head has none)");
    add(c.qkv_bias && !c.biases, "it has biases on q, k and v but not elsewhere (nanoGPT's bias switch sets all)");
    if (problems.empty()) return {};
    return "nanoGPT's model cannot compute this model: " + problems +
           ". A model imported from nanoGPT, or trained here with --like nanogpt, can be exported.";
}

void exportNanoGpt(const Checkpoint& checkpoint, const std::string& folder, const std::string& dataset) {
    const RunConfig& c = checkpoint.config;
    if (const std::string problem = nanoGptExportProblem(c); !problem.empty()) throw Error(problem);
    namespace fs = std::filesystem;
    std::error_code error;
    if (!fs::is_directory(folder, error)) throw Error("cannot export to " + folder + ": it is not a folder.");
    const std::string ckptPath = (fs::path(folder) / "ckpt.pt").string();
    const std::string metaPath = (fs::path(folder) / "meta.pkl").string();
    checkSaveTarget(ckptPath);
    checkSaveTarget(metaPath);

    // nanoGPT's named_parameters order: wte, wpe, each block, ln_f (lm_head is wte).
    torch::NoGradGuard noGrad;
    std::vector<std::pair<std::string, torch::Tensor>> tensors;
    for (const auto& item : checkpoint.model->named_parameters())
        tensors.emplace_back(nanoName(item.key()), item.value().detach().to(torch::kCPU, torch::kFloat32).contiguous());
    if (c.biases && !c.qkv_bias)  // no bias on q, k, v: nanoGPT's bias=True with zeros there computes the same
        for (int64_t layer = 0; layer < c.n_layer; ++layer) {
            const std::string weight = "transformer.h." + std::to_string(layer) + ".attn.c_attn.weight";
            auto at = std::find_if(tensors.begin(), tensors.end(), [&](const auto& t) { return t.first == weight; });
            tensors.insert(at + 1, {"transformer.h." + std::to_string(layer) + ".attn.c_attn.bias",
                                    torch::zeros({3 * c.emb_size}, torch::kFloat32)});
        }

    PickleWriter p;
    p.dict();
    p.mark();
    p.text("model");
    p.orderedDict();
    p.mark();
    for (std::size_t i = 0; i < tensors.size(); ++i) {
        p.text(tensors[i].first);
        p.tensor(std::to_string(i), tensors[i].second.numel(), tensors[i].second);
        if (tensors[i].first == "transformer.wte.weight") {  // tied: the same storage
            p.text("lm_head.weight");
            p.tensor(std::to_string(i), tensors[i].second.numel(), tensors[i].second);
        }
    }
    p.setItems();
    // train.py's init_from='resume' loads the optimizer: AdamW's two groups
    // (matrices with weight decay, the rest without), without moments.
    std::vector<int64_t> decay, noDecay;
    for (std::size_t i = 0; i < tensors.size(); ++i) (tensors[i].second.dim() >= 2 ? decay : noDecay).push_back(int64_t(i));
    p.text("optimizer");
    p.dict();
    p.mark();
    p.text("state");
    p.dict();
    p.text("param_groups");
    p.list();
    p.mark();
    int64_t index = 0;
    for (const auto* group : {&decay, &noDecay}) {
        p.dict();
        p.mark();
        p.text("lr");
        p.number(c.learning_rate);
        p.text("betas");
        p.mark();
        p.number(c.beta1);
        p.number(c.beta2);
        p.tuple();
        p.text("eps");
        p.number(1e-8);
        p.text("weight_decay");
        p.number(group == &decay ? c.weight_decay : 0.0);
        p.text("amsgrad");
        p.boolean(false);
        p.text("maximize");
        p.boolean(false);
        p.text("foreach");
        p.none();
        p.text("capturable");
        p.boolean(false);
        p.text("params");
        p.list();
        p.mark();
        for (std::size_t k = 0; k < group->size(); ++k) p.integer(index++);
        p.appends();
        p.setItems();
    }
    p.appends();
    p.setItems();
    p.text("model_args");
    p.dict();
    p.mark();
    p.text("n_layer");
    p.integer(c.n_layer);
    p.text("n_head");
    p.integer(c.n_head());
    p.text("n_embd");
    p.integer(c.emb_size);
    p.text("block_size");
    p.integer(c.sequence_len);
    p.text("bias");
    p.boolean(c.biases);
    p.text("vocab_size");
    p.integer(c.vocab_size);
    p.text("dropout");
    p.number(c.dropout);
    p.setItems();
    p.text("iter_num");
    p.integer(checkpoint.step);
    p.text("best_val_loss");
    const auto& val = checkpoint.history.evalValLoss;
    p.number(val.empty() ? 1e9 : double(*std::min_element(val.begin(), val.end())));  // train.py's start: 1e9
    p.text("config");
    p.dict();
    p.mark();
    p.text("dataset");
    p.text(dataset);
    p.text("block_size");
    p.integer(c.sequence_len);
    p.text("batch_size");
    p.integer(c.batch_size);
    p.text("learning_rate");
    p.number(c.learning_rate);
    p.text("min_lr");
    p.number(c.min_learning_rate);
    p.text("weight_decay");
    p.number(c.weight_decay);
    p.text("dropout");
    p.number(c.dropout);
    p.setItems();
    p.setItems();
    const std::string pickle = p.finish();

    std::string archive;
    {
        caffe2::serialize::PyTorchStreamWriter writer([&archive](const void* data, size_t size) {
            archive.append(static_cast<const char*>(data), size);
            return size;
        });
        writer.writeRecord("data.pkl", pickle.data(), pickle.size());
        for (std::size_t i = 0; i < tensors.size(); ++i)
            writer.writeRecord("data/" + std::to_string(i), tensors[i].second.data_ptr<float>(),
                               std::size_t(tensors[i].second.numel()) * sizeof(float));
        writer.writeEndOfFile();
    }

    // meta.pkl as prepare.py writes it: vocab_size, itos, stoi.
    PickleWriter m;
    const std::vector<std::string> vocabulary = checkpoint.tokenizer.vocabulary();
    m.dict();
    m.mark();
    m.text("vocab_size");
    m.integer(int64_t(vocabulary.size()));
    m.text("itos");
    m.dict();
    m.mark();
    for (std::size_t i = 0; i < vocabulary.size(); ++i) {
        m.integer(int64_t(i));
        m.text(vocabulary[i]);
    }
    m.setItems();
    m.text("stoi");
    m.dict();
    m.mark();
    for (std::size_t i = 0; i < vocabulary.size(); ++i) {
        m.text(vocabulary[i]);
        m.integer(int64_t(i));
    }
    m.setItems();
    m.setItems();

    writeFileAtomically(ckptPath, archive);
    writeFileAtomically(metaPath, m.finish());
}

}  // namespace chargpt
