#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# rperf-plot.sh - draw rperf results with gnuplot, as PNG and SVG:
#   rperf-plot.sh sweep SWEEP.json PREFIX   # rperf run --sweep ... --out_json_file
#       PREFIX.png, PREFIX.svg: LSG RTT p50 / p99.9 and BSG Gb/s vs the value
#       (with --repeat: the means, with 95 % interval error bars)
#   rperf-plot.sh cdf HIST.csv PREFIX       # rperf lat --hist HIST.csv
#       PREFIX.png, PREFIX.svg: the RTT CDF, one curve per size
#   rperf-plot.sh mesh MESH.json PREFIX     # rperf mesh ... --out_json_file
#       PREFIX.png, PREFIX.svg: the port-pair matrix's RTT (the statistic
#       its localization compared: p50 or p10) as a heatmap (row = source,
#       column = destination), the verdict in the title
#   rperf-plot.sh timeseries RUN.json PREFIX  # rperf run --out_json_file
#       PREFIX.png, PREFIX.svg: the first LSG's RTT p50 / p99 per interval
#       and the BSGs' total Gb/s per interval over time (intervals[])
#   rperf-plot.sh counters RUN.json PREFIX  # rperf run with counters
#       PREFIX.png, PREFIX.svg: the first LSG's RTT p99 per interval and
#       its top 3 counters that rose with it (counters.tail: Spearman with
#       the p99 above 0), each
#       scaled to its largest value, on one time axis
# Needs gnuplot (Debian: gnuplot-nox) and, for sweeps, meshes and time series, jq.
# Also writes PREFIX.dat, the data it plotted. Exit 2 on bad input, 3 when
# gnuplot fails.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
usage() { echo "usage: rperf-plot.sh sweep SWEEP.json PREFIX | cdf HIST.csv PREFIX | mesh MESH.json PREFIX | timeseries RUN.json PREFIX | counters RUN.json PREFIX" >&2; exit 2; }
[ $# = 3 ] || usage
mode=$1 in=$2 prefix=$3
[ -r "$in" ] || { echo "rperf-plot.sh: $in: cannot read" >&2; exit 2; }
case $prefix in *\'*) echo "rperf-plot.sh: $prefix: a quote in PREFIX; pick another name" >&2; exit 2 ;; esac
command -v gnuplot > /dev/null || { echo "rperf-plot.sh: needs gnuplot (apt-get install gnuplot-nox)" >&2; exit 2; }
dat=$prefix.dat

render() {  # render SCRIPT VARS: PREFIX.png and PREFIX.svg
	local t
	for t in png svg; do
		gnuplot -e "$2; dat='$dat'; out='$prefix.$t'; term='$t'" "$here/$1" ||
			{ echo "rperf-plot.sh: gnuplot failed on $1 ($t)" >&2; exit 3; }
	done
}

case $mode in
sweep)
	command -v jq > /dev/null || { echo "rperf-plot.sh: needs jq" >&2; exit 2; }
	jq -e '.sweep.key and (.points | type == "array")' "$in" > /dev/null 2>&1 ||
		{ echo "rperf-plot.sh: $in is not the JSON of rperf run --sweep" >&2; exit 2; }
	# x: the value in the key's unit (its index when it is not a number)
	# 6th column: 1 when the samples support p99.9 (10 / (1 - 0.999) =
	# 10,000, as the table's '*'), else 0: drawn hollow
	# with several --sweep keys x is the point's index (labels "V1, V2");
	# with --repeat the figures are the means (stats) and columns 7-9 the
	# 95 % interval half widths of p50, p99.9 and Gb/s: error bars
	jq -r '(.sweeps // [] | length > 1) as $multi | .points[] |
		(.stats // {}) as $s |
		def m($k; $d): if $s[$k].mean == null then $d else $s[$k].mean end;
		def ci($k): $s[$k].ci95 // "NaN";
		[(if $multi then .index else (.x // .index) end),
		m("lsg_p50_ns"; .lsg_rtt_ns.p50 // "NaN"),
		m("lsg_p999_ns"; .lsg_rtt_ns.p999 // "NaN"),
		m("bsg_gbps"; .bsg_gbps // "NaN"), .value,
		(if .lsg_samples >= 10000 then 1 else 0 end),
		ci("lsg_p50_ns"), ci("lsg_p999_ns"), ci("bsg_gbps")] | @tsv' "$in" > "$dat"
	bars=$(jq -r 'if (.repeat // 1) > 1 then 1 else 0 end' "$in")
	key=$(jq -r '.sweep.key' "$in")
	case $key in *[!A-Za-z0-9_.-]*) echo "rperf-plot.sh: odd sweep key '$key'" >&2; exit 2 ;; esac
	# microseconds, or milliseconds when the largest RTT is 10 ms or more
	scale=$(awk -F'\t' '$3 != "NaN" && $3 + 0 > m { m = $3 + 0 } END { print (m >= 1e7 ? "div=1e6; unit=\"ms\"" : "div=1e3; unit=\"us\"") }' "$dat")
	# what there is to draw: an LSG at all (a one-to-one bandwidth sweep
	# has none: one panel), p99.9 points supported (solid) and not (hollow);
	# gnuplot warns about a plot element with no valid point, so none is
	# drawn empty
	what=$(awk -F'\t' '$2 != "NaN" { l = 1 } $4 != "NaN" { b = 1 } $3 != "NaN" { if ($6 > 0) s++; else h++ }
		END { printf "lsg=%d; bsg=%d; solid=%d; hollow=%d", l, b, s, h }' "$dat")
	render sweep.gp "key='$key'; bars=$bars; $scale; $what"
	;;
cdf)
	head -n 1 "$in" | grep -q '^size,repeat,lo_ns,hi_ns,value_ns,count,cumulative,fraction$' ||
		{ echo "rperf-plot.sh: $in is not the CSV of rperf lat --hist" >&2; exit 2; }
	# one block per (size, repeat): value_ns fraction
	awk -F, 'NR > 1 { k = $1 "/" $2; if (k != p) { if (NR > 2) printf "\n\n"; p = k }
		print $5, $8 }' "$in" > "$dat"
	titles=$(awk -F, 'NR > 1 { k = $1 "B" ($2 > 0 ? "/r" $2 : ""); if (k != p) { printf "%s%s", s, k; s = " "; p = k } }' "$in")
	[ -n "$titles" ] || { echo "rperf-plot.sh: $in has no samples" >&2; exit 2; }
	# x range: the lowest p0.1 and the highest p99.9 over the curves, in us
	# (log x: the range starts at the smallest positive RTT at or above p0.1;
	# the fractions still count every sample, non-positive ones included)
	# Less than a decade between the two (the paper's Fig 4: 432 ns 64 B median to 688 ns 4096 B tail; the lab's
	# 1.5 ms +- 200 us): a log axis would show no tick in it, so the x axis
	# is linear from p0.1 whatever its sign (a non-positive RTT included),
	# with 5 % of the span either side
	range=$(awk 'NF == 0 { blo = bhi = bany = 0; next }
		!bany && $2 >= 0.001 { bany = 1; if (!na++ || $1 < any) any = $1 }
		!blo && $2 >= 0.001 && $1 > 0 { blo = 1; if (!n || $1 < lo) lo = $1 }
		!bhi && $2 >= 0.999 { bhi = 1; if (!n++ || $1 > hi) hi = $1 }
		END {
			if (hi <= lo) hi = lo * 10
			if (hi < 10 * lo) { pad = (hi - any) / 20; if (pad <= 0) pad = hi / 20
				printf "xlo=%.3f; xhi=%.3f; logx=0", (any - pad) / 1000, (hi + pad) / 1000 }
			else printf "xlo=%.3f; xhi=%.3f; logx=1", lo / 1000, hi / 1000 }' "$dat")
	render cdf.gp "titles='$titles'; $range"
	;;
mesh)
	command -v jq > /dev/null || { echo "rperf-plot.sh: needs jq" >&2; exit 2; }
	jq -e '(.mesh.hosts | type == "array") and (.mesh.matrix | type == "array")' "$in" > /dev/null 2>&1 ||
		{ echo "rperf-plot.sh: $in is not the JSON of rperf mesh" >&2; exit 2; }
	# one row per source: the statistic the localization compared (p50, or
	# p10 with statistic = p10) in us, NaN on the diagonal and unmeasured
	stat=$(jq -r '.mesh.localization.statistic // "p50"' "$in")
	case $stat in p50 | p10) ;; *) stat=p50 ;; esac
	jq -r --arg k "${stat}_ns" '.mesh.matrix[] | [.[] | if . == null or .[$k] == null then "NaN"
		else (.[$k] / 1000 | . * 10 | round / 10) end] | @tsv' "$in" > "$dat"
	n=$(jq '.mesh.hosts | length' "$in")
	names=$(jq -r '.mesh.hosts | join(" ")' "$in")
	case $names in *[!A-Za-z0-9_.\ -]*) echo "rperf-plot.sh: odd host names '$names'" >&2; exit 2 ;; esac
	# the verdict: the first three suspects, then how many more
	verdict=$(jq -r '[.mesh.suspects[] | if .kind == "port" then "port \(.host) +\(.added_ns / 1000 | round) us"
		else "pair \(.from) -> \(.to) +\(.added_ns / 1000 | round) us" end] |
		if length == 0 then "nothing out" elif length > 3 then (.[:3] | join(", ")) + ", +\(length - 3) more" else join(", ") end' "$in")
	case $verdict in *\'*) verdict="?" ;; esac
	render mesh.gp "n=$n; names='$names'; stat='$stat'; title='mesh $(jq -r '.mesh.name' "$in" | tr -cd 'A-Za-z0-9_.-'): $stat RTT (RPerf); $verdict'"
	;;
