// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The plain values that cross from app/ to the widgets, each defined once:
// the settings' assessment, the run state and why a run ended, the corpus and
// model summaries, training progress, the attention probe, a head's scores,
// generation options and one step of step mode. Qt and the standard-library
// headers of model/ only (no LibTorch: the loss store, model/train/LossCurve.h,
// and the settings), so moc, the widgets and their tests see them as they are.
// The settings themselves are chargpt::RunConfig (model/train/RunConfig.h), as
// the settings panel edits them. app/ fills the rest from the model's own types
// (docs/ARCHITECTURE.md).

#include <QMetaType>
#include <QString>
#include <QStringList>
#include <QVector>

#include <limits>
#include <optional>

#include "model/record/RunWords.h"
#include "model/train/HealthFigures.h"
#include "model/train/LossCurve.h"
#include "model/train/RunConfig.h"
#include "model/train/RunFigures.h"
#include "widgets/AttentionData.h"
#include "widgets/InsideData.h"

// What the settings panel shows under the fields as the user types
// (app/ModelBridge.h: assessSettings).
struct SettingsAssessment {
    QString problem;         // empty when the settings can train; else a sentence
    QStringList badFields;   // keys of the fields the problem is about ("emb_size", "head_size")
    int heads = 0;           // ModelConfig::n_head() when the head size divides the width
    qint64 parameters = 0;   // for the given vocabulary
    qint64 memoryBytes = 0;  // rough peak while training
    // How many times the run reads each character of the training text
    // (NaN: no corpus, or only a time limit), and the count above which it
    // will memorise the text (chargpt::kManyPasses).
    double passes = std::numeric_limits<double>::quiet_NaN();
    double manyPasses = 0.0;
};

// Where a training run stands. Starting: asked, the worker prepares the data;
// Stopping: asked to stop, the run ends after its current step.
enum class RunState { Idle, Starting, Training, Paused, Stopping };

// Why a run ended: the trainer's, the run library's and the window's one type.
using EndReason = chargpt::EndReason;

// Why a generation ended: it reached its length (or the model's end of
// text), Stop was pressed, or it failed (a message says why).
enum class GenerationEnd { Finished, Stopped, Error };

// "finished", "time limit", "stopped", "non-finite loss" or "error": the run
// library's words (model/train/EndReason.h), as the benchmark's JSON spells them.
inline QString runEndName(EndReason reason) {
    const std::string_view text = chargpt::toString(reason);
    return QString::fromLatin1(text.data(), qsizetype(text.size()));
}

// Where the vocabulary of an imported state_dict comes from: the loaded
// corpus, another corpus file or folder, or a JSON vocabulary file.
enum class VocabularySource { LoadedCorpus, CorpusText, VocabularyFile };

// A loaded text.
struct CorpusSummary {
    QString name;            // shown to the user
    QString source;          // "builtin:tang300", "builtin:song100", "builtin:python", a file or a folder
    qint64 bytes = 0;
    qint64 characters = 0;
    qint64 tokens = 0;       // characters plus one end-of-text between documents
    int vocabularySize = 0;  // its own, including end-of-text
    // The figures below read the text as a run would: with the vocabulary of
    // the trained model that it would train further (its size here; 0: none,
    // the text's own), whose unknown characters are left out (counted here).
    int modelVocabularySize = 0;
    qint64 unknownCharacters = 0;
    // The vocabulary a run on it reads it with, and the tokens that leaves.
    int readVocabularySize() const { return modelVocabularySize > 0 ? modelVocabularySize : vocabularySize; }
    qint64 readTokens() const { return tokens - unknownCharacters; }
    qint64 trainingTokens = 0;  // the part trained on (the rest is for validation)
    // How many documents there are, and how many of them are the validation
    // part (whole documents drawn with the run's seed); 0: the end of the text.
    qint64 documents = 0;
    qint64 validationDocuments = 0;
    double unigramEntropy = std::numeric_limits<double>::quiet_NaN();  // nats, of the training part
    QString preview;  // its start, as read (characters left out are not there)
    QStringList warnings;
    // The start of the validation part (as model/train/Dataset splits it), about 600 characters, and as many
    // from the start of the training part: the Surprise view's default texts.
    QString validationSample;
    QString trainingSample;
};

// The model the worker holds, as the side panel and the window show it.
// Its RunFigures are those the worker last reported: its step, tokens and best
// evaluation, and the figures of the run that trains it.
struct ModelSummary : chargpt::RunFigures {
    bool exists = false;
    chargpt::RunConfig settings;
    qint64 parameters = 0;
    int vocabularySize = 0;
    QString checkpointPath;  // set when the model came from or went to a file
    QString autosavePath;    // the file its run autosaves to; empty when no run here trained it
    bool imported = false;   // trained in Python and imported: training continues it
    // The step the weights are from: earlier than `step` when Restore best put
    // earlier weights back; none (or `step`): the weights are `step`'s own.
    std::optional<qint64> weightsStep;
    // The history so far: the whole of it for a model opened from a checkpoint;
    // while it trains, the evaluations (the steps go to the loss plot only).
    chargpt::LossCurve history;

