#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# fig7.sh - the RPerf paper's Fig 7 (converged traffic) from the example job
# file, in the lab, one boot:
#   rxe-lab run --hosts 5 tests/lab/suites/fig7.sh   (tests/lab/fig7-plot.sh
#   runs it and draws the plots on the host: ctest -R lab.fig7)
# examples/fig7-converged.ini runs unchanged through --hosts-map
# examples/lab-hosts.ini (sink = h1, probe = h2, load1..3 = h3..h5) as
#   rperf run --sweep bsg.load.count=0,1,2,3
# on the switch port h1-sw shaped to 4 Mb/s with one shared FIFO (tbf), as
# run-qos.sh does it; the lab's message sizes and depths come in through
# --set, read from examples/lab-sets.txt (the file's are for hardware:
# 4 KiB x 128 in flight would queue for seconds at 4 Mb/s). Checks: the sweep's table and JSON (sweep.json: every
# point ok, BSG count = the swept value, the LSG median rising with each
# BSG) and `rperf lat --hist` for the CDF plot (lsg-hist.csv). The lab
# settings are run-qos.sh's, each measured there.
. /usr/lib/rperf-lab/lab-lib.sh
OUT=${LAB_OUT:-/tmp}
EX=/usr/share/rperf/examples
# the lab profile next to the hosts map: one --set per line of it
lab_example_sets
SETS=("${LAB_SETS[@]}")
T=120
WIN=fig7-1  # the attempt whose sweep is kept

setup() {
	local d
	[ -r "$EX/fig7-converged.ini" ] && [ -r "$EX/lab-hosts.ini" ] && [ "${#SETS[@]}" = 26 ] ||
		{ echo "GOT no examples in the image ($EX), or not the 13 lines of lab-sets.txt (${#SETS[@]} words)"; return 1; }
	for d in /sys/class/net/h*/queues/rx-0/rps_cpus; do echo 1 > "$d"; done
	ip netns exec sw sh -c 'for d in /sys/class/net/h*/queues/rx-0/rps_cpus; do echo 1 > $d; done'
	lab_fifo h1 4mbit || { sleep 0.5; lab_fifo h1 4mbit; } || return 1
	echo "INFO h1-sw: $(tc -n sw qdisc show dev h1-sw | tr '\n' ' ')"
	lab_agents_start 5
}

# sweep TAG: the Fig 7 sweep into $OUT/TAG.json / .txt
sweep() {
	local tag=$1 rc b0 b1 t
	rm -f "$OUT/$tag.json"
	b0=$(lab_port_tx h1 bytes)
	t=$EPOCHREALTIME
	timeout "$T" rperf run --key-file "$LAB_KEY" --hosts-map "$EX/lab-hosts.ini" "${SETS[@]}" \
		--sweep bsg.load.count=0,1,2,3 --out_json_file "$OUT/$tag.json" \
		"$EX/fig7-converged.ini" > "$OUT/$tag.txt" 2>&1
	rc=$?
	b1=$(lab_port_tx h1 bytes)
	sed -n '/^sweep /,$p' "$OUT/$tag.txt" | sed 's/^/INFO /'
	echo "INFO rperf run --sweep: status $rc, $(lab_since "$t") s, h1-sw sent $((b1 - b0)) bytes"
	[ "$rc" = 0 ] || { tail -n 20 "$OUT/$tag.txt"; echo "GOT status $rc"; return 1; }
	lab_expect_ge "bytes h1-sw sent during the sweep (>= 3 s of 4 Mb/s)" $((b1 - b0)) 1000000
}

# the JSON: 4 points, each ok, BSG count = value, LSG samples, a median
points_ok() {
	local j=$1
	echo "EXPECT 4 points: status ok, bsg_count = value, lsg_samples >= 20 (a median; a closed-loop LSG at 20-60 ms RTT takes 50-150 in 3 s), lsg_rtt_ns.p50 > 0, bsg_gbps > 0 with BSGs"
	echo "GOT $(jq -c '[.points[] | {value, x, status, bsg_count, lsg_samples, p50: .lsg_rtt_ns.p50, bsg_gbps}]' "$j")"
	jq -e '.sweep.key == "bsg.load.count" and .sweep.param == "count" and
		(.hosts_map | endswith("lab-hosts.ini")) and (.points | length) == 4 and
		all(.points[]; .status == "ok" and .exit_status == 0 and
			.bsg_count == (.value | tonumber) and .x == (.value | tonumber) and
			.lsg_samples >= 20 and .lsg_rtt_ns.p50 > 0 and
			.report.generators != null and
			(.bsg_count == 0 or (.bsg_gbps > 0 and .bsg_gbps_by_name.load == .bsg_gbps)))' "$j" > /dev/null
}

# LSG median strictly rising with each BSG (one shared FIFO: each BSG adds
# its bytes in flight / 4 Mb/s, 9.4 ms here; run-qos.sh checks the size of
# the step against Equation 2). A sweep that misses runs once more, as
# run-qos.sh's series does (a stalled emulated VM can empty a BSG's queue).
rises() {
	local j=$1
	echo "EXPECT LSG p50 with k BSGs > with k-1, k = 1..3"
	echo "GOT p50 ns $(jq -c '[.points[].lsg_rtt_ns.p50]' "$j")"
	jq -e '[.points[].lsg_rtt_ns.p50] as $p | all(range(1; 4); $p[.] > $p[. - 1])' "$j" > /dev/null
}

