#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# Build the rperf_hist_deserialize libFuzzer target and run it for N seconds
# (default 30) from the seed corpus. Exit 77 (CTest skip) without clang or
# libFuzzer, non-zero on any crash.
set -eu
secs=${1:-30}
src=$(cd "$(dirname "$0")/../.." && pwd)
cc=${CLANG:-clang}
work=$(mktemp -d "${TMPDIR:-/tmp}/hist-fuzz.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM

if ! command -v "$cc" >/dev/null 2>&1; then
	echo "SKIP: $cc not found"
	exit 77
fi
if ! printf 'int LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n)\n{ (void)d; (void)n; return 0; }\n' |
	"$cc" -fsanitize=fuzzer -x c - -o "$work/probe" >/dev/null 2>&1; then
	echo "SKIP: $cc cannot link libFuzzer (-fsanitize=fuzzer)"
	exit 77
fi
"$cc" -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
	-I "$src/include" "$src"/src/hist/*.c "$src/tests/fuzz/fuzz_hist.c" \
	-lm -o "$work/fuzz_hist"
mkdir "$work/corpus"
cp "$src"/tests/fuzz/corpus/hist/* "$work/corpus/" 2>/dev/null || true
cd "$work"
# -error_exitcode: libFuzzer's default for a crash is 77, CTest's skip code
./fuzz_hist -max_total_time="$secs" -max_len=4096 -timeout=10 \
	-error_exitcode=1 -print_final_stats=1 corpus
