// SPDX-License-Identifier: GPL-3.0-or-later
// The bench's PyTorch reference: the seed-style script's corpus file and its training and generation commands.
#include "app/BenchFigures.h"

#include <torch/torch.h>

#include <fcntl.h>
#include <unistd.h>

#include <cmath>
#include <sstream>
#include <string>

#include "app/BenchTools.h"
#include "model/runtime/Error.h"
#include "model/text/BuiltinCorpora.h"

namespace chargpt::bench {

namespace {

std::string referenceArgs(const RunConfig& c) {
    std::ostringstream s;
    s << " --emb " << c.emb_size << " --head " << c.head_size << " --layers " << c.n_layer << " --context "
      << c.sequence_len << " --dropout " << c.dropout << " --batch " << c.batch_size << " --threads "
      << at::get_num_threads();
    return s.str();
}

}  // namespace

CorpusFile::CorpusFile(const std::string& source, const std::string& scratch) : path_(source) {
    if (!isBuiltinSource(source)) return;
    const std::string name = scratch + "/reference-corpus.txt";
    const int fd = ::open(name.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
    if (fd < 0) throw Error("cannot create a temporary file for the reference's corpus.");
    const std::string text = builtinCorpusText(source);
    std::size_t written = 0;
    while (written < text.size()) {
        const ssize_t n = ::write(fd, text.data() + written, text.size() - written);
        if (n <= 0) break;
        written += std::size_t(n);
    }
    ::close(fd);
    path_ = temporary_ = name;
    if (written != text.size()) throw Error("cannot write a temporary file for the reference's corpus.");
}

CorpusFile::~CorpusFile() {
    if (!temporary_.empty()) ::unlink(temporary_.c_str());
}

double referenceTraining(const RunConfig& c, const BenchOptions& o, const std::string& corpusFile, int steps) {
    if (o.reference.empty()) return std::nan("");
    const std::string command = quote(o.python) + " " + quote(o.reference) + " train " + quote(corpusFile) +
                                referenceArgs(c) + " --steps " + std::to_string(steps) + " --warmup " +
                                std::to_string(o.warmup) + (c.bf16 ? " --bf16" : "") + " 2>/dev/null";
    return lastJsonNumber(capture(command), "tokens_per_s");
}

double referenceGeneration(const RunConfig& c, const BenchOptions& o) {
    return lastJsonNumber(capture(quote(o.python) + " " + quote(o.reference) + " generate" + referenceArgs(c) +
                                  " --vocab " + std::to_string(c.vocab_size) + " --chars " + std::to_string(o.chars) +
                                  " 2>/dev/null"),
                          "chars_per_s");
}

}  // namespace chargpt::bench
