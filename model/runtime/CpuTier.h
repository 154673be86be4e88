// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <string>

// The CPU tier: which of the model's kernels run (model/nn/kernels/KernelTiers.h)
// and how far LibTorch's own kernels may go, one idea picked once per process.
// The standard library and cpuid only, so that the launcher of `chargpt`
// (which loads no LibTorch) answers --version and refuses a tier with it.

namespace chargpt {

// Lowest first; each tier runs on a CPU that has the tiers below it.
enum class CpuTier {
    Generic,     // plain x86-64 (or any CPU): the compiler's baseline
    Avx2,        // AVX2 and FMA: 16 ymm registers of 8 floats
    Avx512,      // AVX-512 F, BW, VL and DQ: 32 zmm registers of 16 floats
    Avx512Bf16,  // and the bf16 dot product (VDPBF16PS): bf16 multiplied natively
    Amx,         // and AMX-BF16 tiles (LibTorch's oneDNN only; our kernels are avx512-bf16's)
};
constexpr CpuTier kAllTiers[] = {CpuTier::Generic, CpuTier::Avx2, CpuTier::Avx512, CpuTier::Avx512Bf16,
                                 CpuTier::Amx};

// "generic", "avx2", "avx512", "avx512-bf16", "amx": the names CHARGPT_CPU takes.
const char* tierName(CpuTier tier);
// The tier of that name; false for none.
bool tierFromName(const std::string& name, CpuTier* tier);
// Whether the tier multiplies bf16 natively (AVX512-BF16 or AMX); without it
// bf16 is emulated and slower than fp32.
inline bool tierHasNativeBf16(CpuTier tier) { return tier >= CpuTier::Avx512Bf16; }

// The highest tier this CPU (and the operating system, which must save its
// registers) runs.
CpuTier cpuBestTier();
// The highest tier this build has kernels for: generic where it is built
// without x86 code (not x86, -DCHARGPT_PORTABLE=ON, clang, ThreadSanitizer).
CpuTier builtTopTier();

struct TierChoice {
    CpuTier tier = CpuTier::Generic;   // the tier in force
    CpuTier cpu = CpuTier::Generic;    // cpuBestTier()
    CpuTier built = CpuTier::Generic;  // builtTopTier()
    bool forced = false;               // CHARGPT_CPU named it
    // Empty, or why CHARGPT_CPU was refused (an unknown name, a tier this CPU
    // or build lacks), in one sentence that starts with the variable; the
    // tier in force is then the best there is.
    std::string refusal;
};
// The choice for CHARGPT_CPU = `forced` (null or empty: not set) on a CPU
// whose best tier is `cpu` and a build whose top is `built`.
TierChoice chooseTier(const char* forced, CpuTier cpu, CpuTier built);

// The process's choice, made once, from CHARGPT_CPU, on first use (it
// changes nothing else).
const TierChoice& cpuTierChoice();
// cpuTierChoice().tier.
CpuTier cpuTier();
// What a program's main() calls first, before any LibTorch call: the choice,
// and where CHARGPT_CPU forced a tier, LibTorch capped to it (capLibraries).
// A refusal changes nothing: the program says so and stops.
const TierChoice& startCpuTier();

// Caps LibTorch to `tier` in this process's environment, where it reads them
// once, on its first operation: ATEN_CPU_CAPABILITY (its own vectorised
// kernels: default, avx2, avx512), ONEDNN_MAX_CPU_ISA (oneDNN's), and for
// generic and avx2 OPENBLAS_CORETYPE (the BLAS of its fp32 products, which
// reads it as it loads: in effect only for a program started after this
// call, as `chargpt`'s launcher starts its command runner). Values already
// set are replaced.
void capLibraries(CpuTier tier);

// One line, e.g. "CPU tier: avx2 (forced by CHARGPT_CPU; this CPU: avx512-bf16)".
std::string tierLine(const TierChoice& choice);

}  // namespace chargpt