timeseries)
	command -v jq > /dev/null || { echo "rperf-plot.sh: needs jq" >&2; exit 2; }
	jq -e '[.generators[]? | select(.kind == "lsg" and ((.intervals // []) | length) > 0)] | length > 0' "$in" > /dev/null 2>&1 ||
		{ echo "rperf-plot.sh: $in is not the JSON of rperf run with an LSG's intervals[] (job key interval)" >&2; exit 2; }
	lsg=$(jq -r '[.generators[] | select(.kind == "lsg" and ((.intervals // []) | length) > 0)][0].name' "$in")
	case $lsg in *[!A-Za-z0-9_.-]*) lsg=LSG ;; esac
	# block 0: the first LSG's intervals; block 1: the BSGs' Gb/s sent and
	# received summed by interval index (received NaN where no BSG has a
	# received rate: RDMA WRITE, an older agent; a run without BSGs: one row
	# of zeros)
	{
		jq -r '[.generators[] | select(.kind == "lsg" and ((.intervals // []) | length) > 0)][0].intervals[]
			| [.start_s, (.p50_us // "NaN"), (.p99_us // "NaN"), .samples] | @tsv' "$in"
		printf '

'
		jq -r '[.generators[] | select(.kind == "bsg") | .intervals // []] as $b
			| if ($b | map(length) | add // 0) == 0 then "0	0	NaN" else
			  [range(0; $b | map(length) | max)] | map(. as $i |
			    [($b | map(.[$i].start_s // empty) | first), ($b | map(.[$i].gbps // 0) | add),
			     ($b | map(.[$i].received_gbps // empty) | if length > 0 then add else "NaN" end)] | @tsv) | .[] end' "$in"
	} > "$dat"
	# microseconds, or milliseconds when the largest p99 is 10 ms or more
	scale=$(awk -F'\t' 'NF == 0 { exit } $3 != "NaN" && $3 + 0 > m { m = $3 + 0 } END { print (m >= 1e4 ? "div=1e3; unit=\"ms\"" : "div=1; unit=\"us\"") }' "$dat")
	rx=$(awk -F'\t' 'NF == 0 { b++; next } b == 2 && $3 != "NaN" { r = 1 } END { print r + 0 }' "$dat")
	render timeseries.gp "lsg='$lsg'; rx=$rx; $scale"
	;;
counters)
	command -v jq > /dev/null || { echo "rperf-plot.sh: needs jq" >&2; exit 2; }
	jq -e '(.counters.tail // []) | map(select((.ranked | length) > 0)) | length > 0' "$in" > /dev/null 2>&1 ||
		{ echo "rperf-plot.sh: $in has no ranked counters (rperf run's counters.tail: an LSG with intervals and counters)" >&2; exit 2; }
	id=$(jq '[.counters.tail[] | select((.ranked | length) > 0)][0].id' "$in")
	lsg=$(jq -r --argjson id "$id" '.generators[] | select(.id == $id) | .name' "$in")
	case $lsg in *[!A-Za-z0-9_.-]*) lsg=LSG ;; esac
	mapfile -t ctrs < <(jq -r --argjson id "$id" '.counters.tail[] | select(.id == $id) | [.ranked[] | select(.spearman > 0)][:3][] | .counter' "$in")
	{
		jq -r --argjson id "$id" '.generators[] | select(.id == $id) | .intervals[] | [.start_s, (.p99_us // "NaN")] | @tsv' "$in"
		for c in "${ctrs[@]}"; do
			printf '\n\n'
			jq -r --argjson id "$id" --arg c "$c" '.generators[] | select(.id == $id) | .intervals
				| (map(.counters[$c] // 0) | max) as $m
				| .[] | [.start_s, (if .counters[$c] == null then "NaN" elif $m > 0 then .counters[$c] / $m else 0 end)] | @tsv' "$in"
		done
	} > "$dat"
	names=$(printf '%s ' "${ctrs[@]}" | tr -cd 'A-Za-z0-9_.:/ -')
	scale=$(awk -F'\t' 'NF == 0 { exit } $2 != "NaN" && $2 + 0 > m { m = $2 + 0 } END { print (m >= 1e4 ? "div=1e3; unit=\"ms\"" : "div=1; unit=\"us\"") }' "$dat")
	render counters.gp "lsg='$lsg'; n=${#ctrs[@]}; names='$names'; $scale"
	;;
*) usage ;;
esac
echo "rperf-plot.sh: wrote $prefix.png $prefix.svg"
