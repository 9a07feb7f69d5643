#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# sched-plot.sh OUTDIR - the probe-schedule suite in the lab (suites/sched.sh,
# 3 hosts), then its time series drawn here on the host with
# examples/plot/rperf-plot.sh timeseries (gnuplot does not live in the VM
# image): OUTDIR/timeseries.png, .svg from the run's intervals[] (LSG p50,
# p99 and BSG Gb/s sent and received over time), checked non-trivial
# (tests/plot-check.sh: a PNG > 5 KB, an SVG whose 4 curves have 20+
# segments each). Status 77 = lab
# skipped; ends "N passed, M failed".
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
plot=$here/../../examples/plot/rperf-plot.sh
out=${1:?usage: sched-plot.sh OUTDIR}
mkdir -p "$out"
rm -f "$out"/timeseries.*
"$here/rxe-lab" run --hosts 3 --timeout 420 --out "$out" "$here/suites/sched.sh"
rc=$?
[ "$rc" = 77 ] && exit 77
pass=0 fail=0
. "$here/../plot-check.sh"
if [ -s "$out/timeseries.json" ] && "$plot" timeseries "$out/timeseries.json" "$out/timeseries" &&
	plot_nontrivial "$out/timeseries" 4 20; then
	echo "ok   time series plot (PNG, SVG) from the run's intervals[], received rate drawn"
	pass=$((pass + 1))
else
	echo "FAIL time series plot (PNG, SVG) from the run's intervals[]"
	fail=$((fail + 1))
fi
echo "host plots: $pass passed, $fail failed (the VM's checks above: status $rc)"
[ "$rc" = 0 ] && [ "$fail" = 0 ] || exit 1
