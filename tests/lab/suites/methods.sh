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

all_methods() {
	local j=$OUT/all.json rp pp po
	lab_assert_crossed 10000 client --method all -n 2000 --warmup 200 --pair-order sequential \
		--breakdown --out_json_file "$j" || { cat /tmp/cli.log /tmp/cli.err; return 1; }
	sed -n '/#bytes/,/^$/p' /tmp/cli.log
	echo "EXPECT three results: rperf, pingpong, postpoll"
	echo "GOT $(jq -c '[.results[].method]' "$j")"
	[ "$(jq -c '[.results[].method]' "$j")" = '["rperf","pingpong","postpoll"]' ] || return 1
	rp=$(jget "$j" '.results[0].rtt_ns.p50')
	pp=$(jget "$j" '.results[1].rtt_ns.p50')
	po=$(jget "$j" '.results[2].rtt_ns.p50')
	lab_result "methods_p50_ns rperf=$rp pingpong=$pp (half $(jget "$j" '.results[1].half_rtt_ns.p50')) postpoll=$po"
	grep -q '^breakdown' /tmp/cli.log || { echo "GOT no breakdown block"; return 1; }
	jq -e '.results[0] | has("post_wire_ns") and has("post_loop_ns")' "$j" > /dev/null || { echo "GOT no post cost in JSON"; return 1; }
	echo "EXPECT rperf's RTT p50 the lowest"
	echo "GOT rperf=$rp pingpong=$pp postpoll=$po"
	[ "$rp" -lt "$pp" ] && [ "$rp" -lt "$po" ]
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

thresholds() {
	local p999 lo hi r1 r2
	client -n 1000 --warmup 50 --pair-order sequential --out_json_file "$OUT/th.json" || return 1
	p999=$(jget "$OUT/th.json" '.results[0].rtt_ns.p999')
	lo=$((p999 / 1000 / 10 + 1))us  # far below the measured p99.9
	hi=1s
	client -n 1000 --warmup 50 --pair-order sequential --max-p999 "$lo"
	r1=$?
	client -n 1000 --warmup 50 --pair-order sequential --max-p999 "$hi" --max-p50 "$hi"
	r2=$?
	lab_result "thresholds measured_p999_ns=$p999 limit_low=$lo exit=$r1 limit_high=$hi exit=$r2"
	echo "EXPECT exit 1 below the measured p99.9, 0 above"
	echo "GOT $r1 and $r2"
	[ "$r1" = 1 ] && [ "$r2" = 0 ]
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
