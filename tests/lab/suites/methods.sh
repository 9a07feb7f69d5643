#!/bin/bash
# methods.sh - rperf lat side by side with perftest- and qperf-style methods
# on one connection, output files and thresholds; one boot, 2 hosts:
#   rxe-lab run --hosts 2 tests/lab/suites/methods.sh
. /usr/lib/rperf-lab/lab-lib.sh
T=120
OUT=${LAB_OUT:-/tmp}
jget() { jq -r "$2" "$1"; }

# client ARGS...: server on h1, client on h2 (output in /tmp/cli.log)
client() {
	local r spid
	timeout "$T" rperf lat -d rxe_h1 > /tmp/srv.log 2>&1 &
	spid=$!
	timeout "$T" rperf lat -d rxe_h2 "$@" 10.77.0.1 > /tmp/cli.log 2> /tmp/cli.err
	r=$?
	wait "$spid"
	return "$r"
}

# one --method all run into $OUT/all-$1.json: its structure checked (three
# results, the breakdown); RP, PP, PO its RTT p50s
methods_once() {
	local j=$OUT/all-$1.json
	lab_assert_crossed 10000 client --method all -n 2000 --warmup 200 --pair-order sequential \
		--breakdown --out_json_file "$j" || { cat /tmp/cli.log /tmp/cli.err; return 1; }
	sed -n '/#bytes/,/^$/p' /tmp/cli.log
	echo "EXPECT three results: rperf, pingpong, postpoll"
	echo "GOT $(jq -c '[.results[].method]' "$j")"
	[ "$(jq -c '[.results[].method]' "$j")" = '["rperf","pingpong","postpoll"]' ] || return 1
	RP=$(jget "$j" '.results[0].rtt_ns.p50')
	PP=$(jget "$j" '.results[1].rtt_ns.p50')
	PO=$(jget "$j" '.results[2].rtt_ns.p50')
	lab_result "methods_p50_ns rperf=$RP pingpong=$PP (half $(jget "$j" '.results[1].half_rtt_ns.p50')) postpoll=$PO"
	grep -q '^breakdown' /tmp/cli.log || { echo "GOT no breakdown block"; return 1; }
	jq -e '.results[0] | has("post_wire_ns") and has("post_loop_ns")' "$j" > /dev/null || { echo "GOT no post cost in JSON"; return 1; }
	lab_result "methods_ratio pingpong_over_rperf=$(awk -v a="$PP" -v b="$RP" 'BEGIN { printf "%.2f", a / b }') postpoll_over_rperf=$(awk -v a="$PO" -v b="$RP" 'BEGIN { printf "%.2f", a / b }')"
}

# By design rperf's RTT is the lowest (Equation 1 takes the local software
# and PCIe out, pingpong and postpoll keep them): postpoll / rperf 1.48 to
# 4.00 and pingpong / rperf 2.35 to 5.39 over 6 rounds, but once (CI,
# 82e6f34) the emulator slowed the rperf phase of the connection alone
# (rperf 46.2 us, twice its usual 21-23 us; postpoll 43.6 us): the three
# methods run one after another, so a disturbed phase can invert them. A
# second run on a new connection then decides; each run must show rperf
# lowest by itself (a broken Equation 1 fails both).
all_methods() {
	local k
	for k in 1 2; do
		methods_once "$k" || return 1
		echo "EXPECT rperf's RTT p50 the lowest (run $k of at most 2)"
		echo "GOT rperf=$RP pingpong=$PP postpoll=$PO"
		[ "$RP" -lt "$PP" ] && [ "$RP" -lt "$PO" ] && return 0
	done
	return 1
}

