#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# path-faults.sh - faults on the path between two lab hosts (issue 14):
#   rxe-lab run --hosts 2 tests/lab/suites/path-faults.sh
# Server on h1 (rxe_h1, 10.77.0.1, --persistent), client on h2.
# 1. The switch port towards h1 goes down for 3 s in the middle of a
#    `rperf lat` and of a `rperf bw` run. The run either completes (RC
#    retransmitted: the report says retransmissions were likely) or ends with
#    exit 3, the partial JSON written and the verbs status named in words,
#    within 2 x the stall limit of the fault; never a hang. The server then
#    serves the next client. rxe retransmits through a 3 s outage at the
#    default --retry-count 7, so the same runs with --retry-count 0 prove
#    the failure path (exit 3, partial JSON, status in words).
# 2. 1 % loss on that port (netem): the runs complete, and the report (JSON
#    "retransmissions", text "retransmissions likely: yes") says so, from the
#    device's hw counters (/sys/class/infiniband/DEV/ports/1/hw_counters).
# Ends with "N passed, M failed".
. /usr/lib/rperf-lab/lab-lib.sh
OUT=${LAB_OUT:-/tmp}
# the stall limit at the default -u 14 --retry-count 7: 4 x 67 ms x 8 =
# 2.1 s, raised to its 5 s floor (rperf_rc_stall_ns)
STALL=5
# verbs work-completion statuses in words (ibv_wc_status_str)
WC_WORDS='transport retry counter exceeded|RNR retry counter exceeded|Work Request Flushed Error|remote access error|remote operation error|local protection error'

server() { # CMD: a --persistent server on h1 (its pid in SPID)
	rperf "$1" -d rxe_h1 --persistent > "/tmp/srv-$1.log" 2>&1 &
	SPID=$!
	sleep 1
}
server_stop() {
	kill "$SPID" 2> /dev/null
	wait "$SPID" 2> /dev/null
	sed 's/^/  [srv] /' "/tmp/srv-$1.log" | tail -n 8
}
jget() { jq -r "$2" "$1"; }

# port_down EXPECT CMD ARGS...: CMD's client runs -D 10; once its traffic
# flows (10,000 packets to h1: the setup takes 1-5 s on a loaded VM) and 1 s
# more (past the warm-up), h1-sw goes down for 3 s. EXPECT: either
# (completes or fails in words) or fail (exit 3)
port_down() {
	local expect=$1 cmd=$2 j=$OUT/pf-down-$2-$1.json rc t0 tf te waited retr err
	shift 2
	rm -f "$j"
	server "$cmd"
	t0=$EPOCHREALTIME
	timeout 60 rperf "$cmd" -d rxe_h2 -D 10 --out_json_file "$j" "$@" 10.77.0.1 > /tmp/cli.log 2>&1 &
	local cpid=$! p0
	p0=$(lab_port_tx h1)
	while kill -0 "$cpid" 2> /dev/null && [ $(($(lab_port_tx h1) - p0)) -lt 10000 ]; do
		sleep 0.2
	done
	sleep 1
	tf=$EPOCHREALTIME
	lab_sw ip link set h1-sw down
	sleep 3
	lab_sw ip link set h1-sw up
	wait "$cpid"
	rc=$?
	te=$EPOCHREALTIME
	sed 's/^/  [cli] /' /tmp/cli.log
	waited=$(awk -v a="$tf" -v b="$te" 'BEGIN { printf "%.2f", b - a }')
	echo "  client status $rc, $(awk -v a="$t0" -v b="$te" 'BEGIN { printf "%.2f", b - a }') s in all, ended $waited s after the port went down"
	# the server serves the next client once the port is back
	local next=0
	timeout 60 rperf "$cmd" -d rxe_h2 -n 200 10.77.0.1 > /tmp/next.log 2>&1 || next=$?
	sed 's/^/  [next] /' /tmp/next.log | tail -n 4
	server_stop "$cmd"
	lab_result "path_down cmd=$cmd status=$rc seconds_after_fault=$waited next_client_status=$next"
	if [ "$expect" = fail ]; then
		echo "EXPECT exit 3 (RC gives up after one ACK timeout)"
		echo "GOT $rc"
		[ "$rc" = 3 ] || return 1
	else
		echo "EXPECT exit 0 (completed) or 3 (failed in words), never a hang (124)"
		echo "GOT $rc"
		[ "$rc" = 0 ] || [ "$rc" = 3 ] || return 1
	fi
	echo "EXPECT the JSON report written"
	echo "GOT $(ls -l "$j" 2> /dev/null || echo none)"
	[ -s "$j" ] || return 1
	retr=$(jget "$j" '.retransmissions.likely')
	err=$(jget "$j" '.error')
	if [ "$rc" = 0 ]; then
		echo "EXPECT completed: the report notes the gap (retransmissions likely: yes)"
		echo "GOT retransmissions $(jq -c .retransmissions "$j"); text: $(grep 'retransmissions likely' /tmp/cli.log)"
		[ "$retr" = true ] && grep -q 'retransmissions likely: yes' /tmp/cli.log || return 1
	else
		echo "EXPECT failed: partial JSON, the verbs status in words, within 2 x the stall limit ($((2 * STALL)) s) of the fault"
		echo "GOT partial $(jget "$j" .partial), error: $err; $waited s"
		[ "$(jget "$j" .partial)" = true ] || return 1
		grep -Eq "$WC_WORDS" <<< "$err" || return 1
		echo "EXPECT the partial results kept: samples (lat) or messages (bw) measured before the fault > 0"
		echo "GOT $(jq -c '[.results[] | (.samples // .messages)]' "$j")"
		jq -e '[.results[] | (.samples // .messages // 0)] | add > 0' "$j" > /dev/null || return 1
		awk -v w="$waited" -v s="$STALL" 'BEGIN { exit !(w <= 2 * s) }' || return 1
	fi
	echo "EXPECT the server serves the next client (status 0)"
	echo "GOT $next"
	[ "$next" = 0 ]
}
lat_port_down() { port_down either lat -s 64; }
bw_port_down() { port_down either bw -s 4096; }
# no retries: RC gives up ~67 ms into the outage, the failure path for sure
# --warmup 10: the partial results must hold measured samples, and the
# fault is timed by packets, not by the warm-up's end (a CI boot under load
# was still in the default 1000-sample warm-up when the port went down:
# 812 done, 0 kept to check)
lat_port_down_fail() { port_down fail lat -s 64 --warmup 10 --retry-count 0; }
bw_port_down_fail() { port_down fail bw -s 4096 --retry-count 0; }

