// SPDX-License-Identifier: GPL-3.0-or-later
// The snapshot format, little-endian:
//   "CGPTSNAP", u32 version (1), u32 n + n bytes of configToJson(),
//   u32 entries + for each (u16 n + n bytes) of the vocabulary, u64 step,
//   u64 tensors + for each u64 element count, then every tensor's bfloat16
//   values in parameters() order.
#include "model/io/KeptWeightsCodec.h"

#include <cstring>
#include <string_view>
#include <vector>

#include "model/io/ConfigJson.h"
#include "model/runtime/Device.h"
#include "model/runtime/Error.h"

namespace chargpt {

namespace {

constexpr char kMagic[8] = {'C', 'G', 'P', 'T', 'S', 'N', 'A', 'P'};
constexpr uint32_t kVersion = 1;
constexpr uint32_t kMaxConfigBytes = 64 * 1024;
constexpr uint32_t kMaxEntryBytes = 16;  // "<|e|>" or one character in UTF-8

template <typename T>
void put(std::string& out, T value) {
    for (std::size_t i = 0; i < sizeof(T); ++i) out.push_back(char((uint64_t(value) >> (8 * i)) & 0xFF));
}

// Reads what the bytes claim, never past their end.
class Reader {
public:
    explicit Reader(std::string_view bytes) : rest_(bytes) {}
    template <typename T>
    T number(const char* what) {
        need(sizeof(T), what);
        uint64_t v = 0;
        for (std::size_t i = 0; i < sizeof(T); ++i) v |= uint64_t(uint8_t(rest_[i])) << (8 * i);
        rest_.remove_prefix(sizeof(T));
        return T(v);
    }
    std::string_view take(uint64_t n, const char* what) {
        need(n, what);
        const std::string_view part = rest_.substr(0, n);
        rest_.remove_prefix(n);
        return part;
    }
    uint64_t left() const { return rest_.size(); }

private:
    void need(uint64_t n, const char* what) {
        if (n > rest_.size())
            throw Error(std::string("the snapshot is cut short (its ") + what + " runs past its end).");
    }
    std::string_view rest_;
};

}  // namespace

std::string encodeKeptWeights(const RunConfig& config, const CharTokenizer& tokenizer, const CharGPT& model,
                              int64_t step) {
    torch::NoGradGuard noGrad;
    std::string out(kMagic, sizeof kMagic);
    put<uint32_t>(out, kVersion);
    const std::string json = configToJson(config);
    put<uint32_t>(out, uint32_t(json.size()));
    out += json;
    const std::vector<std::string> vocabulary = tokenizer.vocabulary();
    put<uint32_t>(out, uint32_t(vocabulary.size()));
    for (const std::string& entry : vocabulary) {
        put<uint16_t>(out, uint16_t(entry.size()));
        out += entry;
    }
    put<uint64_t>(out, uint64_t(step));
    const std::vector<torch::Tensor> parameters = model->parameters();
    put<uint64_t>(out, parameters.size());
    for (const torch::Tensor& p : parameters) put<uint64_t>(out, uint64_t(p.numel()));
    for (const torch::Tensor& p : parameters) {
        const torch::Tensor half = p.detach().to(torch::kCPU).to(torch::kBFloat16).contiguous();
        out.append(static_cast<const char*>(half.data_ptr()), std::size_t(half.numel()) * 2);
    }
    return out;
}

Checkpoint decodeKeptWeights(const std::string& bytes) {
    Reader in(bytes);
    if (in.take(sizeof kMagic, "tag") != std::string_view(kMagic, sizeof kMagic))
        throw Error("this is not a weights snapshot (its tag is missing).");
    const uint32_t version = in.number<uint32_t>("version");
    if (version != kVersion)
        throw Error("the snapshot's format " + std::to_string(version) + " is not one this version reads (" +
                    std::to_string(kVersion) + ").");
    const uint32_t jsonBytes = in.number<uint32_t>("settings' length");
    if (jsonBytes > kMaxConfigBytes) throw Error("the snapshot's settings are longer than 64 KiB.");
    Checkpoint c;
    c.config = configFromJson(std::string(in.take(jsonBytes, "settings")));
    checkReadSettings(c.config, "the snapshot");
    const uint32_t entries = in.number<uint32_t>("vocabulary's size");
    if (entries > uint64_t(ModelConfig::kMaxVocabulary) || entries > in.left() / 2)
        throw Error("the snapshot's vocabulary claims " + std::to_string(entries) +
                    " entries, more than it can hold.");
    std::vector<std::string> vocabulary;
    vocabulary.reserve(entries);
    for (uint32_t i = 0; i < entries; ++i) {
        const uint16_t n = in.number<uint16_t>("vocabulary");
        if (n > kMaxEntryBytes)
            throw Error("an entry of the snapshot's vocabulary is longer than one character.");
        vocabulary.emplace_back(in.take(n, "vocabulary"));
    }
    c.tokenizer = CharTokenizer::fromVocabulary(vocabulary);
    if (c.tokenizer.vocabSize() != c.config.vocab_size)
        throw Error("the snapshot's vocabulary has " + std::to_string(c.tokenizer.vocabSize()) +
                    " entries but its settings say " + std::to_string(c.config.vocab_size) + ".");
    const uint64_t step = in.number<uint64_t>("step");
    if (step > uint64_t(int64_t(1) << 62)) throw Error("the snapshot's step is out of range.");
    c.step = c.weightsStep = int64_t(step);

    // What the settings make, counted before anything of that size is made:
    // the values must be exactly what is left.
    const uint64_t parameters = uint64_t(c.config.parameterCount());
    const uint64_t tensors = in.number<uint64_t>("tensor count");
    if (tensors > in.left() / 8) throw Error("the snapshot claims more weights than it holds.");
    std::vector<uint64_t> counts(tensors);
    uint64_t total = 0;
    for (uint64_t& n : counts) {
        n = in.number<uint64_t>("tensor sizes");
        if (n > parameters)
            throw Error("a weight of the snapshot is larger than the model its settings describe.");
        total += n;
        if (total > parameters) throw Error("the snapshot holds more weights than its settings describe.");
    }
    if (total != parameters || in.left() != total * 2)
        throw Error("the snapshot's weights (" + std::to_string(in.left() / 2) +
                    " values) are not those of the model its settings describe (" +
                    std::to_string(parameters) + " parameters).");
    c.model = CharGPT(c.config);
    std::vector<torch::Tensor> own = c.model->parameters();
    if (own.size() != counts.size())
        throw Error("the snapshot holds " + std::to_string(counts.size()) + " weights; the model has " +
                    std::to_string(own.size()) + ".");
    {
        torch::NoGradGuard noGrad;
        for (std::size_t i = 0; i < own.size(); ++i) {
            if (uint64_t(own[i].numel()) != counts[i])
                throw Error("weight " + std::to_string(i) + " of the snapshot has " +
                            std::to_string(counts[i]) + " values; the model's has " +
                            std::to_string(own[i].numel()) + ".");
            const std::string_view data = in.take(counts[i] * 2, "weights");
            torch::Tensor half = torch::empty(own[i].sizes(), torch::kBFloat16);
            std::memcpy(half.data_ptr(), data.data(), data.size());
            const torch::Tensor values = half.to(torch::kFloat32);
            if (!torch::isfinite(values).all().item<bool>())
                throw Error("weight " + std::to_string(i) +
                            " of the snapshot holds a value that is not finite.");
            own[i].copy_(values);
        }
    }
    c.model->to(computeDevice());
    return c;
}

}  // namespace chargpt
