// SPDX-License-Identifier: GPL-3.0-or-later
// `chargpt attention`: draws every head of one layer for a text as a grid of
// heatmaps, with the widgets' code, into a PNG or SVG file.
#include <torch/torch.h>

#include <algorithm>
#include <cstdint>
#include <iostream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "app/cli/CliArgs.h"
#include "app/cli/CliCommon.h"
#include "app/cli/CliSnapshots.h"
#include "model/io/AtomicFile.h"
#include "model/io/Checkpoint.h"
#include "model/runtime/Error.h"
#include "model/text/Utf8.h"

// Qt after LibTorch: the grid is painted with the widgets' code.
#include <QByteArray>
#include <QFont>
#include <QGuiApplication>
#include <QPainter>
#include <QSize>
#include <QString>

#include "app/AttentionBridge.h"
#include "widgets/AttentionGrid.h"
#include "widgets/AttentionHeatmap.h"
#include "widgets/ViewExport.h"

using namespace chargpt;

namespace {

// Pixels: wide enough for the title and legend line of AttentionGrid::paintLayer.
constexpr int kMinimumGridWidth = 760;

}  // namespace

int runAttention(const Args& args) {
    if (!args.has("text"))
        throw Error("attention needs --text TEXT, the characters whose attention is drawn.");
    if (!args.has("out")) throw Error("attention needs --out FILE.png or --out FILE.svg.");
    const std::string out = args.text("out", "");
    const std::string suffix = suffixOf(out);
    if (suffix != ".png" && suffix != ".svg")
        throw Error("--out must name a .png or .svg file, not '" + out + "'.");
    checkSaveTarget(out);  // before the checkpoint is read: a FIFO, a folder, a hard link are refused
    const std::string text = args.text("text", "");
    utf8::decodeOrThrow(text, "--text");
    if (text.empty()) throw Error("--text is empty: give the characters whose attention is drawn.");
    useThreads(args.integer(settingOption("threads"), 0));

    const Checkpoint checkpoint = loadCheckpointOrSnapshot(args.target);
    const int layers = static_cast<int>(checkpoint.config.n_layer);
    if (layers == 0)
        throw Error("the model has no layers (n_layer 0, a rung of the architecture ladder): it has no attention "
                    "to draw.");
    const int layer = static_cast<int>(args.integer("layer", layers - 1));

    // The picture's size follows from the heads and the characters: refused
    // before anything is computed when a side would pass the budget.
    const int64_t keys = std::min<int64_t>(int64_t(QString::fromStdString(text).toStdU32String().size()),
                                           checkpoint.config.sequence_len);
    QSize planned = AttentionGrid::exportSize(int(std::min<int64_t>(checkpoint.config.n_head(), 1 << 16)), int(keys));
    planned.setWidth(std::max(planned.width(), kMinimumGridWidth));
    if (planned.width() > ViewExport::kMaxPictureSide || planned.height() > ViewExport::kMaxPictureSide)
        throw Error("--out " + out + " would be " + std::to_string(planned.width()) + " x " +
                    std::to_string(planned.height()) + " pixels (" + std::to_string(checkpoint.config.n_head()) +
                    " heads over " + std::to_string(keys) + " characters); a picture is at most " +
                    std::to_string(ViewExport::kMaxPictureSide) + " pixels a side: draw a shorter --text.");

    const AttentionProbe probe = computeAttention(checkpoint, QString::fromStdString(text), layer);
    if (!probe.unknownPositions.isEmpty()) {
        std::vector<std::pair<std::string, long long>> first;
        for (qsizetype i = 0; i < probe.unknownPositions.size() && i < 10; ++i)
            first.emplace_back(probe.unknownCharacters[i].toStdString(), probe.unknownPositions[i]);
        reportLeftOut(static_cast<std::size_t>(probe.unknownPositions.size()), "character(s) of --text", first);
    }
    if (probe.croppedCharacters > 0)
        std::cerr << "chargpt: --text is longer than the model's context; drawing its last "
                  << checkpoint.config.sequence_len << " characters.\n";

    // Painting text needs a QGuiApplication.
    const auto app = paintingApplication(args.program);

    const LayerAttention& heads = probe.attention.layers.first();
    const QFont font = QGuiApplication::font();
    // The grid's title and legend share one line above the heads: a few heads
    // over a short text would give them too narrow a line.
    QSize size = AttentionGrid::exportSize(heads);
    size.setWidth(std::max(size.width(), kMinimumGridWidth));
    QString error;
    QByteArray picture;
    const bool drawn = ViewExport::renderPicture(
        QString::fromStdString(out), size,
        [&](QPainter& painter, const QRectF& target) {
            AttentionGrid::paintLayer(painter, target, layer, heads, font);
        },
        &picture, &error);
    if (!drawn) throw Error(error.toStdString());
    // The one save of every file the CLI writes: only a regular file with one link, or nothing, is replaced.
    writeFileAtomically(out, std::string_view(picture.constData(), static_cast<std::size_t>(picture.size())));
    std::cerr << "chargpt: wrote " << terminalSafe(out) << ": layer " << layer + 1 << " (--layer " << layer << "), "
              << heads.heads.size() << " heads, "
              << probe.text.toStdU32String().size() << " characters\n";
    return 0;
}

