// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <ATen/autocast_mode.h>

namespace chargpt {

// bfloat16 CPU autocast for the forward passes of this thread (autocast state
// is thread-local), as a model that trains in bf16 multiplies; its cache of
// cast weights is dropped at the end, since training changes the weights.
class AutocastScope {
public:
    explicit AutocastScope(bool enabled) : enabled_(enabled) {
        if (!enabled_) return;
        at::autocast::set_autocast_cpu_dtype(at::kBFloat16);
        at::autocast::set_cpu_enabled(true);
    }
    ~AutocastScope() {
        if (!enabled_) return;
        at::autocast::set_cpu_enabled(false);
        at::autocast::clear_cache();
    }
    AutocastScope(const AutocastScope&) = delete;
    AutocastScope& operator=(const AutocastScope&) = delete;

private:
    bool enabled_;
};

}  // namespace chargpt
