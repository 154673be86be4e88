# SPDX-License-Identifier: GPL-3.0-or-later
# Turns one fortune file of Debian's fortunes-zh into plain UTF-8 text:
#   cmake -DINPUT=/usr/share/games/fortunes/tang300 -DOUTPUT=tang300.txt -P convert_fortunes.cmake
# The fortune separators (a line holding only `%`) become blank lines between
# poems, and the terminal colour codes (ESC [ ... m) around titles and authors go.
if(NOT DEFINED INPUT OR NOT DEFINED OUTPUT)
  message(FATAL_ERROR "convert_fortunes.cmake needs -DINPUT=... and -DOUTPUT=...")
endif()
if(NOT EXISTS "${INPUT}")
  message(FATAL_ERROR "${INPUT} is missing: install Debian's fortunes-zh package")
endif()
file(READ "${INPUT}" text)
string(ASCII 27 escape)
string(REGEX REPLACE "${escape}\\[[0-9;]*m" "" text "${text}")
string(REPLACE "\r\n" "\n" text "${text}")
string(REGEX REPLACE "(^|\n)%(\n|$)" "\\1\n" text "${text}")
string(REGEX REPLACE "\n\n\n+" "\n\n" text "${text}")
string(STRIP "${text}" text)
file(WRITE "${OUTPUT}" "${text}\n")
