# SPDX-License-Identifier: GPL-3.0-or-later
# Writes a C++ source holding a text file, so the model library carries the
# built-in corpora without Qt's resources:
#   cmake -DINPUT=tang300.txt -DOUTPUT=tang300.cpp -DNAME=tang300 -P embed_corpus.cmake
# defines `extern const char chargpt::builtin_text::tang300[]` (UTF-8, NUL-terminated).
if(NOT DEFINED INPUT OR NOT DEFINED OUTPUT OR NOT DEFINED NAME)
  message(FATAL_ERROR "embed_corpus.cmake needs -DINPUT=... -DOUTPUT=... -DNAME=...")
endif()
file(READ "${INPUT}" text)
set(delimiter "chargpt_corpus")
string(FIND "${text}" ")${delimiter}\"" clash)
if(NOT clash EQUAL -1)
  message(FATAL_ERROR "${INPUT} holds the raw string delimiter )${delimiter}\"")
endif()
file(WRITE "${OUTPUT}"
"// Generated from ${INPUT} by resources/embed_corpus.cmake; do not edit.
namespace chargpt::builtin_text {
extern const char ${NAME}[];
const char ${NAME}[] = R\"${delimiter}(${text})${delimiter}\";
}  // namespace chargpt::builtin_text
")
