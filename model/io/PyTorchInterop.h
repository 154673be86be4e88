// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <torch/torch.h>

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "model/text/CharTokenizer.h"
#include "model/io/Checkpoint.h"
#include "model/io/NanoGptMeta.h"
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
//
// The character-level GPTs people train elsewhere are told apart by their keys
// (model/io/ForeignLayouts.cpp):
//   nanoGPT:  transformer.wte / wpe, transformer.h.<i>.ln_1, attn.c_attn (q, k, v
//             of every head in one Linear, nanoGPT's layout of CharGPT's qkv),
//             attn.c_proj, ln_2, mlp.c_fc, mlp.c_proj, transformer.ln_f, and
//             lm_head tied to wte (the same storage); bias=False models have no
//             biases; attn.bias, the mask buffer, is there or not. Exact GELU.
//   minGPT:   the same names, lm_head its own weight, tanh GELU (its NewGELU).
//   lecture:  the lecture's gpt.py: token_embedding_table, position_embedding_table,
//             blocks.<i>.sa.heads.<h>.key / query / value (and tril), sa.proj,
//             ffwd.net.0 / 2 (ReLU between), ln1, ln2, ln_f, lm_head; its scores
//             are scaled by the head size (k.shape[-1]**-0.5), as the book's.
// How they compute unlike the book's CharGPT becomes the model's settings
// (ModelConfig::activation, qkv_bias, biases, head_bias, tied_head), and their
// vocabularies have no end-of-text token (CharTokenizer::withoutEndOfText).
enum class StateDictNaming { SeedNotes, Book, NanoGPT, MinGPT, Lecture };

// Whether the layout is one of nanoGPT's, minGPT's or the lecture's, whose
// vocabularies have no end-of-text token.
inline bool isForeign(StateDictNaming naming) {
    return naming == StateDictNaming::NanoGPT || naming == StateDictNaming::MinGPT || naming == StateDictNaming::Lecture;
}

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
    // A training checkpoint of nanoGPT's train.py: its model_args (n_layer,
    // n_head, n_embd, block_size, vocab_size, bias as 0 or 1; numbers only),
    // config['dataset'] (where sample.py finds meta.pkl), and what it says of
    // the training ("iter_num 5000, best_val_loss 1.4697"). Its optimizer state
    // and the rest of its config are read past.
    std::map<std::string, double> modelArgs;
    std::string dataset;
    std::string trainingState;
};

// Throws chargpt::Error with a readable message when the file cannot be read or
// holds no dictionary of tensors.
PickledStateDict readTorchStateDict(const std::string& path);
const char* toString(StateDictNaming naming);

// A model file of another project that `chargpt import` and the window's
// import read: nanoGPT's ckpt.pt, a state_dict of the seed's, nanoGPT's,
// minGPT's or the lecture's code.
struct ForeignModelFile {
    PickledStateDict file;
    StateDictNaming naming = StateDictNaming::SeedNotes;
};
// The file at `path` as such a model file, or nullopt when it is none: not a
// dictionary of tensors of a known layout, or one of our checkpoints that the
// loader refused (the seed's or the book's names inside a dict: another
// format tag, a newer version...), whose reason stands. What `chargpt info`
// describes and the window imports when its Open finds no checkpoint of ours.
std::optional<ForeignModelFile> recognizeForeignModel(const std::string& path);

// What the shapes of nanoGPT's and minGPT's files do not say: the number of
// heads (their q, k and v of every head are one matrix). 0: from nanoGPT's
// model_args, else minGPT's model types (gpt-mini: 6 layers of width 192 in 6
// heads, ...), else the import is refused asking for it.
struct ImportOptions {
    int64_t heads = 0;
};

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
                                 std::map<std::string, torch::Tensor>* seedWeights = nullptr,
                                 const ImportOptions& options = {});

// The layout the keys name (the prefix of a wrapper dropped); throws
// chargpt::Error when they name none of them.
StateDictNaming detectNaming(const std::vector<std::pair<std::string, torch::Tensor>>& tensors);

