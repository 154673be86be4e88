// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// The built-in corpora by the names the window gives them, in its language
// ("Tang poems (唐诗三百首)" for builtin:tang300): the corpus list, the Runs
// tab and its comparison show a built-in text by this name, never its key.

#include <QString>

// The name of a built-in corpus; any other source (a file, a folder) as it is.
QString corpusShownName(const QString& source);

