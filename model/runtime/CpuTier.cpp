// SPDX-License-Identifier: GPL-3.0-or-later
#include "model/runtime/CpuTier.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <cpuid.h>
#define CHARGPT_HAS_CPUID 1
#endif

#include <cstdlib>
#include <string>

namespace chargpt {

namespace {

struct TierNames {
    CpuTier tier;
    const char* name;
    const char* aten;    // ATEN_CPU_CAPABILITY
    const char* onednn;  // ONEDNN_MAX_CPU_ISA
    const char* blas;    // OPENBLAS_CORETYPE, or null: left to OpenBLAS
};
constexpr TierNames kNames[] = {
    {CpuTier::Generic, "generic", "default", "SSE41", "Prescott"},
    {CpuTier::Avx2, "avx2", "avx2", "AVX2", "Haswell"},
    {CpuTier::Avx512, "avx512", "avx512", "AVX512_CORE", nullptr},
    {CpuTier::Avx512Bf16, "avx512-bf16", "avx512", "AVX512_CORE_BF16", nullptr},
    {CpuTier::Amx, "amx", "avx512", "AVX512_CORE_AMX", nullptr},
};

const TierNames& namesOf(CpuTier tier) {
    for (const TierNames& n : kNames)
        if (n.tier == tier) return n;
    return kNames[0];
}

#ifdef CHARGPT_HAS_CPUID
bool bit(unsigned value, int i) { return (value >> i) & 1u; }
// XCR0: which registers' state the operating system saves (and so allows).
unsigned long long xcr0() {
    unsigned eax = 0, edx = 0;
    __asm__ volatile("xgetbv" : "=a"(eax), "=d"(edx) : "c"(0));
    return (static_cast<unsigned long long>(edx) << 32) | eax;
}
#endif

}  // namespace

const char* tierName(CpuTier tier) { return namesOf(tier).name; }

bool tierFromName(const std::string& name, CpuTier* tier) {
    for (const TierNames& n : kNames)
        if (name == n.name) {
            *tier = n.tier;
            return true;
        }
    return false;
}

CpuTier cpuBestTier() {
#ifdef CHARGPT_HAS_CPUID
    unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
    if (__get_cpuid_max(0, nullptr) < 7) return CpuTier::Generic;
    __cpuid(1, eax, ebx, ecx, edx);
    const bool fma = bit(ecx, 12), osxsave = bit(ecx, 27), avx = bit(ecx, 28);
    if (!(osxsave && avx && fma)) return CpuTier::Generic;
    const unsigned long long xcr = xcr0();
    if ((xcr & 0x6u) != 0x6u) return CpuTier::Generic;  // SSE and AVX state
    __cpuid_count(7, 0, eax, ebx, ecx, edx);
    if (!bit(ebx, 5)) return CpuTier::Generic;                                         // AVX2
    const bool avx512 = bit(ebx, 16) && bit(ebx, 17) && bit(ebx, 30) && bit(ebx, 31);  // F, DQ, BW, VL
    if (!avx512 || (xcr & 0xE0u) != 0xE0u) return CpuTier::Avx2;  // opmask, ZMM 0-15 and 16-31 state
    const bool amxBf16 = bit(edx, 22) && bit(edx, 24);            // AMX-BF16 and AMX-TILE
    __cpuid_count(7, 1, eax, ebx, ecx, edx);
    const bool avx512Bf16 = bit(eax, 5);
    if (!avx512Bf16) return CpuTier::Avx512;
    return amxBf16 ? CpuTier::Amx : CpuTier::Avx512Bf16;
#else
    return CpuTier::Generic;
#endif
}

CpuTier builtTopTier() {
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && !defined(__SANITIZE_THREAD__) && \
    !defined(CHARGPT_PORTABLE)
    return CpuTier::Amx;
#else
    return CpuTier::Generic;
#endif
}

TierChoice chooseTier(const char* forced, CpuTier cpu, CpuTier built) {
    TierChoice c;
    c.cpu = cpu;
    c.built = built;
    c.tier = cpu < built ? cpu : built;
    if (forced == nullptr || *forced == '\0') return c;
    const std::string name = forced;
    CpuTier wanted = CpuTier::Generic;
    if (!tierFromName(name, &wanted)) {
        c.refusal =
            "CHARGPT_CPU=" + name + " is not a CPU tier: use generic, avx2, avx512, avx512-bf16 or amx.";
    } else if (wanted > cpu) {
        c.refusal = "CHARGPT_CPU=" + name + ": this CPU has no " + name + " (its best tier is " +
                    tierName(cpu) + ").";
    } else if (wanted > built) {
        c.refusal = "CHARGPT_CPU=" + name + ": this build has no kernels for " + name +
                    " (its best tier is " + tierName(built) + ").";
    } else {
        c.tier = wanted;
        c.forced = true;
    }
    return c;
}

const TierChoice& cpuTierChoice() {
    static const TierChoice choice = chooseTier(std::getenv("CHARGPT_CPU"), cpuBestTier(), builtTopTier());
    return choice;
}

CpuTier cpuTier() { return cpuTierChoice().tier; }

const TierChoice& startCpuTier() {
    const TierChoice& choice = cpuTierChoice();
    if (choice.forced) capLibraries(choice.tier);
    return choice;
}

void capLibraries(CpuTier tier) {
    const TierNames& n = namesOf(tier);
    ::setenv("ATEN_CPU_CAPABILITY", n.aten, 1);
    ::setenv("ONEDNN_MAX_CPU_ISA", n.onednn, 1);
    if (n.blas) ::setenv("OPENBLAS_CORETYPE", n.blas, 1);
}

std::string tierLine(const TierChoice& choice) {
    std::string line = std::string("CPU tier: ") + tierName(choice.tier);
    if (choice.forced)
        line += std::string(" (forced by CHARGPT_CPU; this CPU: ") + tierName(choice.cpu) + ")";
    else if (choice.tier < choice.cpu)
        line += std::string(" (this build's best; this CPU: ") + tierName(choice.cpu) + ")";
    return line;
}

}  // namespace chargpt
