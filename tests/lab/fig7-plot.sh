#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# fig7-plot.sh OUTDIR [--hosts N] - the Fig 7 sweep in the lab
# (suites/fig7.sh: rperf run --sweep from examples/fig7-converged.ini through
# --hosts-map examples/lab-hosts.ini), then its plots drawn here on the host
# with examples/plot/rperf-plot.sh (gnuplot does not live in the VM image):
#   OUTDIR/fig7.png, fig7.svg  LSG RTT p50 / p99.9 and BSG Gb/s vs BSGs
#   OUTDIR/cdf.png, cdf.svg    the RTT CDF of rperf lat --hist
# and checked: each file non-trivial (PNG > 5 KB with its signature, SVG
# with plotted paths). Status 77 = lab skipped; ends "N passed, M failed".
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
plot=$here/../../examples/plot/rperf-plot.sh
out=${1:?usage: fig7-plot.sh OUTDIR}
mkdir -p "$out"
rm -f "$out"/sweep.json "$out"/lsg-hist.csv "$out"/fig7.* "$out"/cdf.*
"$here/rxe-lab" run --hosts 5 --timeout 240 --out "$out" "$here/suites/fig7.sh"
rc=$?
[ "$rc" = 77 ] && exit 77
pass=0 fail=0
ok() { echo "ok   $1"; pass=$((pass + 1)); }
bad() { echo "FAIL $1"; fail=$((fail + 1)); }
# nontrivial PREFIX: PNG signature and > 5000 bytes; SVG > 3000 bytes with
# at least 3 <path> elements holding line data (the curves, not just axes)
nontrivial() {
	local p=$1 png=$1.png svg=$1.svg n
	[ -s "$png" ] && [ "$(stat -c %s "$png")" -gt 5000 ] &&
		[ "$(head -c 8 "$png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] || {
		echo "     $png: $(stat -c %s "$png" 2> /dev/null || echo missing) bytes"; return 1; }
	n=$(grep -c '<path[^>]* d=.M' "$svg" 2> /dev/null)
	[ -s "$svg" ] && [ "$(stat -c %s "$svg")" -gt 3000 ] && [ "${n:-0}" -ge 3 ] || {
		echo "     $svg: $(stat -c %s "$svg" 2> /dev/null || echo missing) bytes, ${n:-0} paths"; return 1; }
	echo "     $png $(stat -c %s "$png") bytes, $svg $(stat -c %s "$svg") bytes, $n paths"
}
if [ -s "$out/sweep.json" ] && "$plot" sweep "$out/sweep.json" "$out/fig7" && nontrivial "$out/fig7"; then
	ok "Fig 7 plot (PNG, SVG) from the sweep's JSON"
	echo "RESULT fig7 plot data: $(tr '\t' ' ' < "$out/fig7.dat" | tr '\n' '|')"
else
	bad "Fig 7 plot (PNG, SVG) from the sweep's JSON"
fi
if [ -s "$out/lsg-hist.csv" ] && "$plot" cdf "$out/lsg-hist.csv" "$out/cdf" && nontrivial "$out/cdf"; then
	ok "RTT CDF plot (PNG, SVG) from rperf lat --hist"
else
	bad "RTT CDF plot (PNG, SVG) from rperf lat --hist"
fi
echo "host plots: $pass passed, $fail failed (the VM's checks above: status $rc)"
[ "$rc" = 0 ] && [ "$fail" = 0 ] || exit 1
