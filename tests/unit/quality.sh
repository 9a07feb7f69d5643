#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Code-quality checks run through CTest (label unit):
#   quality.sh format SRC        kernel-style clang-format, no changes needed
#   quality.sh cppcheck SRC      cppcheck clean
#   quality.sh asan SRC BUILD    ASan+UBSan build of the unit tests, run them
#   quality.sh size SRC          no source file over 600 lines
# Exit 77 (skip) with the reason when a tool is missing.
set -uo pipefail
what=$1 src=$2
cd "$src" || exit 1
c_files() { git ls-files '*.c' '*.h' 2>/dev/null || find src include tests -name '*.[ch]'; }
case $what in
format)
	command -v clang-format >/dev/null || { echo "SKIP: clang-format not installed"; exit 77; }
	bad=0
	while read -r f; do
		[ -f "$f" ] || continue
		if ! clang-format --dry-run --Werror "$f" 2>/dev/null; then
			echo "needs clang-format: $f"; bad=1
		fi
	done < <(c_files)
	[ $bad = 0 ] && echo "format: all C files match .clang-format"
	exit $bad ;;
cppcheck)
	command -v cppcheck >/dev/null || { echo "SKIP: cppcheck not installed"; exit 77; }
	# variableScope is off: kernel style declares locals at the top of a block
	cppcheck --quiet --enable=warning,style,performance,portability \
		--std=c11 --inline-suppr --error-exitcode=1 \
		--suppress=missingIncludeSystem --suppress=unusedStructMember \
		--suppress=variableScope \
		-I include -I src src ;;
size)
	bad=0
	while read -r f; do
		n=$(wc -l < "$f")
		if [ "$n" -gt 600 ]; then echo "$f: $n lines (> 600): split it"; bad=1; fi
	done < <(c_files)
	exit $bad ;;
asan)
	build=$3
	cmake -S "$src" -B "$build" -DRPERF_SANITIZE=ON -DRPERF_WERROR=ON \
		-DCMAKE_BUILD_TYPE=Debug > "$build.log" 2>&1 || { tail -20 "$build.log"; exit 1; }
	cmake --build "$build" -j"$(nproc)" >> "$build.log" 2>&1 || { tail -40 "$build.log"; exit 1; }
	cd "$build" || exit 1
	# the nested run skips the checks that do not concern memory safety
	ctest -L unit -E 'unit\.(asan|format|cppcheck|size|layers.*|words|clock_aarch64|fuzz.*)$' \
		--output-on-failure ;;
*)
	echo "usage: quality.sh format|cppcheck|size|asan SRC [BUILD]" >&2; exit 2 ;;
esac