fig7() {
	local a
	for a in 1 2; do
		sweep "fig7-$a" || return 1
		points_ok "$OUT/fig7-$a.json" || return 1
		if rises "$OUT/fig7-$a.json"; then
			cp "$OUT/fig7-$a.json" "$OUT/sweep.json"
			WIN=fig7-$a
			lab_result "fig7 attempt=$a lsg_p50_ns=$(jq -r '[.points[].lsg_rtt_ns.p50] | join(",")' "$OUT/sweep.json") bsg_gbps=$(jq -r '[.points[].bsg_gbps] | join(",")' "$OUT/sweep.json")"
			return 0
		fi
		echo "NOTE sweep attempt $a: the LSG median did not rise with every BSG; $([ "$a" = 1 ] && echo "running it once more")"
	done
	return 1
}

# the table: a header, then one line per value, BSG column matching the JSON
table() {
	local t=$OUT/$WIN.txt
	echo "EXPECT a 'sweep bsg.load.count: 4 points' table with rows 0..3, 1 LSG each, status ok"
	echo "GOT $(sed -n '/^sweep /,/^RTT:/p' "$t" | tr '\n' '|')"
	sed -n '/^sweep /,/^RTT:/p' "$t" | awk '
		/^sweep bsg.load.count: 4 points/ { h = 1 }
		$2 == "ok" && $3 == 1 && $4 == $1 { n++ }
		END { exit !(h && n == 4) }'
}

# rperf compare on two points of the sweep (FILE#VALUE, no jq): 3 BSGs
# minus none; its p50 difference is the points' own p50s' difference
compare_points() {
	local j=$OUT/sweep.json c=$OUT/cmp-0-3.json want got
	timeout 30 rperf compare --out_json_file "$c" "$j#0" "$j#3" > "$OUT/cmp-0-3.txt" 2>&1 ||
		{ echo "GOT rperf compare status $?: $(head -c 400 "$OUT/cmp-0-3.txt")"; return 1; }
	sed 's/^/  [compare] /' "$OUT/cmp-0-3.txt" | head -20
	want=$(jq '.points[3].report.generators[] | select(.kind == "lsg") | .rtt_ns.p50 - 0' "$j" | head -1)
	want=$((want - $(jq '.points[0].report.generators[] | select(.kind == "lsg") | .rtt_ns.p50' "$j" | head -1)))
	got=$(jq '.series[0].points[] | select(.percentile == "p50") | .diff' "$c")
	lab_result "fig7_compare p50_diff_ns=$got points_diff_ns=$want"
	echo "EXPECT compare's p50 diff = point 3's LSG p50 - point 0's ($want ns), > 0"
	echo "GOT $got"
	[ "$got" = "$want" ] && [ "$got" -gt 0 ]
}

# the CDF: rperf lat --hist on the same path with the port idle
hist() {
	lab_fifo h1 || return 1
	timeout 90 rperf lat -d rxe_h1 --cpu 0 > /tmp/lat-srv.log 2>&1 &
	local s=$! rc
	sleep 0.5
	timeout 60 rperf lat -d rxe_h2 --cpu 1 -s 64 -n 2000 --warmup 200 \
		--hist "$OUT/lsg-hist.csv" 10.77.0.1 > "$OUT/lat.txt" 2>&1
	rc=$?
	wait "$s" 2> /dev/null
	echo "INFO $(grep -E 'RTT|p50' "$OUT/lat.txt" | head -3 | tr '\n' ' ')"
	echo "EXPECT rperf lat status 0 and a CDF ending at fraction 1"
	echo "GOT status $rc, $(wc -l < "$OUT/lsg-hist.csv" 2> /dev/null) lines, last: $(tail -n 1 "$OUT/lsg-hist.csv" 2> /dev/null)"
	[ "$rc" = 0 ] && head -n 1 "$OUT/lsg-hist.csv" | grep -q '^size,repeat,lo_ns,hi_ns,value_ns,count,cumulative,fraction$' &&
		tail -n 1 "$OUT/lsg-hist.csv" | awk -F, '{ exit !($8 == 1) }'
}

if ! command -v rperf > /dev/null; then
	echo "skip: no rperf binary in this boot (build target rperf_bin)"
	exit 77
fi
check "5 agents, h1-sw shaped to 4 Mb/s (one FIFO)"              setup
check "Fig 7 sweep from the example file through --hosts-map"   fig7
check "sweep JSON: 4 points ok, BSG count = value"              points_ok "$OUT/sweep.json"
check "sweep table: one row per value"                          table
check "rperf compare sweep.json#0 sweep.json#3 (3 BSGs minus none)" compare_points
check "rperf lat --hist h2 -> h1: the CDF for the plot"         hist
lab_agents_stop
lab_summary
