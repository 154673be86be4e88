// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <torch/torch.h>

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "model/text/CharTokenizer.h"
#include "model/io/Checkpoint.h"
#include "model/train/RunConfig.h"

namespace chargpt {

// Models trained by the seed's Python code, and configs for the Python trainer.
//
// A state_dict of the seed's CharGPT comes in one of two namings:
//   seed notes:  token_emb, pos_emb, blocks.<i>.l1 / l2 (LayerNorm),
//                blocks.<i>.ff.ln1 / ln2 (Linear), l, lm
//   book's code: token_embedding, position_embedding, blocks.<i>.ln1 / ln2
//                (LayerNorm), blocks.<i>.ff.l1 / l2 (Linear), ln, lm_head
// and both have blocks.<i>.mha.heads.<h>.key|query|value (Linear C -> H, no bias),
// blocks.<i>.mha.heads.<h>.tril (the mask buffer) and blocks.<i>.mha.proj.
// A "module." prefix (DistributedDataParallel) or "_orig_mod." (torch.compile)
// in front of every key is dropped.
enum class StateDictNaming { SeedNotes, Book };

// The tensors of a file written by Python's `torch.save(obj, path)` (the zip
// format of PyTorch 1.6 and later), in the order the file lists them.
//
// torch::pickle_load cannot read `torch.save(model.state_dict())`: LibTorch's
// unpickler turns every collections.OrderedDict into None (it expects one only
// as a tensor's empty backward hooks), so the state_dict's items have nowhere
// to go. The pickle is read by model/io/Pickle.h instead: dicts and
// OrderedDicts, lists, tuples, numbers, strings and tensors rebuilt by
// torch._utils._rebuild_tensor_v2 from the archive's storages. A pickle that
// names anything else (a whole pickled nn.Module, say) is refused with a
// message saying what was found.
struct PickledStateDict {
    std::vector<std::pair<std::string, torch::Tensor>> tensors;  // float tensors keep their dtype
    // Where the tensors were found: "" for the top level, else the key of the
    // nested dict that held them ("model", "state_dict", ...).
    std::string foundUnder;
};

// Throws chargpt::Error with a readable message when the file cannot be read or
// holds no dictionary of tensors.
PickledStateDict readTorchStateDict(const std::string& path);
const char* toString(StateDictNaming naming);

// The architecture read off the tensor shapes, and what does not fit.
struct StateDictReport {
    StateDictNaming naming = StateDictNaming::SeedNotes;
    RunConfig config;  // architecture fields only are inferred
    std::vector<std::string> missing;     // names the inferred model needs, absent from the file
    std::vector<std::string> unexpected;  // names the model has no place for
    std::vector<std::string> mismatched;  // "name has shape (a, b) but (c, d) is needed", or not finite
    std::string vocabularyProblem;        // token count vs embedding rows, or empty
    bool fits() const { return missing.empty() && unexpected.empty() && mismatched.empty() && vocabularyProblem.empty(); }
    // Every problem, one per line (at most a dozen of each kind).
    std::string describe() const;
};

// `tensors` under either naming -> the report and (when it fits) the weights
// under the seed's per-head names of our checkpoints. `vocabulary` is what the
// file's token embedding must match; `vocabularySource` names it in messages.
StateDictReport inspectStateDict(const std::vector<std::pair<std::string, torch::Tensor>>& tensors,
                                 const CharTokenizer& vocabulary, const std::string& vocabularySource,
                                 std::map<std::string, torch::Tensor>* seedWeights = nullptr);

// Reads `path` (torch.save of a state_dict, an OrderedDict or a plain dict, or of
// a dict holding one under "model"/"state_dict"), infers the configuration,
// checks every name and shape, and returns a checkpoint of step 0 whose training
// settings (dropout, batch, learning rate, ...) are those of `training`. Throws
// chargpt::Error listing everything that does not fit.
Checkpoint importStateDict(const std::string& path, const CharTokenizer& vocabulary,
                           const std::string& vocabularySource, const RunConfig& training);

// The vocabulary the book builds from its training text: <|e|> = 0, then the
// sorted distinct characters of the corpus (a built-in corpus's name, a file,
// or a folder as Corpus::load reads it: loadCorpusSource) from 1.
CharTokenizer vocabularyFromCorpus(const std::string& path);

// A vocabulary file: UTF-8 JSON, either a list whose entry i is token i
//   ["<|e|>", "\n", " ", "!", ...]            (a checkpoint's "vocab")
// or an object mapping each token to its index
//   {"<|e|>": 0, "\n": 1, " ": 2, ...}        (the book's char_tokenizer.char2ind)
// Token 0 is <|e|>; the others are single characters in increasing code-point
// order. Throws chargpt::Error saying which entry is wrong. A file larger than
// kMaxVocabularyFileBytes is refused before it is read.
CharTokenizer readVocabularyFile(const std::string& path);

// The most bytes a vocabulary file may take: 64 per token, for the largest
// vocabulary (a pretty-printed object entry such as `    "\ud83d\ude00": 65535,\n`
// is 27), plus some for the brackets and a byte-order mark.
constexpr std::size_t kMaxVocabularyFileBytes = std::size_t(RunConfig::kMaxVocabulary) * 64 + 4096;

}  // namespace chargpt
