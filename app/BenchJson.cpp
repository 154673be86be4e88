// SPDX-License-Identifier: GPL-3.0-or-later
// The bench's JSON summary: every figure in one object, printed as the last line.
#include "app/BenchFigures.h"

#include <cmath>
#include <iostream>
#include <string>

#include <nlohmann/json.hpp>

namespace chargpt::bench {

namespace {

// A figure for the JSON summary: three decimals, null when unknown.
nlohmann::json jsonFigure(double v) {
    if (!std::isfinite(v)) return nullptr;
    return std::round(v * 1000.0) / 1000.0;
}

nlohmann::ordered_json trainingJson(const std::vector<TrainFigure>& figures) {
    nlohmann::ordered_json training = nlohmann::ordered_json::object();
    for (const auto& f : figures) {
        const double gflops = f.modelGflops();
        training[f.name] = {
            {"tokens_per_s", jsonFigure(f.tokensPerSecond)},
            {"model_gflops", jsonFigure(gflops)},
            {"fp32_ceiling_beside_gflops", jsonFigure(f.ceilings.fp32)},
            {"fraction_of_fp32_ceiling", jsonFigure(gflops / f.ceilings.fp32)},
            {"fraction_of_own_precision_ceiling", jsonFigure(gflops / f.ceilings.of(f.config.bf16))},
            {"reference_tokens_per_s", jsonFigure(f.referenceTokensPerSecond)},
            {"ratio", jsonFigure(f.tokensPerSecond / f.referenceTokensPerSecond)}};
    }
    return training;
}

// The book preset in its default precision here against the reference's fp32 figure.
nlohmann::json bookDefaultJson(const std::vector<TrainFigure>& figures, const RunConfig& book) {
    const TrainFigure* bookDefault = trainFigureNamed(figures, std::string("book ") + (book.bf16 ? "bf16" : "fp32"));
    const TrainFigure* bookFp32 = trainFigureNamed(figures, "book fp32");
    return jsonFigure(bookDefault && bookFp32 ? bookDefault->tokensPerSecond / bookFp32->referenceTokensPerSecond
                                              : std::nan(""));
}

nlohmann::ordered_json profileJson(const StepProfile& profile) {
    nlohmann::ordered_json operators = nlohmann::ordered_json::array();
    for (const auto& op : profile.operators)
        operators.push_back({{"name", op.name}, {"ms_per_step", jsonFigure(op.msPerStep)},
                             {"calls_per_step", jsonFigure(op.callsPerStep)}});
    return {{"step_ms", jsonFigure(profile.stepMs)}, {"operators", std::move(operators)}};
}

nlohmann::ordered_json generationJson(const GenerationFigure& g) {
    return {{"precision", g.bf16 ? "bf16" : "fp32"},
            {"cached_fp32_chars_per_s", jsonFigure(g.cachedFp32)},
            {"cached_chars_per_s", jsonFigure(g.cached)},
            {"cached_exact_window_chars_per_s", jsonFigure(g.exactWindow)},
            {"recompute_chars_per_s", jsonFigure(g.recompute)},
            {"batched_samples", kBatchedSamples},
            {"batched_chars_per_s", jsonFigure(g.batched)},
            {"cached_bf16_weights_chars_per_s", jsonFigure(g.cachedBf16)},
            {"batched_bf16_weights_chars_per_s", jsonFigure(g.batchedBf16)},
            {"reference_chars_per_s", jsonFigure(g.reference)}};
}

nlohmann::ordered_json copiesJson(const CopiesFigure& copies) {
    return {{"index_build_s", jsonFigure(copies.buildSeconds)},
            {"index_mib", jsonFigure(copies.memoryMiB)},
            {"min_length", copies.minLength},
            {"calibrate_s", jsonFigure(copies.calibrateSeconds)},
            {"check_copied_ms", jsonFigure(copies.copiedMs)},
            {"check_validation_ms", jsonFigure(copies.unseenMs)},
            {"validation_share_copied", jsonFigure(copies.unseenShare)},
            {"target_ms", kCopyCheckTargetMs},
            {"ratio_to_target", jsonFigure(copies.slowerCheckMs() / kCopyCheckTargetMs)}};
}

nlohmann::ordered_json viewsJson(const ViewsFigure& views) {
    return {{"tokens_per_s_with_views", jsonFigure(views.withViews)},
            {"tokens_per_s_without_views", jsonFigure(views.withoutViews)},
            {"ratio", jsonFigure(views.ratio())}};
}

nlohmann::ordered_json runsJson(const RunsFigure& runs, const BenchOptions& o) {
    return {{"tokens_per_s_recorded", jsonFigure(runs.withRecording)},
            {"tokens_per_s_not_recorded", jsonFigure(runs.withoutRecording)},
            {"ratio", jsonFigure(runs.ratio())},
            {"recorder_share_of_step_time", jsonFigure(runs.recorderShare)},
            {"library_runs", o.libraryRuns},
            {"library_run_steps", o.libraryRunSteps},
            {"library_mib", jsonFigure(runs.libraryMiB)},
            {"library_write_s", jsonFigure(runs.generateSeconds)},
            {"gui_longest_stall_ms", jsonFigure(runs.gui.stallMs)}};
}

nlohmann::ordered_json scrubJson(const ScrubFigure& s, double targetMs) {
    return {{"kept_steps", jsonFigure(s.keptSteps)},
            {"moves", jsonFigure(s.moves)},
            {"median_ms", jsonFigure(s.medianMs)},
            {"p90_ms", jsonFigure(s.p90Ms)},
            {"max_ms", jsonFigure(s.maxMs)},
            {"arrived_median_ms", jsonFigure(s.arrivedMedianMs)},
            {"target_ms", targetMs},
            {"max_to_target", jsonFigure(s.maxMs / targetMs)},
            {"longest_stall_ms", jsonFigure(s.stallMs)},
            {"stall_target_ms", kScrubStallTargetMs},
            {"run_train_s", jsonFigure(s.trainSeconds)}};
}

nlohmann::ordered_json timelineJson(const TimelineFigure& t) {
    return {{"book", scrubJson(t.book, kScrubTargetBookMs)},
            {"fast", scrubJson(t.fast, kScrubTargetFastMs)},
            {"snapshots",
             {{"tokens_per_s_with", jsonFigure(t.withKeptWeights)},
              {"tokens_per_s_without", jsonFigure(t.withoutKeptWeights)},
              {"ratio", jsonFigure(t.ratio())},
              {"cost", jsonFigure(1.0 - t.ratio())},
              {"cost_target", kKeepingCostTarget},
              {"recorder_percent_with", jsonFigure(100.0 * t.recorderShareWith)},
              {"recorder_percent_without", jsonFigure(100.0 * t.recorderShareWithout)}}}};
}

nlohmann::ordered_json whyJson(const WhyFigure& w) {
    return {{"positions", w.positions},
            {"attribution_ms", jsonFigure(w.attributionMs)},
            {"attribution_target_ms", kAttributionTargetMs},
            {"attribution_gap", w.gap},  // of the order of 1e-7: not rounded to three decimals
            {"residual_sweep_s", jsonFigure(w.residualSweepS)},
            {"head_sweep_s", jsonFigure(w.headSweepS)},
            {"feed_forward_sweep_s", jsonFigure(w.feedForwardSweepS)},
            {"sweep_target_s", kPatchingSweepTargetS},
            {"slowest_sweep_to_target", jsonFigure(w.slowestSweepS() / kPatchingSweepTargetS)}};
}

}  // namespace

void printJson(const BenchOptions& o, const Figures& f) {
    nlohmann::ordered_json summary;
    summary["cpu_tier"] = tierName(f.tier.tier);
    summary["cpu_tier_forced"] = f.tier.forced;
    summary["cpu_best_tier"] = tierName(f.tier.cpu);
    summary["bf16_skipped"] = f.bf16Skipped.empty() ? nlohmann::ordered_json() : nlohmann::ordered_json(f.bf16Skipped);
    summary["threads"] = f.threads;
    summary["matmul_fp32_gflops"] = jsonFigure(f.ceilings.fp32);
    summary["matmul_bf16_gflops"] = jsonFigure(f.ceilings.bf16);
    summary["training"] = trainingJson(f.training);
    summary["book_default_precision"] = f.book.bf16 ? "bf16" : "fp32";
    summary["book_default_vs_fp32_reference"] = bookDefaultJson(f.training, f.book);
    summary["profile_book"] = profileJson(f.profile);
    summary["profile_fast"] = profileJson(f.fastProfile);
    summary["generation"] = generationJson(f.generation);
    summary["copies"] = copiesJson(f.copies);
    nlohmann::ordered_json health = nlohmann::ordered_json::object();
    for (const HealthFigure& h : f.health)
        health[h.preset] = {{"steps", h.steps},          {"every", h.every},
                            {"measured", h.measured},    {"step_ms", jsonFigure(h.stepMs)},
                            {"measure_ms", jsonFigure(h.measureMs)}, {"first_measure_ms", jsonFigure(h.firstMs)},
                            {"share_of_step", jsonFigure(h.share)},
                            {"ratio_to_target", jsonFigure(h.share / kHealthShareTarget)}};
    summary["health"] = health;
    summary["peak_rss_mib_book_training"] = jsonFigure(f.peakMiB);
    summary["gui_longest_stall_ms"] = jsonFigure(f.gui.stallMs);
    summary["gui_stall_after_tab_change_ms"] = jsonFigure(f.gui.afterTabChangeMs);
    summary["gui_stall_otherwise_ms"] = jsonFigure(f.gui.otherwiseMs);
    summary["views"] = viewsJson(f.views);
    summary["runs"] = runsJson(f.runs, o);
    summary["timeline"] = timelineJson(f.timeline);
    summary["why"] = whyJson(f.why);
    std::cout << summary.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << std::endl;
}

}  // namespace chargpt::bench