// Reads `path` (torch.save of a state_dict, an OrderedDict or a plain dict, or of
// a dict holding one under "model"/"state_dict"), infers the configuration,
// checks every name and shape, and returns a checkpoint of step 0 whose training
// settings (dropout, batch, learning rate, ...) are those of `training`. Throws
// chargpt::Error listing everything that does not fit.
Checkpoint importStateDict(const std::string& path, const CharTokenizer& vocabulary,
                           const std::string& vocabularySource, const RunConfig& training,
                           const ImportOptions& options = {});
// (A vocabulary with an end-of-text token given for a nanoGPT, minGPT or
// lecture model, that of its training text, is taken without it, as they number
// their characters from 0, unless its tokens with <|e|> number the token
// embedding's rows: a model exported from here.)

// Where the vocabulary of an import comes from; at most one is set. For a
// nanoGPT model none need be: its meta.pkl is found as sample.py finds it
// (findNanoGptMeta).
struct VocabularyRequest {
    std::string corpus;     // the training text: its sorted characters
    std::string vocabFile;  // a JSON vocabulary (readVocabularyFile)
    std::string meta;       // nanoGPT's meta.pkl (readNanoGptMeta)
};

// An import and what it found.
struct ImportedModel {
    Checkpoint checkpoint;
    StateDictNaming naming = StateDictNaming::SeedNotes;
    std::string vocabularySource;  // "the corpus X", "nanoGPT's meta.pkl X"
    std::string trainingState;     // PickledStateDict::trainingState
};

// importStateDict with the vocabulary found as `request` says: the file is
// read once, its layout decides what vocabulary it needs, and a nanoGPT
// checkpoint's meta.pkl is looked for when none is given. Throws
// chargpt::Error saying what is missing or does not fit.
ImportedModel importModel(const std::string& path, const VocabularyRequest& request, const RunConfig& training,
                          const ImportOptions& options = {});

// nanoGPT's meta.pkl (pickle.dump of {'vocab_size', 'itos', 'stoi'}), read by
// the pickle reader of model/io/Pickle.h (nothing in it is run) within
// kMaxVocabularyFileBytes: the vocabulary without an end-of-text token (or
// with one, "<|e|>" as id 0, when CharGPT Studio exported it). Its characters
// must be single, distinct and in code-point order (prepare.py sorts them),
// and itos, stoi and vocab_size must agree. Throws chargpt::Error
// saying which does not.
CharTokenizer readNanoGptMeta(const std::string& path);


// The vocabulary the book builds from its training text: <|e|> = 0, then the
// sorted distinct characters of the corpus (a built-in corpus's name, a file,
// or a folder as Corpus::load reads it: loadCorpusSource) from 1.
CharTokenizer vocabularyFromCorpus(const std::string& path);

// A vocabulary file: UTF-8 JSON, either a list whose entry i is token i
//   ["<|e|>", "\n", " ", "!", ...]            (a checkpoint's "vocab")
// or an object mapping each token to its index
//   {"<|e|>": 0, "\n": 1, " ": 2, ...}        (the book's char_tokenizer.char2ind)
// Token 0 is <|e|>; the others are single characters in increasing code-point
// order (a list without <|e|> first numbers its characters from 0). A pickle
// is read as nanoGPT's meta.pkl (readNanoGptMeta). Throws chargpt::Error
// saying which entry is wrong. A file larger than
// kMaxVocabularyFileBytes is refused before it is read.
CharTokenizer readVocabularyFile(const std::string& path);

// The most bytes a vocabulary file may take: 64 per token, for the largest
// vocabulary (a pretty-printed object entry such as `    "\ud83d\ude00": 65535,\n`
// is 27), plus some for the brackets and a byte-order mark.
constexpr std::size_t kMaxVocabularyFileBytes = std::size_t(RunConfig::kMaxVocabulary) * 64 + 4096;

}  // namespace chargpt