    // A model that has trained (here, or in Python and imported): one that a
    // run would train further rather than replace, and whose vocabulary a
    // corpus is read with.
    static bool isTrained(bool exists, qint64 step, bool imported) {
        return exists && (step > 0 || imported);
    }
    bool trained() const { return isTrained(exists, step, imported); }
};

// Points and figures since the previous update of a run; the worker fills one
// from the model's StepFigures and merges steps, so the window receives at
// most ~30 a second however fast training runs.
struct TrainingProgress : chargpt::RunFigures {
    chargpt::LossCurve curve;  // the steps and evaluations since the previous update
    // The training health measured since the previous update, and the warnings found.
    std::vector<chargpt::HealthFigures> health;
    std::vector<chargpt::HealthWarning> warnings;
    qint64 totalSteps = 0;  // 0: only a time limit
    double loss = std::numeric_limits<double>::quiet_NaN();
    double etaSeconds = std::numeric_limits<double>::quiet_NaN();
    double timeLimitSeconds = 0.0;
    double passes = std::numeric_limits<double>::quiet_NaN();  // epochs so far: passes over the training text
};

// The attention of a probe text, ready for AttentionGrid and AttentionOverview.
struct AttentionProbe {
    // layers[i] is layer firstLayer + i of the model; each head a T x T causal
    // matrix labelled with the characters of `text`, NaN above the diagonal.
    ModelAttention attention;
    int firstLayer = 0;
    int modelLayers = 0;  // layers of the model, whether computed or not
    // The T characters the model saw: the probe without the characters it does
    // not know, cropped to its last sequence_len characters.
    QString text;
    // Characters of the probe the vocabulary lacks, left out: their positions (in
    // characters, i.e. code points, of the probe as given) and the characters.
    QVector<int> unknownPositions;
    QStringList unknownCharacters;
    // Known characters dropped from the front to fit the context.
    int croppedCharacters = 0;
    // How far each head's attention on the same text moved since step A (the
    // timeline's mark): attentionChange, changes[layer][head] for the layers
    // of `attention`; empty when nothing is compared.
    QVector<QVector<double>> changes;
    std::optional<qint64> comparedStep;  // step A; none when nothing is compared
};

// The scaled scores q k^T / sqrt(H) of one head for a probe text, before the
// softmax: what the softmax lab shows "from the live model".
struct HeadScores {
    int layer = 0, head = 0;
    int headSize = 0;
    QStringList characters;  // the T characters of the probe the model saw
    QVector<float> scaled;   // T x T row-major, before the mask
    QVector<float> masked;   // the same with -inf above the diagonal
    double scaledStd = 0.0;    // standard deviation of all T x T scaled scores
    double maskedStd = 0.0;    // of the finite (unmasked) scaled scores
    double unscaledStd = 0.0;  // of all q k^T before dividing by sqrt(H)
    int size() const { return int(characters.size()); }
};

// What the user asked to generate.
struct GenerationOptions {
    QString prompt;
    double temperature = 1.0;  // 0: always the likeliest character
    int topK = 0;              // 0: all characters
    double topP = 1.0;
    int length = 200;          // characters to generate
    quint64 seed = 12046;
    // Samples of the prompt generated together (Generate only; Step makes
    // one): sample i uses seed + i - 1 and is what that seed alone writes.
    int samples = 1;
};

// One character of step mode and why it was picked.
struct GenerationStep {
    QString character;
    double probability = 0.0;
    QStringList candidates;  // likeliest first
    QVector<double> probabilities;
    std::optional<int> picked;  // index of `character` among the candidates, if it is one
    int layer = 0;
    QVector<AttentionMatrix> attentionRows;  // one 1 x T row per head of `layer`
    bool finished = false;  // the sampler will give no more characters
    bool attentionOnly = false;  // the same character, rows of another layer
    // The logit lens of the step: the last positions of the model's window,
    // the newest (last column) predicting `character`.
    LogitLens lens;
};

// The spans of a generated text (not its prompt) found verbatim in the
// training text: starts and lengths in characters (code points) of the
// generated text, in order, disjoint; the share of its characters they cover
// (NaN: nothing was checked); spans are minimumLength characters or longer.
struct CopiedSpans {
    QVector<int> starts, lengths;
    double share = std::numeric_limits<double>::quiet_NaN();
    int minimumLength = 8;
};

Q_DECLARE_METATYPE(chargpt::RunConfig)
Q_DECLARE_METATYPE(RunState)
Q_DECLARE_METATYPE(chargpt::EndReason)
Q_DECLARE_METATYPE(GenerationEnd)
Q_DECLARE_METATYPE(VocabularySource)
Q_DECLARE_METATYPE(CorpusSummary)
Q_DECLARE_METATYPE(ModelSummary)
Q_DECLARE_METATYPE(TrainingProgress)
Q_DECLARE_METATYPE(AttentionProbe)
Q_DECLARE_METATYPE(HeadScores)
Q_DECLARE_METATYPE(GenerationOptions)
Q_DECLARE_METATYPE(GenerationStep)
Q_DECLARE_METATYPE(CopiedSpans)
