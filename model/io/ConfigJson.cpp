// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/io/ConfigJson.h"

#include <cerrno>
#include <charconv>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "model/runtime/Error.h"

namespace chargpt {

namespace {

std::string jsonDouble(double v) {
    char buffer[64];
    const auto end = std::to_chars(buffer, buffer + sizeof buffer, v).ptr;  // shortest exact form
    std::string text(buffer, end);
    if (text.find_first_of(".eE") == std::string::npos) text += ".0";  // stays a float in Python
    return text;
}

}  // namespace

std::string configToJson(const RunConfig& c) {
    std::ostringstream s;
    s << "{\n  \"format\": \"chargpt-config\",\n  \"version\": 1,\n  \"config\": {\n"
      << "    \"vocab_size\": " << c.vocab_size << ",\n"
      << "    \"emb_size\": " << c.emb_size << ",\n"
      << "    \"head_size\": " << c.head_size << ",\n"
      << "    \"n_layer\": " << c.n_layer << ",\n"
      << "    \"sequence_len\": " << c.sequence_len << ",\n"
      << "    \"dropout\": " << jsonDouble(c.dropout) << ",\n"
      << "    \"batch_size\": " << c.batch_size << ",\n"
      << "    \"learning_rate\": " << jsonDouble(c.learning_rate) << ",\n"
      << "    \"min_learning_rate\": " << jsonDouble(c.min_learning_rate) << ",\n"
      << "    \"weight_decay\": " << jsonDouble(c.weight_decay) << ",\n"
      << "    \"beta1\": " << jsonDouble(c.beta1) << ",\n"
      << "    \"beta2\": " << jsonDouble(c.beta2) << ",\n"
      << "    \"grad_clip\": " << jsonDouble(c.grad_clip) << ",\n"
      << "    \"warmup_steps\": " << c.warmup_steps << ",\n"
      << "    \"max_steps\": " << c.max_steps << ",\n"
      << "    \"time_limit_s\": " << jsonDouble(c.time_limit_s) << ",\n"
      << "    \"eval_interval\": " << c.eval_interval << ",\n"
      << "    \"eval_iters\": " << c.eval_iters << ",\n"
      << "    \"val_fraction\": " << jsonDouble(c.val_fraction) << ",\n"
      << "    \"seed\": " << c.seed << ",\n"
      << "    \"bf16\": " << (c.bf16 ? "true" : "false") << "\n"
      << "  }\n}\n";
    return s.str();
}

void writeConfigJson(const std::string& path, const RunConfig& config) {
    namespace fs = std::filesystem;
    std::error_code ec;
    if (fs::is_directory(path, ec)) throw Error("cannot write " + path + ": it is a folder.");
    const std::string text = configToJson(config);
    const std::string tmp = path + ".tmp";
    {
        std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
        if (!out) throw Error("cannot write " + path + ": " + std::strerror(errno) + ".");
        out << text;
        out.flush();
        if (!out) {
            fs::remove(tmp, ec);
            throw Error("cannot write " + path + ": writing failed.");
        }
    }
    fs::rename(tmp, path, ec);
    if (ec) {
        fs::remove(tmp, ec);
        throw Error("cannot write " + path + ": " + ec.message() + ".");
    }
}

}  // namespace chargpt