files() {
	local n
	client -n 1500 --warmup 10 --pair-order sequential --raw "$OUT/raw.csv" \
		--hist "$OUT/hist.csv" --csv "$OUT/res.csv" || { cat /tmp/cli.err; return 1; }
	n=$(wc -l < "$OUT/raw.csv")
	echo "EXPECT raw.csv: header size,wire_ns,loop_ns,rtt_ns + 1500 rows; hist.csv ends at fraction 1; res.csv 2 lines"
	echo "GOT raw $(head -1 "$OUT/raw.csv") + $((n - 1)) rows; hist last $(tail -1 "$OUT/hist.csv"); res $(wc -l < "$OUT/res.csv") lines"
	[ "$(head -1 "$OUT/raw.csv")" = size,wire_ns,loop_ns,rtt_ns ] && [ "$n" = 1501 ] &&
		awk -F, 'END { exit !($8 + 0 == 1) }' "$OUT/hist.csv" && [ "$(wc -l < "$OUT/res.csv")" = 2 ] &&
		awk -F, 'NR > 1 && $2 - $3 != $4 { bad = 1 } END { exit bad }' "$OUT/raw.csv"
}

# --max-p999 / --max-p50 below and above: the limit logic is unit tested
# on the scripted device (unit.lat_limits: a limit at the run's own figure
# passes, 1 ns below fails); here only limits far from any RTT of the lab
# are used, and each run's own JSON shows its figure. A limit taken from a
# separate run once failed: one 3.0 ms outlier made it 301 us and the rerun
# came in under it. 1 ns: every lab RTT p99.9 is >= 20 us (thousands of
# times more); 1 s: the largest lab p99.9 seen is 8.4 ms (120 times less).
thresholds() {
	local r1 r2 p1 p2
	client -n 1000 --warmup 50 --pair-order sequential --max-p999 1ns --out_json_file "$OUT/th-low.json"
	r1=$?
	cp /tmp/cli.err /tmp/cli.err.low
	grep -- '--max-p999' /tmp/cli.err.low
	client -n 1000 --warmup 50 --pair-order sequential --max-p999 1s --max-p50 1s --out_json_file "$OUT/th-high.json"
	r2=$?
	p1=$(jget "$OUT/th-low.json" '.results[0].rtt_ns.p999')
	p2=$(jget "$OUT/th-high.json" '.results[0].rtt_ns.p999')
	lab_result "thresholds limit_low=1ns p999_ns=$p1 exit=$r1 limit_high=1s p999_ns=$p2 exit=$r2"
	echo "EXPECT exit 1 with --max-p999 1ns (naming it), 0 with 1 s; each run's p99.9 between"
	echo "GOT $r1 (p99.9 $p1 ns) and $r2 (p99.9 $p2 ns)"
	[ "$r1" = 1 ] && [ "$r2" = 0 ] && grep -q -- '--max-p999: RTT p99.9 at 64 B' /tmp/cli.err.low &&
		[ "$p1" -gt 1 ] && [ "$p2" -lt 1000000000 ]
}

# -R: the wire QP connected by rdma_cm from the client's own address; the
# SL and traffic class are set on the QP after rdma_init_qp_attr
rdma_cm() {
	local tos
	lab_capture_start h1 || return 1
	lab_assert_crossed 2000 client -R -S 3 --tclass 96 -n 1000 --warmup 100 \
		--pair-order sequential --out_json_file "$OUT/cm.json" || { lab_capture_stop; cat /tmp/cli.err; return 1; }
	tos=$(lab_capture_stop)
	echo "INFO TOS on h1's wire: $(echo "$tos" | tr '\n' ' ')"
	lab_result "rdma_cm samples=$(jget "$OUT/cm.json" '.results[0].samples') rtt_p50_ns=$(jget "$OUT/cm.json" '.results[0].rtt_ns.p50')"
	# the data path carries the traffic class; at most the handful of CM
	# handshake packets (REQ/REP/RTU/DREQ/DREP) may differ
	echo "EXPECT >= 2000 RoCE packets with TOS 0x60 (tclass 96), <= 10 others"
	echo "GOT $(echo "$tos" | tr '\n' ' ')"
	echo "$tos" | awk '$3 == "0x60" { t += $1; next } { o += $1 } END { exit !(t >= 2000 && o <= 10) }'
}

check "-R (rdma_cm, bound source): crosses the switch, tclass on wire" rdma_cm
check "--method all: three methods, one connection; rperf lowest" all_methods
check "--raw, --hist, --csv files"                               files
check "--max-p999 below/above the measurement: exit 1/0"         thresholds
lab_summary
