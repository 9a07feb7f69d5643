#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# compare.sh (--hosts 2) - rperf compare in one boot: the switch's added RTT
# as the RPerf paper reports it, by differencing.
#   c2 -> c1:  a direct link (lab_mk_cable: one veth pair, rxe_c1/rxe_c2,
#              10.77.1.x), the back-to-back baseline;
#   h2 -> h1:  through the switch (bridge br0), then through the switch with
#              a known 1 ms delay on the port towards h1 (netem).
# Checks: compare prints every percentile with its +-, writes its JSON; the
# known answer (switch+1ms - switch) is ~1 ms at p10 (netem overshoots under
# TCG: 1.1-1.4 ms on a quiet host; a busy host inflates medians most, p50
# was 1.6-3.6 ms with other VMs and builds running: p10 in [0.8, 3] ms is
# checked, p50 printed); the direct-vs-switch difference
# is printed as the emulated switch's added RTT (no bound: a Linux bridge
# under TCG adds little and noise dominates).
. /usr/lib/rperf-lab/lab-lib.sh
out=${LAB_OUT:-/out}
args=(-s 64 -n 3000 --warmup 300 --pair-order sequential --percentiles 10,50,99,99.9)

# lat_run NAME SERVER CLIENT NET: one measurement CLIENT -> SERVER (rxe_SERVER
# at NET) into NAME.json; CHECK: a command that proves the path it took
lat_run() {
	local name=$1 s=$2 c=$3 addr=$4 spid rc
	shift 4
	timeout 120 rperf lat -d "rxe_$s" --cpu 0 > "/tmp/srv-$name.log" 2>&1 &
	spid=$!
	"$@" timeout 120 rperf lat -d "rxe_$c" --cpu 1 \
		--out_json_file "$out/$name.json" "${args[@]}" "$addr"
	rc=$?
	wait "$spid" || rc=1
	return "$rc"
}

# on_cable CMD...: CMD must succeed and its packets cross the cable (c2 tx)
on_cable() {
	local a b rc
	a=$(cat /sys/class/net/c2/statistics/tx_packets)
	"$@"
	rc=$?
	b=$(cat /sys/class/net/c2/statistics/tx_packets)
	echo "INFO packets over the cable: $((b - a)); EXPECT >= 1000, status 0; GOT status $rc"
	[ "$rc" = 0 ] && [ $((b - a)) -ge 1000 ]
}

# PCT of series 0 in a compare JSON: "diff uncertainty" (ns)
point_of() {
	jq -r --arg p "$2" '.series[0].points[] | select(.percentile == $p) |
		"\(.diff) \(.uncertainty)"' "$1"
}

direct_cable() {
	lab_mk_cable || return 1
	lat_run direct c1 c2 10.77.1.1 on_cable
}
through_switch() { lat_run switch h1 h2 10.77.0.1 lab_assert_crossed 1000; }
through_delay() {
	lab_delay h1 1ms || return 1
	lat_run switch-1ms h1 h2 10.77.0.1 lab_assert_crossed 1000
	local rc=$?
	lab_delay_clear h1
	return "$rc"
}

# compare BASE RUN NAME: the table, exit 0, JSON with all six fixed points
compare() {
	local rc n
	rperf compare "$out/$1.json" "$out/$2.json" --out_json_file "$out/$3.json"
	rc=$?
	n=$(jq '.series[0].points | length' "$out/$3.json" 2> /dev/null)
	echo "EXPECT exit 0 and >= 6 points per series; GOT exit $rc, ${n:-no} points"
	[ "$rc" = 0 ] && [ "${n:-0}" -ge 6 ]
}

switch_added() {
	local d u
	compare direct switch cmp-switch || return 1
	# shellcheck disable=SC2046 # two numbers
	set -- $(point_of "$out/cmp-switch.json" p50)
	d=$1 u=$2
	lab_result "switch_added_rtt_p50_ns=$d uncertainty_ns=$u (through the bridge - direct cable, Soft-RoCE under TCG)"
}

known_answer() {
	local d u
	compare switch switch-1ms cmp-1ms || return 1
	# shellcheck disable=SC2046 # two numbers
	set -- $(point_of "$out/cmp-1ms.json" p10)
	d=$1 u=$2
	lab_result "netem_1ms_added_rtt_p10_ns=$d uncertainty_ns=$u p50: $(point_of "$out/cmp-1ms.json" p50)"
	lab_expect_range "p10 difference (ns)" "$d" 800000 3000000 &&
		lab_expect_range "its +- (ns)" "$u" 0 100000
}

refuses() {
	rperf compare "$out/switch.json" /nonexistent.json > /tmp/cmp.log 2>&1
	local rc=$?
	cat /tmp/cmp.log
	echo "EXPECT exit 2 naming the file; GOT $rc"
	[ "$rc" = 2 ] && grep -q /nonexistent.json /tmp/cmp.log
}

check "direct link c2 -> c1 (one veth pair, no switch)" direct_cable
check "through the switch h2 -> h1" through_switch
check "through the switch + 1 ms netem delay" through_delay
check "compare direct vs switch: the switch's added RTT" switch_added
check "compare switch vs switch+1ms: ~1 ms at p10" known_answer
check "compare refuses a missing report (exit 2)" refuses
lab_summary
