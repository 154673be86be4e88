// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>

#include "model/io/Checkpoint.h"

namespace chargpt {

// Export to nanoGPT (github.com/karpathy/nanoGPT). Its import, and the
// meta.pkl of its vocabulary, are in model/io/PyTorchInterop.h.

// Empty when nanoGPT's GPT computes what a model of `config` computes, else
// why not: nanoGPT has every part, the exact GELU, a head tied to the token
// embedding and without bias, and one switch for every bias (a model with
// biases but none on q, k and v is written with zeros there, which computes
// the same).
std::string nanoGptExportProblem(const RunConfig& config);

// Writes `folder`/ckpt.pt as nanoGPT's train.py saves it (model, optimizer,
// model_args, iter_num, best_val_loss, config with `dataset`) and
// `folder`/meta.pkl as its prepare.py writes it, so that sample.py and
// train.py's init_from='resume' read them (meta.pkl from data/<dataset>/).
// The weights have no mask buffers (nanoGPT on PyTorch 2 registers none); the
// optimizer's two groups start without moments. Both files are written by
// writeFileAtomically. Throws chargpt::Error when nanoGptExportProblem says
// why, or the folder cannot be written.
void exportNanoGpt(const Checkpoint& checkpoint, const std::string& folder, const std::string& dataset);

}  // namespace chargpt
