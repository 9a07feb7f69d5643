#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# server-limits.sh - what one client may cost an rperf bw server (issue 14):
#   rxe-lab run --hosts 2 tests/lab/suites/server-limits.sh
# One --persistent server on h1 (--stall-limit 2s, ulimit -n 64) serves
# every check; clients on h2. The sink sleeps after the stall limit (CPU
# from /proc/PID/stat), an over-limit client is refused before anything is
# allocated, a wedged or killed -b -u 31 client frees the server within the
# stall limit, -q 256 -e works under ulimit -n 64, a client whose GID is not
# its control address is refused, a bad output path exits 2 at once.
# Ends with "N passed, M failed".
# shellcheck source=/dev/null
. /usr/lib/rperf-lab/lab-lib.sh
STALL=2     # the server's --stall-limit, seconds
SRV_LOG=/tmp/limits-srv.log
HZ=100      # USER_HZ: /proc/PID/stat counts CPU time in 1/100 s
OUT=${LAB_OUT:-/tmp}

start_server() {
	(ulimit -n 64 && exec rperf bw -d rxe_h1 --persistent --stall-limit "$STALL") > "$SRV_LOG" 2>&1 &
	SPID=$!
	_lab_wait_listen 18520 "$SPID"
}

# cpu_ticks PID: utime + stime of PID (fields 14 and 15 of /proc/PID/stat)
cpu_ticks() {
	local s
	read -r s < "/proc/$1/stat" || return 1
	s=${s##*) }
	# shellcheck disable=SC2086 # the fields, split on purpose
	set -- $s
	echo $((${12} + ${13}))
}
# cpu_pct PID SECONDS: the share of one CPU PID used over SECONDS
cpu_pct() {
	local a b
	a=$(cpu_ticks "$1") || return 1
	sleep "$2"
	b=$(cpu_ticks "$1") || return 1
	awk -v d=$((b - a)) -v s="$2" -v hz=$HZ 'BEGIN { printf "%.1f\n", 100 * d / hz / s }'
}
rss_kb() { awk '/^VmRSS/ { print $2 }' "/proc/$1/status"; }
hwm_kb() { awk '/^VmHWM/ { print $2 }' "/proc/$1/status"; }
srv_lines() { wc -l < "$SRV_LOG"; }
# wait_srv_line N TMO: until the server log has more than N lines; prints
# the seconds it took, fails after TMO seconds
wait_srv_line() {
	local t=$EPOCHREALTIME k
	for ((k = 0; k < $2 * 20; k++)); do
		[ "$(srv_lines)" -gt "$1" ] && { lab_since "$t"; return 0; }
		sleep 0.05
	done
	return 1
}

# a normal client gets its result (the server keeps serving)
normal_client() {
	local r
	timeout 60 rperf bw -d rxe_h2 -n 500 -s 4096 --out_json_file "$OUT/limits-normal.json" 10.77.0.1 > /tmp/limits-cli.log 2>&1
	r=$?
	sed 's/^/  [cli] /' /tmp/limits-cli.log
	echo "EXPECT status 0 and 500 messages received"
	echo "GOT status $r, $(jq -r '.results[0].receiver.messages' "$OUT/limits-normal.json" 2> /dev/null) received"
	[ "$r" = 0 ] && [ "$(jq -r '.results[0].receiver.messages' "$OUT/limits-normal.json")" = 500 ]
}

server_up() {
	start_server || { cat "$SRV_LOG"; return 1; }
	kill -0 "$SPID" && normal_client
}

# cpu_after_stop PID LABEL CLIENT ARGS...: CLIENT runs 3 s against the
# server PID (busy polling: its CPU sampled over 2 s), is stopped, and the
# server's CPU is sampled each second after: the stopped client's kernel
# (rxe) still sends what it had posted, so messages trail the stop by up to
# a second or two; the last two samples (from STALL + 1 s on) must be ~0
cpu_after_stop() {
	local pid=$1 label=$2 cpid busy i series=() r
	shift 2
	"$@" > "/tmp/limits-$label.log" 2>&1 &
	cpid=$!
	sleep 3
	busy=$(cpu_pct "$pid" 2)
	kill -STOP "$cpid"
	for ((i = 0; i < STALL + 3; i++)); do
		series+=("$(cpu_pct "$pid" 1)")
	done
	kill -KILL "$cpid"
	wait "$cpid" 2> /dev/null
	lab_result "${label}_cpu_pct busy=$busy after_stop_per_s=${series[*]} stall_limit_s=$STALL"
	lab_expect_ge "server CPU % while its client runs (busy polling)" "$busy" 30 || r=1
	lab_expect_range "server CPU % in second $((STALL + 2)) after the stop" "${series[STALL + 1]}" 0 3 || r=1
	lab_expect_range "server CPU % in second $((STALL + 3)) after the stop" "${series[STALL + 2]}" 0 3 || r=1
	return ${r:-0}
}
sink_sleeps() {
	cpu_after_stop "$SPID" bw_sink rperf bw -d rxe_h2 -s 65536 --run_infinitely 10.77.0.1
}
# lat --method pingpong: the server echoes (busy polling) and sleeps on the
# receive CQ's events after the stall limit without a SEND
echo_sleeps() {
	local lpid r
	rperf lat -d rxe_h1 -p 18540 --stall-limit "$STALL" > /tmp/limits-lsrv.log 2>&1 &
	lpid=$!
	_lab_wait_listen 18540 "$lpid" || return 1
	cpu_after_stop "$lpid" lat_echo rperf lat -d rxe_h2 -p 18540 --method pingpong -D 60 10.77.0.1
	r=$?
	wait "$lpid"
	sed 's/^/  [lat srv] /' /tmp/limits-lsrv.log
	return $r
}

# deepest queues the device allows (max_qp_wr, max_cqe)
max_depth() {
	ibv_devinfo -v -d rxe_h1 | awk '/max_qp_wr:/ { w = $2 } /max_cqe:/ { c = $2 } END { print (w < c ? w : c) }'
}

# -q 1024 -s 16M with the deepest receive queues: refused (exit 2, the
# limit and the figure named) before the server allocates anything
over_limit() {
	local d rss0 rss1 r n
	d=$(max_depth)
	n=$(srv_lines)
	rss0=$(rss_kb "$SPID")
	timeout 60 rperf bw -d rxe_h2 -q 1024 -s 16M -r "$d" -n 10 10.77.0.1 > /tmp/limits-big.log 2>&1
	r=$?
	wait_srv_line "$n" 5 > /dev/null
	rss1=$(rss_kb "$SPID")
	sed 's/^/  [cli] /' /tmp/limits-big.log
	sed 's/^/  [srv] /' "$SRV_LOG" | tail -2
	lab_result "over_limit depth=$d status=$r server_rss_kb_before=$rss0 after=$rss1 reason=$(tr '\n' ' ' < /tmp/limits-big.log)"
	echo "EXPECT status 2, 'would pin' and '--max-memory' in the reason, server RSS grown < 8 MB"
	echo "GOT status $r, RSS $rss0 -> $rss1 kB"
	[ "$r" = 2 ] && grep -q "would pin .*--max-memory" /tmp/limits-big.log &&
		grep -q "refused: limits:" "$SRV_LOG" && [ $((rss1 - rss0)) -lt 8192 ] && kill -0 "$SPID"
}

# the estimate against what the host loses: the same client against a
# server that allows 1 MiB prints the estimate, then runs on ours (-D 4;
# MemAvailable and the server's VmRSS sampled 2.5 s in, against idle). The
# client keeps its own queues small (-t 4) and its messages small (64 B:
# the packets in flight, which the estimate does not model, stay small),
# so the drop is the server's queues: rxe keeps them in kernel memory,
# outside the server's RSS. (With 64 KiB messages the drop measured
# 97 MiB against the same 64.8 MiB estimate: in-flight packet buffers.)
to_kb() { awk -v n="$1" -v u="$2" 'BEGIN { f = u == "GiB" ? 1048576 : u == "MiB" ? 1024 : u == "KiB" ? 1 : 1 / 1024; printf "%d\n", n * f }'; }
avail_kb() { awk '/^MemAvailable/ { print $2 }' /proc/meminfo; }
estimate_vs_rss() {
	local est est_kb rss0 rss1 av0 av1 r p tpid cpid args
	args=(-q 64 -r 4096 -s 64 -t 4 -Q 1)
	p=18530
	rperf bw -d rxe_h1 -p $p --max-memory 1M > /tmp/limits-tiny.log 2>&1 &
	tpid=$!
	_lab_wait_listen $p $tpid || return 1
	timeout 60 rperf bw -d rxe_h2 -p $p "${args[@]}" -n 4 10.77.0.1 > /tmp/limits-est.log 2>&1
	# a refused client does not end a server without --persistent: it
	# waits for the next one, so the tiny server is stopped here
	kill "$tpid" 2> /dev/null
	wait "$tpid"
	cat /tmp/limits-est.log
	est=$(sed -n 's/.*would pin \([0-9.]*\) \([KMG]*i*B\) (.*/\1 \2/p' /tmp/limits-est.log)
	# shellcheck disable=SC2086 # "N UNIT"
	est_kb=$(to_kb $est)
	rss0=$(rss_kb "$SPID")
	av0=$(avail_kb)
	timeout 60 rperf bw -d rxe_h2 "${args[@]}" -D 4 10.77.0.1 > /tmp/limits-est2.log 2>&1 &
	cpid=$!
	sleep 2.5
	rss1=$(rss_kb "$SPID")
	av1=$(avail_kb)
	wait "$cpid"
	r=$?
	sed 's/^/  [cli] /' /tmp/limits-est2.log | tail -3
	lab_result "estimate_vs_memory q=64 r=4096 s=64 estimate=\"$est\" estimate_kb=$est_kb MemAvailable_drop_kb=$((av0 - av1)) server_VmRSS_kb_idle=$rss0 during=$rss1 client_status=$r"
	echo "EXPECT an estimate, the run served, the host's MemAvailable drop <= the estimate + 8 MiB (the client's share)"
	echo "GOT estimate $est ($est_kb kB), status $r, MemAvailable drop $((av0 - av1)) kB, server VmRSS $rss0 -> $rss1 kB"
	[ -n "$est_kb" ] && [ "$r" = 0 ] && [ $((av0 - av1)) -le $((est_kb + 8192)) ]
}

# bidir_signal SIG LABEL MAX: a -b -u 31 client (16 receives posted) gets
# SIG 3 s into its run; the server must drop it within MAX seconds (its
# next log line), then serve the next client
bidir_signal() {
	local cpid n secs r
	rperf bw -d rxe_h2 -b -u 31 -r 16 -s 65536 --run_infinitely 10.77.0.1 > /tmp/limits-b.log 2>&1 &
	cpid=$!
	sleep 3
	n=$(srv_lines)
	kill "-$1" "$cpid"
	secs=$(wait_srv_line "$n" $((STALL * 3 + 5)))
	r=$?
	kill -KILL "$cpid"
	wait "$cpid" 2> /dev/null
	sed 's/^/  [srv] /' "$SRV_LOG" | tail -2
	lab_result "$2 freed_after_s=${secs:-never} stall_limit_s=$STALL"
	[ "$r" = 0 ] && lab_expect_range "seconds until the server dropped the $2 client" "$secs" 0 "$3" &&
		normal_client
}
# stopped: its QPs stay alive, its kernel takes the server's SENDs until
# the 16 receives are used, then RNR-NAKs them for ever: the server's
# reverse generator ends within its stall limit (+ the messages that still
# completed after the stop, + 2 s of margin for the emulator)
wedged_bidir() { bidir_signal STOP stopped_bidir_u31 $((STALL * 2 + 2)); }
# killed: its control connection closes, the server is free at once
killed_bidir() { bidir_signal KILL killed_bidir_u31 "$STALL"; }

# -q 256 -e under ulimit -n 64 (server and client): one channel per QP set
many_qps_events() {
	local r
	(ulimit -n 64 && exec timeout 120 rperf bw -d rxe_h2 -q 256 -e -n 20 -s 4096 --out_json_file "$OUT/limits-q256.json" 10.77.0.1) > /tmp/limits-q.log 2>&1
	r=$?
	sed 's/^/  [cli] /' /tmp/limits-q.log | tail -5
	echo "EXPECT status 0, 256 x 20 messages received"
	echo "GOT status $r, $(jq -r '.results[0].receiver.messages' "$OUT/limits-q256.json" 2> /dev/null) received"
	[ "$r" = 0 ] && [ "$(jq -r '.results[0].receiver.messages' "$OUT/limits-q256.json")" = 5120 ]
}

# control connection from 10.77.0.1 (--bind), QPs on rxe_h2 (GID
# 10.77.0.2): the server refuses to connect its QPs (no reflection)
forged_gid() {
	local r n
	n=$(srv_lines)
	timeout 60 rperf bw -d rxe_h2 --bind 10.77.0.1 -n 100 10.77.0.1 > /tmp/limits-gid.log 2>&1
	r=$?
	wait_srv_line "$n" 5 > /dev/null
	sed 's/^/  [cli] /' /tmp/limits-gid.log
	sed 's/^/  [srv] /' "$SRV_LOG" | tail -1
	echo "EXPECT status 2; 'GID 10.77.0.2 is not the control connection's address 10.77.0.1' on both sides"
	echo "GOT status $r"
	[ "$r" = 2 ] && grep -q "GID 10.77.0.2 is not the control connection's address 10.77.0.1" /tmp/limits-gid.log &&
		grep -q "refused: endpoint GID 10.77.0.2" "$SRV_LOG" && normal_client
}

bad_output() {
	local r t=$EPOCHREALTIME s
	timeout 30 rperf bw -d rxe_h2 -n 100 --out_json_file /nonexistent/d/r.json 10.77.0.1 > /tmp/limits-out.log 2>&1
	r=$?
	s=$(lab_since "$t")
	cat /tmp/limits-out.log
	echo "EXPECT status 2 within 1 s naming the file"
	echo "GOT status $r after $s s"
	[ "$r" = 2 ] && grep -q "/nonexistent/d/r.json" /tmp/limits-out.log &&
		awk -v s="$s" 'BEGIN { exit !(s < 1) }'
}

check "persistent bw server (--stall-limit ${STALL}s, ulimit -n 64) serves" server_up
check "bw sink CPU drops to ~0 within the stall limit after its client stops" sink_sleeps
check "lat pingpong server CPU drops to ~0 after its client stops" echo_sleeps
check "-q 1024 -s 16M deepest queues: refused before allocating (exit 2)" over_limit
check "the server keeps serving after the refusal" normal_client
check "pin estimate bounds what the host loses (q 64, r 4096, 64 B)" estimate_vs_rss
check "stopped -b -u 31 client: server free within 2x the stall limit" wedged_bidir
check "killed -b -u 31 client: server free within the stall limit" killed_bidir
check "-q 256 -e under ulimit -n 64 (shared completion channels)" many_qps_events
check "endpoint GID != control address: refused, next client served" forged_gid
check "--out_json_file /nonexistent/d/r.json: exit 2 before the run" bad_output
kill "$SPID" 2> /dev/null
wait "$SPID" 2> /dev/null
sed 's/^/  [srv] /' "$SRV_LOG"
lab_summary
