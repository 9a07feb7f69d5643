#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Build the control-channel libFuzzer target (fuzz_ctrl.c + the socket-free
# src/ctrl files + jansson) and run it for N seconds from the seed corpus.
# Usage: ctrl-fuzz.sh [SRCDIR] [WORKDIR] [SECONDS | runs:N]  (defaults: this
# tree, a temporary directory, 30 s). runs:N runs exactly N inputs (the soak
# label's >= 1 M executions) and fails if fewer were executed. Either way the
# execution count is printed ("fuzz_ctrl: N executions in S s"). Exit 0
# without crash, 77 (CTest skip) without clang/libFuzzer/jansson, non-zero on
# any crash; crash inputs stay in WORKDIR.
set -euo pipefail
src=${1:-$(cd "$(dirname "$0")/../.." && pwd)}
work=${2:-}
secs=${3:-30}
cc=${CLANG:-clang}

if [ -z "$work" ]; then
	work=$(mktemp -d "${TMPDIR:-/tmp}/ctrl-fuzz.XXXXXX")
	trap 'rm -rf "$work"' EXIT INT TERM
fi
mkdir -p "$work"
if ! command -v "$cc" >/dev/null 2>&1; then
	echo "SKIP: $cc not found"
	exit 77
fi
if ! printf 'int LLVMFuzzerTestOneInput(const unsigned char *d, unsigned long n)\n{ (void)d; (void)n; return 0; }\n' |
	"$cc" -fsanitize=fuzzer -x c - -o "$work/probe" >/dev/null 2>&1; then
	echo "SKIP: $cc cannot link libFuzzer (-fsanitize=fuzzer)"
	exit 77
fi
if ! jansson=$(pkg-config --cflags --libs jansson libcrypto 2>/dev/null); then
	echo "SKIP: jansson or libcrypto not found through pkg-config"
	exit 77
fi
# Socket-free sources only (no ctrl_io.c, ctrl_net.c, ctrl_connect.c), the
# experiment codecs (src/engine), their name tables (the kind table without
# its generators: RPERF_GEN_SOURCE) and the histogram serialization they use.
srcs=()
for f in ctrl_frame.c ctrl_json.c ctrl_msg.c ctrl_endpoint.c ctrl_step.c \
	ctrl_perftest.c; do
	srcs+=("$src/src/ctrl/$f")
done
for f in spec.c spec_traffic.c proto_auth.c proto_plan.c proto_go.c \
	proto_clock.c proto_report.c proto_traffic.c proto_session.c spec_sched.c \
	proto_sched.c spec_test.c spec_lsg.c spec_host.c proto_live.c \
	proto_rounds.c spec_rounds.c proto_samples.c gen_kinds.c; do
	srcs+=("$src/src/engine/$f")
done
srcs+=("$src/src/gen/gen_names.c") # the names spec.c decodes
srcs+=("$src/src/gen/schedule.c") # the schedules spec_sched.c decodes
srcs+=("$src/src/gen/size_dist.c") # spec_traffic.c's size distributions
srcs+=("$src/src/util/units.c" "$src/src/util/err.c") # rperf_fail
srcs+=("$src/src/gen/series.c")   # the time series REPORT carries
srcs+=("$src/src/counters/counters.c" "$src/src/counters/counters_json.c") # its "counters"
for f in hist.c hist_serial.c hist_stats.c; do
	srcs+=("$src/src/hist/$f")
done
srcs+=("$src/src/util/regular.c") # proto_auth.c's key file
# shellcheck disable=SC2086 # word splitting of the pkg-config flags
"$cc" -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
	'-DRPERF_GEN_SOURCE(ops)=NULL' \
	-I "$src/include" -I "$src/src" "${srcs[@]}" \
	"$src/tests/fuzz/fuzz_ctrl.c" $jansson -lm -o "$work/fuzz_ctrl"
rm -rf "$work/corpus"
mkdir "$work/corpus"
cp "$src"/tests/fuzz/corpus/ctrl/* "$work/corpus/"
cd "$work"
case $secs in
runs:*) want=${secs#runs:}; limit=(-runs="$want") ;;
*) want=0; limit=(-max_total_time="$secs") ;;
esac
t0=$(date +%s)
rc=0
# -error_exitcode: libFuzzer's default for a crash is 77, CTest's skip code
./fuzz_ctrl "${limit[@]}" -max_len=65536 -timeout=10 -rss_limit_mb=4096 \
	-error_exitcode=1 -print_final_stats=1 corpus 2>&1 | tee fuzz.log || rc=${PIPESTATUS[0]}
execs=$(awk '/^stat::number_of_executed_units:/ { n = $2 } END { print n + 0 }' fuzz.log)
echo "fuzz_ctrl: $execs executions in $(($(date +%s) - t0)) s"
[ "$rc" = 0 ] || exit "$rc"
if [ "$execs" -lt "$want" ]; then
	echo "fuzz_ctrl: FAIL: $execs executions, $want asked for"
	exit 1
fi