# lossy CMD ARGS...: 1 % loss towards h1, the run completes and says so
lossy() {
	local cmd=$1 j=$OUT/pf-loss-$1.json rc
	shift
	rm -f "$j"
	server "$cmd"
	lab_sw tc qdisc replace dev h1-sw root netem loss 1%
	timeout 120 rperf "$cmd" -d rxe_h2 --out_json_file "$j" "$@" 10.77.0.1 > /tmp/cli.log 2>&1
	rc=$?
	lab_port_reset h1
	sed 's/^/  [cli] /' /tmp/cli.log
	server_stop "$cmd"
	lab_result "path_loss cmd=$cmd status=$rc retransmissions=$(jq -c .retransmissions "$j" 2> /dev/null)"
	echo "EXPECT the run completes (exit 0) with 1 % loss"
	echo "GOT $rc"
	[ "$rc" = 0 ] || return 1
	echo "EXPECT JSON retransmissions.likely true from the hw counters, text 'retransmissions likely: yes'"
	echo "GOT $(jq -c .retransmissions "$j"); text: $(grep 'retransmissions likely' /tmp/cli.log)"
	[ "$(jget "$j" .retransmissions.likely)" = true ] &&
		[ "$(jget "$j" .retransmissions.source)" = hw_counters ] &&
		grep -q 'retransmissions likely: yes' /tmp/cli.log
}
lat_loss() { lossy lat -s 64 -n 2000; }
# one packet per message (1 KiB at the lab's 1024 B path MTU): multi-packet
# SENDs under loss can end in 'remote invalid request error' on rxe (see
# loss_probe below)
bw_loss() { lossy bw -s 1024 -n 4000; }

# loss_probe: not a check. 4 KiB SENDs (4 packets each) under 1 % loss, by
# rperf bw and by perftest's ib_send_bw: prints what each got, so that a
# failure there can be told apart (rxe's or rperf's)
loss_probe() {
	local rc prc
	server bw
	lab_sw tc qdisc replace dev h1-sw root netem loss 1%
	timeout 120 rperf bw -d rxe_h2 -s 4096 -n 4000 10.77.0.1 > /tmp/probe.log 2>&1
	rc=$?
	server_stop bw > /dev/null
	lab_pair h1 h2 120 ib_send_bw -s 4096 -n 4000 > /tmp/probe-pt.log 2>&1
	prc=$?
	lab_port_reset h1
	echo "INFO 4 KiB SENDs under 1 % loss: rperf bw status $rc ($(grep -o "status '[^']*'" /tmp/probe.log | head -n 1)), ib_send_bw status $prc ($(grep -o -m1 -E 'status [0-9]+|Failed status.*|Completion with error.*' /tmp/probe-pt.log | head -n 1))"
}

# no fault: the counters are read and say "no"
clean() {
	local j=$OUT/pf-clean.json
	rm -f "$j"
	server lat
	timeout 60 rperf lat -d rxe_h2 -s 64 -n 500 --out_json_file "$j" 10.77.0.1 > /tmp/cli.log 2>&1
	local rc=$?
	server_stop lat
	grep 'retransmissions likely' /tmp/cli.log
	# (no assertion on "likely": the emulated VM under load can itself
	# fire an ACK timeout, and then the counters rightly say so)
	echo "EXPECT a clean run: exit 0, retransmissions read from the hw counters of rxe_h2 port 1"
	echo "GOT status $rc, $(jq -c .retransmissions "$j" 2> /dev/null)"
	echo "INFO clean run: retransmissions likely $(jget "$j" .retransmissions.likely)"
	[ "$rc" = 0 ] && [ "$(jget "$j" .retransmissions.source)" = hw_counters ] &&
		[ "$(jget "$j" .retransmissions.device)" = rxe_h2 ] &&
		[ "$(jget "$j" .retransmissions.port)" = 1 ]
}

hw=(/sys/class/infiniband/rxe_h2/ports/1/hw_counters/*)
lab_say "hw counters of rxe_h2: ${hw[*]##*/}"
check "clean run: the report reads the hw counters" clean
check "port down 3 s mid-run: rperf lat completes or fails in words" lat_port_down
check "port down 3 s mid-run: rperf bw completes or fails in words" bw_port_down
check "port down, --retry-count 0: rperf lat exit 3, status in words" lat_port_down_fail
check "port down, --retry-count 0: rperf bw exit 3, status in words" bw_port_down_fail
check "1 % loss: rperf lat completes, retransmissions likely" lat_loss
check "1 % loss: rperf bw (1 KiB) completes, retransmissions likely" bw_loss
loss_probe
lab_summary
