// SPDX-License-Identifier: GPL-3.0-or-later
// The commands about files rather than models at work: `info` (what a
// checkpoint holds), `import` (a PyTorch state_dict into a checkpoint),
// `export-config` (settings for python/train_ddp.py) and `corpora` (the
// built-in corpora).
#include <torch/torch.h>

#include <cstdint>
#include <cstdio>
#include <iostream>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/cli/CliArgs.h"
#include "app/cli/CliCommon.h"
#include "app/cli/CliSnapshots.h"
#include "model/io/AtomicFile.h"
#include "model/io/Checkpoint.h"
#include "model/io/ConfigJson.h"
#include "model/io/NanoGpt.h"
#include "model/io/PyTorchInterop.h"
#include "model/runtime/Error.h"
#include "model/text/BuiltinCorpora.h"
#include "model/text/Corpus.h"
#include "model/train/RunConfig.h"

using namespace chargpt;

namespace {

// `chargpt info` on a model file of another project (nanoGPT's ckpt.pt, a
// state_dict): its layout, what it says of its training, and how to import it.
// False when it is none of those.
bool describeForeignFile(const std::string& path) {
    const std::optional<ForeignModelFile> foreign = recognizeForeignModel(path);
    if (!foreign) return false;
    const PickledStateDict& file = foreign->file;
    const StateDictNaming naming = foreign->naming;
    std::cout << "file            " << terminalSafe(path, LineBreaks::Escape) << '\n'
              << "layout          " << toString(naming) << " (" << file.tensors.size() << " tensors"
              << (file.foundUnder.empty() ? std::string() : " under \"" + terminalSafe(file.foundUnder) + "\"")
              << "), not a CharGPT Studio checkpoint\n";
    if (!file.trainingState.empty()) std::cout << "training        " << terminalSafe(file.trainingState) << '\n';
    if (!file.dataset.empty()) std::cout << "dataset         " << terminalSafe(file.dataset) << '\n';
    std::cout << "import it with  chargpt import " << terminalSafe(path, LineBreaks::Escape) << " -o OUT.pt"
              << (naming == StateDictNaming::NanoGPT ? " (meta.pkl is looked for as sample.py does, or --meta)"
                                                     : " --corpus TEXT")
              << '\n';
    return true;
}

}  // namespace

int runInfo(const Args& args) {
    Checkpoint c;
    try {
        c = loadCheckpointOrSnapshot(args.target);
    } catch (const Error&) {
        if (describeForeignFile(args.target)) return 0;
        throw;
    }
    const RunConfig& g = c.config;
    auto last = [](const std::vector<float>& v) {
        return v.empty() ? std::string("-") : std::to_string(v.back()).substr(0, 6);
    };
    std::cout << "checkpoint      " << terminalSafe(args.target, LineBreaks::Escape) << '\n'
              << "parameters      " << g.parameterCount() << '\n'
              << "vocabulary      " << g.vocab_size << " tokens ("
              << (c.tokenizer.hasEndOfText() ? "end-of-text + " + std::to_string(g.vocab_size - 1) + " characters"
                                             : std::to_string(g.vocab_size) + " characters, no end-of-text token")
              << ")\n"
              << "emb_size        " << g.emb_size << '\n'
              << "head_size       " << g.head_size << " (" << g.n_head() << " heads)\n"
              << "n_layer         " << g.n_layer << '\n';
    if (!g.isFull())  // a rung of the architecture ladder
        std::cout << "parts           " << g.missingParts() << " (a rung of the architecture ladder)\n";
    if (!g.isBookArithmetic())  // a model imported from nanoGPT, minGPT or the lecture's code
        std::cout << "arithmetic      " << g.arithmeticDifferences() << " (unlike the book's CharGPT)\n";
    std::cout << "sequence_len    " << g.sequence_len << '\n'
              << "dropout         " << g.dropout << '\n'
              << "batch_size      " << g.batch_size << '\n'
              << "learning_rate   " << g.learning_rate << '\n'
              << "step            " << c.step << '\n';
    if (c.weightsStep != c.step)
        std::cout << "weights_step    " << c.weightsStep
                  << " (the weights of the best validation loss, put back after step " << c.step << ")\n";
    std::cout
              << "tokens_seen     " << c.tokensSeen << '\n'
              << "train_loss      " << last(c.history.evalTrainLoss) << " (last evaluation)\n"
              << "val_loss        " << last(c.history.evalValLoss) << " (last evaluation)\n"
              << "evaluations     " << c.history.evalSteps.size() << '\n';
    return 0;
}

int runImport(const Args& args) {
    if (int(args.has("corpus")) + int(args.has("vocab")) + int(args.has("meta")) > 1)
        throw Error("import takes the vocabulary one way: --corpus PATH (the text the model was trained on), "
                    "--vocab FILE.json or --meta META.pkl (nanoGPT's).");
    if (!args.has("out")) throw Error("import needs -o OUT.pt, the checkpoint to write.");
    const std::string out = args.text("out", "");
    checkSaveTarget(out);
    VocabularyRequest request;
    request.corpus = args.text("corpus", "");
    request.vocabFile = args.text("vocab", "");
    request.meta = args.text("meta", "");
    ImportOptions options;
    options.heads = args.integer("heads", 0);
    // Training settings: the book preset's, in float32, as PyTorch computed the
    // model (bf16 would round what the comparison with PyTorch checks).
    RunConfig training = *RunConfig::preset("book");
    training.bf16 = false;
    const ImportedModel imported = importModel(args.target, request, training, options);
    saveCheckpoint(out, imported.checkpoint);
    const RunConfig& c = imported.checkpoint.config;
    std::cerr << "chargpt: imported " << terminalSafe(args.target) << " (" << toString(imported.naming)
              << "): " << c.n_layer << " layers, " << c.n_head() << " heads of " << c.head_size << ", width "
              << c.emb_size << ", context " << c.sequence_len << ", " << c.vocab_size << " tokens from "
              << terminalSafe(imported.vocabularySource) << ", " << c.parameterCount() << " parameters";
    if (!c.isBookArithmetic()) std::cerr << "; unlike the book's CharGPT: " << c.arithmeticDifferences();
    if (!imported.trainingState.empty()) std::cerr << "; " << terminalSafe(imported.trainingState);
    std::cerr << "; wrote " << terminalSafe(out) << '\n';
    return 0;
}

