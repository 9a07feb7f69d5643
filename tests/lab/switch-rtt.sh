#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# switch-rtt.sh OUTDIR - the RPerf RTT back to back (--direct: one veth
# pair, no bridge) and through the switch (bridge br0), each in its own
# boot, reported side by side as the paper's Fig 4 shows them, and
#   switch RTT = RTT(through the switch) - RTT(direct)
# at p50 and p99.9. Prints every figure it compares. Status 77 = lab skipped.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:?usage: switch-rtt.sh OUTDIR}
args=(-s 64 -n 3000 --warmup 300 --pair-order sequential)
mkdir -p "$out"
for mode in direct switch; do
	opt=(--hosts 2)
	[ "$mode" = direct ] && opt=(--direct)
	rm -f "$out/$mode/lat.json"
	"$here/rxe-lab" run "${opt[@]}" --timeout 300 --out "$out/$mode" \
		"$here/suites/lat-one.sh" "${args[@]}"
	rc=$?
	[ "$rc" = 77 ] && exit 77
	[ "$rc" = 0 ] || { echo "FAIL: the $mode boot failed (status $rc)"; exit 1; }
done
get() { jq -r ".results[0].rtt_ns.$2" "$out/$1/lat.json"; }
d50=$(get direct p50) d999=$(get direct p999) s50=$(get switch p50) s999=$(get switch p999)
for v in "$d50" "$d999" "$s50" "$s999"; do
	case $v in '' | null | *[!0-9-]*) echo "FAIL: missing figure in the results ($v)"; exit 1 ;; esac
done
echo "RESULT rtt_ns direct p50=$d50 p999=$d999 through_switch p50=$s50 p999=$s999"
echo "RESULT switch_rtt_ns p50=$((s50 - d50)) p999=$((s999 - d999)) (RTT through the switch - RTT back to back; RPerf method, Soft-RoCE under TCG: compare within this run only)"
echo "1 passed, 0 failed"
