#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# mesh8-plot.sh OUTDIR - the 8-host mesh suite in the lab (suites/mesh8.sh:
# no fault x3, one slow port, two slow ports, one slow pair, each checked
# against the localization), then the heatmap of its one-slow-port matrix
# drawn here on the host with examples/plot/rperf-plot.sh mesh (gnuplot
# does not live in the VM image) and checked non-trivial: the PNG (> 5 KB,
# PNG signature) and an SVG with a filled cell for each of the 56 measured
# pairs and their values (negative p10s too) written in them. Status 77 =
# lab skipped.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
plot=$here/../../examples/plot/rperf-plot.sh
out=${1:?usage: mesh8-plot.sh OUTDIR}
mkdir -p "$out"
rm -f "$out"/mesh*.json "$out"/heatmap.*
"$here/rxe-lab" run --hosts 8 --timeout 600 --out "$out" "$here/suites/mesh8.sh"
rc=$?
[ "$rc" = 77 ] && exit 77
pass=0 fail=0
ok() { echo "ok   $1"; pass=$((pass + 1)); }
bad() { echo "FAIL $1"; fail=$((fail + 1)); }
. "$here/../plot-check.sh"
heatmap_nontrivial() {
	local cells labels
	# the PNG check of plot_nontrivial; its curve count does not apply
	plot_nontrivial "$out/heatmap" 0 0 || return 1
	cells=$(grep -c '<polygon' "$out/heatmap.svg")
	labels=$(grep -cE '<tspan[^>]*>-?[0-9]+</tspan>' "$out/heatmap.svg")
	echo "     $out/heatmap.svg: $cells filled polygons, $labels numeric labels (56 cells measured)"
	[ "$cells" -ge 56 ] && [ "$labels" -ge 56 ]
}
if [ -s "$out/mesh.json" ] && "$plot" mesh "$out/mesh.json" "$out/heatmap" 2> /dev/null && heatmap_nontrivial; then
	ok "mesh heatmap (PNG, SVG) from the one-slow-port matrix"
	echo "RESULT heatmap title: $(grep -o '<title>[^<]*' "$out/heatmap.svg" | head -1)"
else
	bad "mesh heatmap (PNG, SVG) from the one-slow-port matrix"
fi
echo "host plots: $pass passed, $fail failed (the VM's checks above: status $rc)"
[ "$rc" = 0 ] && [ "$fail" = 0 ] || exit 1
