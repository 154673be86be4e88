// SPDX-License-Identifier: GPL-3.0-or-later
// A run's training health in the run library (schema version 3): a row per
// measured step, its per-layer and per-head figures packed as little-endian
// float64s (per layer: gradient norm, update ratio, dead share; then per layer
// and head: entropy, previous-character share), read back only when the blob
// holds exactly what its counts say; and (version 4) a row per warning said.
#include <sqlite3.h>

#include <cmath>
#include <cstring>

#include "model/record/RunLibrary.h"
#include "model/record/RunLibraryDetail.h"

namespace chargpt {

using namespace runlibrary;  // Statement, Transaction

namespace {

void putDouble(std::string& out, double v) {
    uint64_t bits = 0;
    std::memcpy(&bits, &v, sizeof bits);
    for (int i = 0; i < 8; ++i) out.push_back(char((bits >> (8 * i)) & 0xff));
}

double getDouble(std::string_view in, std::size_t index) {
    uint64_t bits = 0;
    for (int i = 0; i < 8; ++i) bits |= uint64_t(uint8_t(in[index * 8 + std::size_t(i)])) << (8 * i);
    double v = 0.0;
    std::memcpy(&v, &bits, sizeof v);
    return std::isfinite(v) ? v : std::nan("");
}

std::size_t headsOf(const HealthFigures& f) { return f.headEntropy.empty() ? 0 : f.headEntropy.front().size(); }

std::string pack(const HealthFigures& f, std::size_t layers, std::size_t heads) {
    std::string out;
    out.reserve(8 * (3 * layers + 2 * layers * heads));
    auto at = [](const std::vector<double>& v, std::size_t i) { return i < v.size() ? v[i] : std::nan(""); };
    for (const auto* values : {&f.layerGradNorm, &f.updateRatio, &f.deadShare})
        for (std::size_t l = 0; l < layers; ++l) putDouble(out, at(*values, l));
    for (const auto* grid : {&f.headEntropy, &f.previousShare})
        for (std::size_t l = 0; l < layers; ++l)
            for (std::size_t h = 0; h < heads; ++h) putDouble(out, l < grid->size() ? at((*grid)[l], h) : std::nan(""));
    return out;
}

// A warning the library keeps and gives back: a step, layer and counts in
// range and a finite factor (NaN reads back as unknown, so none is kept).
bool knownWarning(const HealthWarning& w) {
    const int64_t kind = int64_t(w.kind);
    return kind >= 0 && kind <= int64_t(HealthWarning::Kind::EntropyCollapse) && w.step >= 0 &&
           w.step <= RunLibrary::kMaxStep && w.layer >= -1 && w.layer < RunLibrary::kMaxHealthLayers &&
           std::isfinite(w.factor) && w.factor >= 0.0 && w.factor <= 1e15 && w.total >= 0 &&
           w.total <= int64_t(RunLibrary::kMaxHealthLayers) * RunLibrary::kMaxHealthHeads && w.count >= 0 &&
           w.count <= w.total;
}

}  // namespace

void RunLibrary::addHealth(int64_t run, const std::vector<HealthFigures>& figures,
                           const std::vector<HealthWarning>& warnings) {
    if (figures.empty() && warnings.empty()) return;
    Transaction write(db_);
    checkOwnSchema();
    Statement insert(db_, "INSERT OR REPLACE INTO health VALUES(?,?,?,?,?,?,?)");
    for (const HealthFigures& f : figures) {
        const std::size_t layers = f.updateRatio.size(), heads = headsOf(f);
        if (f.step < 0 || f.step > kMaxStep || layers > std::size_t(kMaxHealthLayers) ||
            heads > std::size_t(kMaxHealthHeads) || 8 * (3 * layers + 2 * layers * heads) > std::size_t(kMaxValueBytes))
            continue;  // not a model's: nothing to keep
        insert.integer(1, run).integer(2, f.step).real(3, f.loss).real(4, f.gradNorm);
        insert.integer(5, int64_t(layers)).integer(6, int64_t(heads)).blob(7, pack(f, layers, heads));
        insert.run();
    }
    Statement said(db_, "INSERT OR REPLACE INTO health_warnings VALUES(?,?,?,?,?,?,?)");
    for (const HealthWarning& w : warnings) {
        if (!knownWarning(w)) continue;
        said.integer(1, run).integer(2, w.step).integer(3, int64_t(w.kind)).integer(4, w.layer);
        said.real(5, w.factor).integer(6, w.count).integer(7, w.total);
        said.run();
    }
    write.commit();
}

std::vector<HealthWarning> RunLibrary::healthWarnings(int64_t run) {
    std::vector<HealthWarning> found;
    if (tables_ < 4) return found;
    Statement select(db_,
                     "SELECT step, kind, layer, factor, count, total FROM health_warnings WHERE run=? "
                     "ORDER BY step, kind, layer LIMIT ?");
    select.integer(1, run).integer(2, kMaxReadWarnings);
    while (true) {
        const Statement::Row row = select.tryStep();
        if (row == Statement::Row::Done) break;
        if (row == Statement::Row::TooBig) continue;
        HealthWarning w;
        const int64_t kind = select.integerAt(1);
        if (kind < 0 || kind > int64_t(HealthWarning::Kind::EntropyCollapse)) continue;
        w.kind = HealthWarning::Kind(kind);
        w.step = select.integerAt(0);
        w.layer = select.integerAt(2);
        w.factor = select.realAt(3);
        w.count = select.integerAt(4);
        w.total = select.integerAt(5);
        if (knownWarning(w)) found.push_back(w);
    }
    return found;
}

std::vector<HealthFigures> RunLibrary::health(int64_t run) {
    std::vector<HealthFigures> found;
    if (tables_ < 3) return found;
    Statement select(db_,
                     "SELECT step, loss, grad_norm, layers, heads, figures FROM health WHERE run=? "
                     "ORDER BY step LIMIT ?");
    select.integer(1, run).integer(2, kMaxReadHealth);
    while (true) {
        const Statement::Row row = select.tryStep();
        if (row == Statement::Row::Done) break;
        if (row == Statement::Row::TooBig) continue;  // over the value limit: left out
        const int64_t step = select.integerAt(0), layers = select.integerAt(3), heads = select.integerAt(4);
        const std::string_view bytes = select.blobAt(5);
        if (step < 0 || step > kMaxStep || layers < 0 || layers > kMaxHealthLayers || heads < 0 ||
            heads > kMaxHealthHeads || bytes.size() != std::size_t(8 * (3 * layers + 2 * layers * heads)))
            continue;
        HealthFigures f;
        f.step = step;
        f.loss = select.realAt(1);
        f.gradNorm = select.realAt(2);
        std::size_t index = 0;
        for (auto* values : {&f.layerGradNorm, &f.updateRatio, &f.deadShare})
            for (int64_t l = 0; l < layers; ++l) values->push_back(getDouble(bytes, index++));
        for (auto* grid : {&f.headEntropy, &f.previousShare}) {
            grid->assign(std::size_t(layers), std::vector<double>(std::size_t(heads)));
            for (auto& layer : *grid)
                for (double& v : layer) v = getDouble(bytes, index++);
        }
        found.push_back(std::move(f));
    }
    return found;
}

}  // namespace chargpt
