#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# fig7-plot.sh OUTDIR [--hosts N] - the Fig 7 sweep in the lab
# (suites/fig7.sh: rperf run --sweep from examples/fig7-converged.ini through
# --hosts-map examples/lab-hosts.ini), then its plots drawn here on the host
# with examples/plot/rperf-plot.sh (gnuplot does not live in the VM image):
#   OUTDIR/fig7.png, fig7.svg  LSG RTT p50 / p99.9 and BSG Gb/s vs BSGs
#   OUTDIR/cdf.png, cdf.svg    the RTT CDF of rperf lat --hist
# and checked: each file non-trivial (tests/plot-check.sh: a PNG > 5 KB,
# an SVG whose curves pass through every point). Status 77 = lab skipped; ends "N passed, M failed".
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
. "$here/../plot-check.sh"
if [ -s "$out/sweep.json" ] && "$plot" sweep "$out/sweep.json" "$out/fig7" &&
	plot_nontrivial "$out/fig7" 3 "$(jq '.points | length' "$out/sweep.json")"; then
	ok "Fig 7 plot (PNG, SVG) from the sweep's JSON"
	echo "RESULT fig7 plot data: $(tr '\t' ' ' < "$out/fig7.dat" | tr '\n' '|')"
else
	bad "Fig 7 plot (PNG, SVG) from the sweep's JSON"
fi
if [ -s "$out/lsg-hist.csv" ] && "$plot" cdf "$out/lsg-hist.csv" "$out/cdf" && plot_nontrivial "$out/cdf" 1 20; then
	ok "RTT CDF plot (PNG, SVG) from rperf lat --hist"
else
	bad "RTT CDF plot (PNG, SVG) from rperf lat --hist"
fi
echo "host plots: $pass passed, $fail failed (the VM's checks above: status $rc)"
[ "$rc" = 0 ] && [ "$fail" = 0 ] || exit 1
