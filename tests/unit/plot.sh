#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# plot.sh SRC OUTDIR - examples/plot/rperf-plot.sh on recorded lab results
# (tests/unit/fixtures/plot: a Fig 7 sweep's JSON from lab.fig7, an
# rperf lat --hist CDF, a mesh's JSON from lab.mesh8 without its rounds,
# lab.counters' run with counters): the PNG and SVG are drawn and non-trivial (curves
# with data), the data file holds one row per point, and bad inputs exit 2.
set -uo pipefail
src=${1:?usage: plot.sh SRC OUTDIR}
out=${2:?usage: plot.sh SRC OUTDIR}
plot=$src/examples/plot/rperf-plot.sh
fx=$src/tests/unit/fixtures/plot
. "$src/tests/plot-check.sh"
mkdir -p "$out"
rm -f "$out"/*
pass=0 fail=0
t() {  # t NAME CMD...: one check
	local name=$1
	shift
	if "$@"; then echo "ok   $name"; pass=$((pass + 1)); else echo "FAIL $name"; fail=$((fail + 1)); fi
}
command -v gnuplot > /dev/null || { echo "FAIL gnuplot is missing: tests/install-deps.sh installs gnuplot-nox"; exit 1; }

sweep_plot() {
	local n
	n=$(jq '.points | length' "$fx/sweep.json")
	"$plot" sweep "$fx/sweep.json" "$out/fig7" || return 1
	# p50, p99.9, BSG Gb/s: each a line through every point (+ the key's)
	plot_nontrivial "$out/fig7" 3 "$n"
}
sweep_data() {
	local want got
	want=$(jq -r '[.points[] | "\(.x) \(.lsg_rtt_ns.p50) \(.lsg_rtt_ns.p999) \(.bsg_gbps) \(.value) \(if .lsg_samples >= 10000 then 1 else 0 end) NaN NaN NaN"] | join("|")' "$fx/sweep.json")
	got=$(tr '\t' ' ' < "$out/fig7.dat" | paste -sd '|')
	echo "     data: $got"
	[ "$got" = "$want" ]
}
# --repeat: the means (stats) are plotted, the intervals as error bars
sweep_bars() {
	local n got want
	n=$(jq '.points | length' "$fx/sweep.json")
	jq '.repeat = 3 | .points |= map(.stats = {
		lsg_p50_ns: {mean: (.lsg_rtt_ns.p50 * 2), ci95: 1000},
		lsg_p999_ns: {mean: .lsg_rtt_ns.p999, ci95: 2000},
		bsg_gbps: {mean: .bsg_gbps, ci95: 0.001}})' "$fx/sweep.json" > "$out/rep.json"
	"$plot" sweep "$out/rep.json" "$out/rep" || return 1
	want=$(jq -r '[.points[] | "\(.lsg_rtt_ns.p50 * 2) 1000 2000 0.001"] | join("|")' "$fx/sweep.json")
	got=$(awk -F'\t' '{ print $2, $7, $8, $9 }' "$out/rep.dat" | paste -sd '|')
	echo "     data: $got"
	[ "$got" = "$want" ] || return 1
	# the lines plus one error-bar curve per figure, each a bar per point
	plot_nontrivial "$out/rep" 6 "$n"
}
cdf_plot() {
	"$plot" cdf "$fx/lsg-hist.csv" "$out/cdf" && plot_nontrivial "$out/cdf" 1 20
}
# two sizes in one --hist file (rperf lat -s 64,4096): two curves
cdf_two() {
	{ cat "$fx/lsg-hist.csv"; awk -F, -v OFS=, 'NR > 1 { $1 = 4096; $5 = $5 * 2; print }' "$fx/lsg-hist.csv"; } > "$out/two.csv"
	"$plot" cdf "$out/two.csv" "$out/two" && plot_nontrivial "$out/two" 2 20 &&
		grep -q '64B' "$out/two.svg" && grep -q '4096B' "$out/two.svg"
}
# a mesh's matrix (lab.mesh8's first run: 449 us of netem on port h1, p50):
# a filled cell and its value for each of the 56 pairs, the verdict in the
# title, the data one row per source with NaN on the diagonal
mesh_plot() {
	local cells labels
	"$plot" mesh "$fx/mesh.json" "$out/mesh" 2> /dev/null || return 1
	plot_nontrivial "$out/mesh" 0 0 || return 1
	cells=$(grep -c '<polygon' "$out/mesh.svg")
	labels=$(grep -cE '<tspan[^>]*>-?[0-9]+</tspan>' "$out/mesh.svg")
	echo "     $cells filled polygons, $labels numeric labels; $(grep -c NaN "$out/mesh.dat") NaN rows"
	[ "$cells" -ge 56 ] && [ "$labels" -ge 56 ] && grep -q 'port h1 +' "$out/mesh.svg" &&
		[ "$(wc -l < "$out/mesh.dat")" = 8 ] &&
		awk -F'\t' '{ if ($(NR) != "NaN" || NF != 8) bad = 1 } END { exit bad }' "$out/mesh.dat"
}
# intervals[] of an LSG and a BSG, recorded by lab.sched (rperf run:
# poisson:250 LSG, on/off BSG 200 ms/200 ms through a 4 Mb/s FIFO, 100 ms
# intervals); timeseries-rx.json: the same run with the BSG's received
# rates (poisson:100), per-interval counters left out
ts_plot() {
	local want
	"$plot" timeseries "$fx/timeseries.json" "$out/ts" && plot_nontrivial "$out/ts" 3 20 || return 1
	# the data: one row per LSG interval, one per BSG interval
	want=$(jq -r '[.generators[] | select(.kind == "lsg")][0].intervals | length' "$fx/timeseries.json")/$(jq -r '[.generators[] | select(.kind == "bsg")][0].intervals | length' "$fx/timeseries.json")
	[ "$(awk 'NF == 0 { b++; next } { n[b + 0]++ } END { print n[0] "/" n[2] }' "$out/ts.dat")" = "$want" ] || return 1
	# the BSG's received rate too (lab.sched with the destination's
	# intervals): a fourth curve, the data's third column numbers
	"$plot" timeseries "$fx/timeseries-rx.json" "$out/ts-rx" && plot_nontrivial "$out/ts-rx" 4 20 || return 1
	want=$(jq '[.generators[] | select(.kind == "bsg")][0].intervals | map(select(.received_gbps != null)) | length' "$fx/timeseries-rx.json")
	echo "     received rates: $(awk -F'\t' 'NF == 0 { b++; next } b == 2 && $3 != "NaN" { n++ } END { print n + 0 }' "$out/ts-rx.dat") rows of $want"
	[ "$want" -ge 20 ] && [ "$(awk -F'\t' 'NF == 0 { b++; next } b == 2 && $3 != "NaN" { n++ } END { print n + 0 }' "$out/ts-rx.dat")" = "$want" ]
}
# issue 20: plots that read. No gnuplot warning on the normal path (stderr
# empty); a sweep with no LSG (one-to-one bandwidth) plots its one panel;
# a CDF spanning less than a decade (the paper's Fig 4: 432 ns 64 B median to 688 ns 4096 B tail) gets a linear
# axis with ticks inside the data, a non-positive sample not squashing it.
quiet() {  # quiet MODE IN PREFIX: rperf-plot.sh with nothing on stderr
	"$plot" "$@" > /dev/null 2> "$3.err" || return 1
	[ ! -s "$3.err" ] || { echo "     stderr: $(head -c 300 "$3.err")"; return 1; }
}
no_warnings() {
	quiet sweep "$fx/sweep.json" "$out/q-sweep" && quiet cdf "$fx/lsg-hist.csv" "$out/q-cdf" &&
		quiet timeseries "$fx/timeseries.json" "$out/q-ts" && quiet timeseries "$fx/timeseries-rx.json" "$out/q-ts-rx" && quiet sweep "$out/rep.json" "$out/q-rep"
}
sweep_no_lsg() {
	local n
	n=$(jq '.points | length' "$fx/sweep.json")
	jq '.points |= map(.lsg_rtt_ns = null | .lsg_samples = 0 | .lsg_count = 0)' "$fx/sweep.json" > "$out/nolsg.json"
	quiet sweep "$out/nolsg.json" "$out/nolsg" || return 1
	plot_nontrivial "$out/nolsg" 1 "$((n - 1))" && grep -q 'no LSG in this sweep' "$out/nolsg.svg"
}
cdf_narrow() {
	local ticks
	{
		echo 'size,repeat,lo_ns,hi_ns,value_ns,count,cumulative,fraction'
		echo '64,0,-100,-96,-100,1,1,0.000153'
		awk 'BEGIN { c = 1; for (v = 432; v <= 688; v += 4) { c += 100; printf "64,0,%d,%d,%d,100,%d,%.6f\n", v, v + 4, v, c, c / 6501 } }'
	} > "$out/narrow.csv"
	quiet cdf "$out/narrow.csv" "$out/narrow" || return 1
	plot_nontrivial "$out/narrow" 1 20 || return 1
	# x tick labels (us) inside the data's 0.432 .. 0.688
	ticks=$(grep -o '<tspan[^>]*>[^<]*</tspan>' "$out/narrow.svg" | sed 's/<[^>]*>//g; s/^ *//' |
		awk '$1 ~ /^[0-9.]+$/ && $1 + 0 >= 0.432 && $1 + 0 <= 0.688' | wc -l)
	echo "     x ticks inside 0.432-0.688 us: $ticks"
	[ "$ticks" -ge 4 ]
}
# latency and counters on one time axis, recorded by lab.counters (rperf
# run: LSG and an on/off BSG through a 1 Mb/s port marking ECN, the lab
# switch's tc hook, 1 s intervals)
ctr_plot() {
	local n k
	"$plot" counters "$fx/counters.json" "$out/ctr" || return 1
	n=$(jq '[.generators[] | select(.kind == "lsg")][0].intervals | length' "$fx/counters.json")
	k=$(jq '[.counters.tail[0].ranked[] | select(.spearman > 0)][:3] | length' "$fx/counters.json")
	echo "     $n intervals, $k counters"
	# the p99 and each counter: a curve through the intervals (gnuplot
	# splits a long SVG path: 21 segments for 24 points)
	plot_nontrivial "$out/ctr" $((k + 1)) $((n / 2)) &&
		grep -q 'sw:h1-sw.backlog_bytes' "$out/ctr.svg" &&
		[ "$(awk 'NF == 0 { b++; next } { n[b + 0]++ } END { print n[0] }' "$out/ctr.dat")" = "$n" ]
}
bad_input() {
	local rc ok=0
	echo '{"command": "run"}' > "$out/notsweep.json"
	echo 'a,b' > "$out/notcdf.csv"
	for args in "sweep $out/notsweep.json" "sweep $out/missing.json" "cdf $out/notcdf.csv" \
		"cdf $fx/sweep.json" "pie $fx/sweep.json" "mesh $fx/sweep.json" \
		"timeseries $fx/sweep.json" "timeseries $out/notsweep.json" \
		"counters $fx/sweep.json" "counters $fx/timeseries.json"; do
		# shellcheck disable=SC2086 # words on purpose
		"$plot" $args "$out/bad" > "$out/bad.log" 2>&1
		rc=$?
		echo "     rperf-plot.sh $args -> $rc: $(head -c 120 "$out/bad.log")"
		[ "$rc" = 2 ] || ok=1
	done
	"$plot" sweep "$fx/sweep.json" "$out/it's" > "$out/bad.log" 2>&1
	rc=$?
	echo "     rperf-plot.sh sweep ... PREFIX with a quote -> $rc: $(head -c 120 "$out/bad.log")"
	[ "$rc" = 2 ] || ok=1
	return "$ok"
}
t "sweep JSON -> PNG + SVG, 3 curves through every point" sweep_plot
t "sweep data: x, p50, p99.9, Gb/s, value, p99.9 supported"     sweep_data
t "--repeat sweep: means with 95 % interval error bars"   sweep_bars
t "--hist CSV -> CDF PNG + SVG"                           cdf_plot
t "--hist CSV with two sizes -> two CDF curves"           cdf_two
t "mesh JSON -> heatmap PNG + SVG, 56 cells with values"  mesh_plot
t "counters JSON -> p99 and top counters on one time axis" ctr_plot
t "run JSON intervals[] -> time series PNG + SVG, 3 curves (4 with the received rate)" ts_plot
t "no gnuplot warning on the normal path"                 no_warnings
t "a sweep with no LSG plots its bandwidth panel"         sweep_no_lsg
t "a CDF spanning < a decade: linear x, 4+ ticks inside"  cdf_narrow
t "bad inputs exit 2 with a message"                      bad_input
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