int runExport(const Args& args) {
    if (args.text("format", "") != "nanogpt")
        throw Error("export needs --format nanogpt (the one format it writes), not '" + args.text("format", "") + "'.");
    if (!args.has("out")) throw Error("export needs -o DIR, the folder to write ckpt.pt and meta.pkl into.");
    const std::string dataset = args.text("dataset", "chargpt");
    if (dataset.empty() || dataset.find_first_of("/\\") != std::string::npos || dataset == "." || dataset == "..")
        throw Error("--dataset is a folder name of nanoGPT's data/, not '" + dataset + "'.");
    const Checkpoint c = loadCheckpointOrSnapshot(args.target);
    if (const std::string problem = nanoGptExportProblem(c.config); !problem.empty()) throw Error(problem);
    const std::string folder = args.text("out", "");
    exportNanoGpt(c, folder, dataset);
    std::cerr << "chargpt: wrote " << terminalSafe(folder) << "/ckpt.pt and meta.pkl for nanoGPT (dataset "
              << terminalSafe(dataset) << ": sample.py and train.py read meta.pkl from data/" << terminalSafe(dataset)
              << "/)\n";
    return 0;
}

int runExportConfig(const Args& args) {
    if (!args.has("out")) throw Error("export-config needs -o CONFIG.json.");
    checkSaveTarget(args.text("out", ""));  // before the checkpoint is read
    RunConfig config;
    if (!args.target.empty()) {
        if (args.has("preset")) throw Error("give a checkpoint or --preset, not both.");
        config = loadCheckpointOrSnapshot(args.target).config;
    } else {
        const std::string presetName = args.text("preset", "fast");
        auto preset = RunConfig::preset(presetName);
        if (!preset) throw Error("unknown preset '" + presetName + "' (book, fast or tiny).");
        config = *preset;
    }
    config.max_steps = args.integer(settingOption("max_steps"), config.max_steps);
    config.batch_size = args.integer(settingOption("batch_size"), config.batch_size);
    config.setLearningRate(args.number(settingOption("learning_rate"), config.learning_rate));
    config.seed =
        static_cast<uint64_t>(args.integer(settingOption("seed"), static_cast<int64_t>(config.seed)));
    if (const ConfigProblem problem = config.validate()) throw Error(problem.message());
    writeConfigJson(args.text("out", ""), config);
    std::cerr << "chargpt: wrote " << terminalSafe(args.text("out", "")) << '\n';
    return 0;
}

namespace {

// `chargpt corpora`: the built-in corpora (or the one named) with their
// figures as loadCorpusSource reads them; vocabulary counts end-of-text.
}  // namespace

int runCorpora(const Args& args) {
    std::vector<std::string> names = builtinCorpusNames();
    if (!args.target.empty()) {
        if (!isBuiltinSource(args.target)) builtinCorpusText(args.target);  // says which exist
        names = {args.target};
    }
    nlohmann::ordered_json list = nlohmann::ordered_json::array();
    bool allRead = true;
    if (!args.has("json"))
        std::cout << "name                   bytes   characters   vocabulary   description\n";
    for (const std::string& name : names) {
        nlohmann::ordered_json entry;
        entry["name"] = name;
        try {
            const Corpus corpus = loadCorpusSource(name);
            const int64_t vocabulary = corpus.buildTokenizer().vocabSize();
            entry["bytes"] = corpus.byteCount();
            entry["characters"] = corpus.charCount();
            entry["vocabulary"] = vocabulary;
            entry["description"] = builtinCorpusDescription(name);
            if (!args.has("json")) {
                char line[160];
                std::snprintf(line, sizeof line, "%-16s %11zu %12zu %12lld   ", terminalSafe(name, LineBreaks::Escape).c_str(), corpus.byteCount(),
                              corpus.charCount(), static_cast<long long>(vocabulary));
                std::cout << line << builtinCorpusDescription(name) << '\n';
            }
        } catch (const Error& e) {
            // builtin:python without Python: the others are still listed.
            allRead = false;
            entry["bytes"] = entry["characters"] = entry["vocabulary"] = nullptr;
            entry["description"] = builtinCorpusDescription(name);
            entry["error"] = e.what();
            if (!args.has("json")) std::cout << terminalSafe(name, LineBreaks::Escape) << "   (not available: " << terminalSafe(e.what()) << ")\n";
        }
        list.push_back(std::move(entry));
    }
    if (args.has("json")) {
        nlohmann::ordered_json out;
        out["corpora"] = std::move(list);
        printJsonLine(out);
    }
    return allRead ? 0 : 1;
}

