#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# server-loop.sh - one bad peer cannot stall an rperf server (issue 14), one
# boot:   rxe-lab run --hosts 2 tests/lab/suites/server-loop.sh
# h1 serves, h2 is the client. Every server (lat, bw, agent) runs on the one
# event loop of src/serve:
#  - `rperf lat -d nonexist` (server): exit 2 at once naming -d, never listens;
#  - --persistent lat and bw servers with two idle TCP connections and one
#    stopped client (half a HELLO sent, then SIGSTOP) held open: a normal
#    client gets its result in < 5 s, the idle ones still open meanwhile;
#  - the handshake deadline (default 3 s) closes a silent connection with
#    REFUSE in words;
#  - a client during another's -D run: REFUSE "busy: running a test for ADDR
#    since TIME (N s left)" at once, exit 3 (lat, bw);
#  - a HELLO of protocol version 2: REFUSE "protocol version 2, this rperf lat
#    server speaks 1";
#  - perftest on the wrong side: ib_send_lat against the rperf server and
#    rperf lat against an ib_send_lat server: "the peer speaks perftest's
#    protocol" on the rperf side both times;
#  - 200 connect-and-close clients: the server lives, its fd count is back
#    where it was, the next client is served;
#  - a name that does not resolve: exit 2 at once, "cannot resolve";
#  - rperf agent: an idle connection does not delay a controller; a second
#    controller during a run gets the busy text (exit 3);
#  - SIGTERM ends both persistent servers at once with status 0.
# Ends with "N passed, M failed".
. /usr/lib/rperf-lab/lab-lib.sh
OUT=${LAB_OUT:-/tmp}
PL=18530 PB=18531 PP=18540 # lat server, bw server, perftest server
GID1=$(lab_host_gid h1) GID2=$(lab_host_gid h2)
SRV=(-d rxe_h1 -x "$GID1") CLI=(-d rxe_h2 -x "$GID2" --bind 10.77.0.2)
LPID='' BPID=''

fdcount() { ls "/proc/$1/fd" 2> /dev/null | wc -l; }
# srv_start NAME PORT ARGS...: a persistent server in the background
srv_start() {
	local name=$1 port=$2 k
	shift 2
	rperf "$name" "${SRV[@]}" --persistent -p "$port" "$@" > "/tmp/srv-$name.log" 2>&1 &
	echo $! > "/tmp/srv-$name.pid"
	for ((k = 0; k < 100; k++)); do
		[ "$(ss -Hltn "sport = :$port" | wc -l)" -ge 1 ] && return 0
		sleep 0.1
	done
	echo "GOT rperf $name server not listening on $port: $(tr '\n' '|' < "/tmp/srv-$name.log")"
	return 1
}
srv_logs() { echo "INFO $1 server log: $(tail -n 8 "/tmp/srv-$1.log" | tr '\n' '|')"; }

bad_device() {
	local t rc
	t=$EPOCHREALTIME
	timeout 10 rperf lat -d nonexist -p 18539 > /tmp/bad.out 2> /tmp/bad.err
	rc=$?
	lab_result "bad_device status=$rc seconds=$(lab_since "$t")"
	echo "EXPECT exit 2 in < 2 s, one line naming -d, nothing listening on 18539"
	echo "GOT exit $rc: $(cat /tmp/bad.err) | listening: $(ss -Hltn 'sport = :18539' | wc -l)"
	[ "$rc" = 2 ] && [ "$(wc -l < /tmp/bad.err)" = 1 ] && grep -q -- '-d' /tmp/bad.err &&
		[ "$(lab_since "$t" | cut -d. -f1)" -lt 2 ] && ! grep -q listening /tmp/bad.out
}

servers() {
	srv_start lat "$PL" --handshake-timeout 30 && srv_start bw "$PB" --handshake-timeout 30 &&
		{ read -r LPID < /tmp/srv-lat.pid; read -r BPID < /tmp/srv-bw.pid; }
}

# hold PORT: two idle connections and a SIGSTOPped half-HELLO client
hold() {
	local port=$1
	exec {I1}<> "/dev/tcp/10.77.0.1/$port" {I2}<> "/dev/tcp/10.77.0.1/$port"
	bash -c "exec 3<>/dev/tcp/10.77.0.1/$port; printf 'RPFR\\x00\\x01' >&3; kill -STOP \$\$; sleep 60" &
	STOPPED=$!
	sleep 0.3
}
release() {
	exec {I1}>&- {I2}>&-
	kill -KILL "$STOPPED" 2> /dev/null
	wait "$STOPPED" 2> /dev/null
}

# held NAME PORT PID CLIENT ARGS...: a normal client with 3 bad peers held open
held() {
	local name=$1 port=$2 pid=$3 t rc s before during k
	shift 3
	before=$(fdcount "$pid")
	hold "$port"
	for ((k = 0; k < 50; k++)); do # bash's spawns are slow under TCG
		during=$(fdcount "$pid")
		[ "$during" -ge $((before + 3)) ] && break
		sleep 0.1
	done
	t=$EPOCHREALTIME
	timeout 30 rperf "$name" "${CLI[@]}" -p "$port" "$@" 10.77.0.1 > "/tmp/held-$name.out" 2> "/tmp/held-$name.err"
	rc=$? s=$(lab_since "$t")
	lab_result "held_$name status=$rc seconds=$s server_fds_before=$before with_3_held=$during after=$(fdcount "$pid")"
	release
	echo "EXPECT exit 0 in < 5 s while 3 bad connections are open (server fds +3)"
	echo "GOT exit $rc in $s s; server fds $before -> $during: $(tail -n 3 "/tmp/held-$name.err" | tr '\n' ' ')"
	[ "$rc" = 0 ] && [ "$during" -ge $((before + 3)) ] && awk -v s="$s" 'BEGIN { exit !(s < 5) }' ||
		{ srv_logs "$name"; return 1; }
}

handshake_deadline() {
	local t s pid k
	# default --handshake-timeout (3 s), one-shot
	rperf bw "${SRV[@]}" -p 18532 > /tmp/srv-hs.log 2>&1 &
	pid=$!
	for ((k = 0; k < 100; k++)); do
		[ "$(ss -Hltn 'sport = :18532' | wc -l)" -ge 1 ] && break
		sleep 0.1
	done
	t=$EPOCHREALTIME
	timeout 10 cat < /dev/tcp/10.77.0.1/18532 > /tmp/hs.bin
	s=$(lab_since "$t")
	kill "$pid"
	wait "$pid" 2> /dev/null
	lab_result "handshake_deadline seconds=$s"
	echo "EXPECT closed after 3 s (2.5..5.5 s) with REFUSE naming --handshake-timeout"
	echo "GOT closed after $s s: $(tr -cd 'a-zA-Z0-9 .,:;()/_-' < /tmp/hs.bin)"
	awk -v s="$s" 'BEGIN { exit !(s >= 2.5 && s < 5.5) }' && grep -a -q 'handshake-timeout' /tmp/hs.bin
}

# raw_hello PORT: a HELLO for "lat" from bash, the answer into /tmp/raw.bin;
# /tmp/raw.s: seconds from the connection's open to the server's close,
# timed inside the connecting shell (the shell's own start is not the
# server's: 0.29 s quiet and 1.06 s once under load 7 timed from outside)
raw_hello() {
	local p='{"version":1,"command":"lat","features":[]}'
	timeout 5 bash -c "exec 3<>/dev/tcp/10.77.0.1/$1; t=\$EPOCHREALTIME; printf 'RPFR\\x00\\x01\\x00\\x01\\x00\\x00\\x00\\x$(printf %02x ${#p})%s' '$p' >&3; cat <&3; awk -v a=\$t -v b=\$EPOCHREALTIME 'BEGIN { printf \"%.3f\", b - a }' > /tmp/raw.s" > /tmp/raw.bin
}
# busy NAME PORT: a -D 12 run, then a raw HELLO and a second client
busy() {
	local name=$1 port=$2 apid t rc s k rs alive re
	re='busy: running a test for 10\.77\.0\.2:[0-9]+ since [0-9-]+ [0-9:]+ UTC \([0-9]+ s left\)'
	timeout 60 rperf "$name" "${CLI[@]}" -p "$port" -D 12 10.77.0.1 > "/tmp/busyA-$name.out" 2> "/tmp/busyA-$name.err" &
	apid=$!
	# the run is on once its server holds an established control connection
	for ((k = 0; k < 100; k++)); do
		[ "$(ss -Htn state established "( sport = :$port )" | wc -l)" -ge 1 ] && break
		sleep 0.1
	done
	sleep 1.5 # past HELLO/PARAMS: the plan is known
	rm -f /tmp/raw.s
	raw_hello "$port"
	rs=$(cat /tmp/raw.s 2> /dev/null || echo 9)
	t=$EPOCHREALTIME
	timeout 30 rperf "$name" "${CLI[@]}" -p "$port" -n 100 10.77.0.1 > "/tmp/busyB-$name.out" 2> "/tmp/busyB-$name.err"
	rc=$? s=$(lab_since "$t")
	kill -0 "$apid" 2> /dev/null && alive=yes || alive=no
	wait "$apid"
	lab_result "busy_$name raw_refuse_seconds=$rs client_status=$rc client_seconds=$s first_still_running=$alive first_client_status=$?"
	echo "EXPECT a raw HELLO refused in < 1 s; the rperf client: exit 3 while the first run goes on, '$re'"
	echo "GOT raw: $rs s, $(tr -cd 'a-zA-Z0-9 .,:;()/_-' < /tmp/raw.bin); client: exit $rc in $s s (first run still on: $alive): $(tr '\n' ' ' < "/tmp/busyB-$name.err")"
	[ "$rc" = 3 ] && [ "$alive" = yes ] && awk -v s="$rs" 'BEGIN { exit !(s < 1) }' &&
		grep -a -q -E "$re" /tmp/raw.bin && grep -q -E "$re" "/tmp/busyB-$name.err"
}

wrong_version() {
	timeout 5 bash -c "exec 3<>/dev/tcp/10.77.0.1/$PL; printf 'RPFR\\x00\\x02\\x00\\x01\\x00\\x00\\x00\\x02{}' >&3; cat <&3" > /tmp/ver.bin
	echo "EXPECT REFUSE 'protocol version 2, this rperf lat server speaks 1'"
	echo "GOT $(tr -cd 'a-zA-Z0-9 .,:;()/_-' < /tmp/ver.bin)"
	grep -a -q 'protocol version 2, this rperf lat server speaks 1' /tmp/ver.bin
}

perftest_client() {
	timeout 15 ib_send_lat -d rxe_h2 -x "$GID2" -p "$PL" -n 10 10.77.0.1 > /tmp/pt.out 2>&1
	sleep 0.3
	echo "EXPECT the rperf lat server logs 'the peer speaks perftest's protocol'"
	echo "GOT $(grep -i perftest /tmp/srv-lat.log | tail -n 1)"
	grep -q "the peer speaks perftest's protocol" /tmp/srv-lat.log
}

perftest_server() {
	local ppid rc
	timeout 30 ib_send_lat -d rxe_h1 -x "$GID1" -p "$PP" > /tmp/pts.out 2>&1 &
	ppid=$!
	sleep 1
	timeout 20 rperf lat "${CLI[@]}" -p "$PP" -n 10 10.77.0.1 > /tmp/ptc.out 2> /tmp/ptc.err
	rc=$?
	kill "$ppid" 2> /dev/null
	wait "$ppid" 2> /dev/null
	echo "EXPECT exit 3, 'the peer speaks perftest's protocol'"
	echo "GOT exit $rc: $(cat /tmp/ptc.err | tr '\n' ' ')"
	[ "$rc" = 3 ] && grep -q "the peer speaks perftest's protocol" /tmp/ptc.err
}

churn() {
	local before after i rc
	sleep 1.2 # lingering refusals of the checks before are gone
	before=$(fdcount "$LPID")
	for ((i = 0; i < 200; i++)); do
		exec {C}<> "/dev/tcp/10.77.0.1/$PL" && exec {C}>&-
	done
	sleep 1.2
	after=$(fdcount "$LPID")
	timeout 30 rperf lat "${CLI[@]}" -p "$PL" -n 100 10.77.0.1 > /tmp/churn.out 2> /tmp/churn.err
	rc=$?
	lab_result "churn clients=200 server_fds_before=$before after=$after next_client_status=$rc"
	echo "EXPECT the server alive, fds $before after 200 connect-and-close clients, the next client served"
	echo "GOT alive=$(kill -0 "$LPID" 2> /dev/null && echo yes || echo no) fds $before -> $after, next client exit $rc"
	kill -0 "$LPID" && [ "$after" = "$before" ] && [ "$rc" = 0 ]
}

unresolvable() {
	local t rc
	t=$EPOCHREALTIME
	timeout 20 rperf lat "${CLI[@]}" no-such-host.invalid > /dev/null 2> /tmp/res.err
	rc=$?
	echo "EXPECT exit 2 in < 3 s, 'cannot resolve no-such-host.invalid'"
	echo "GOT exit $rc in $(lab_since "$t") s: $(cat /tmp/res.err)"
	[ "$rc" = 2 ] && grep -q 'cannot resolve no-such-host.invalid' /tmp/res.err &&
		[ "$(lab_since "$t" | cut -d. -f1)" -lt 3 ]
}

job() {  # job FILE DURATION
	{
		printf '[global]\nduration = %s\nwarmup = 0.5s\ntimeout = 5s\n' "$2"
		printf '[host h1]\ncontrol = 10.77.0.1\ndevice = rxe_h1\ngid_index = %s\n' "$GID1"
		printf '[host h2]\ncontrol = 10.77.0.2\ndevice = rxe_h2\ngid_index = %s\n' "$GID2"
		printf '[lsg probe]\nfrom = h2\nto = h1\nsize = 64\n'
	} > "$1"
}
agent() {
	local i k t rc s apid
	for i in 1 2; do
		rperf agent --bind "10.77.0.$i" --key-file "$LAB_KEY" --handshake-timeout 30 > "/tmp/agent-h$i.log" 2>&1 &
		echo $! > "/tmp/agent-h$i.pid"
	done
	for ((k = 0; k < 100; k++)); do
		[ "$(ss -Hltn 'sport = :18521' | wc -l)" -ge 2 ] && break
		sleep 0.1
	done
	exec {A1}<> /dev/tcp/10.77.0.1/18521
	job "$OUT/loop-short.ini" 1s
	t=$EPOCHREALTIME
	timeout 30 rperf run --key-file "$LAB_KEY" "$OUT/loop-short.ini" > /tmp/run1.out 2> /tmp/run1.err
	rc=$? s=$(lab_since "$t")
	lab_result "agent_idle_held run_status=$rc seconds=$s"
	echo "EXPECT a 1 s experiment exits 0 in < 6 s with an idle connection open on h1's agent"
	echo "GOT exit $rc in $s s: $(tail -n 2 /tmp/run1.err | tr '\n' ' ')"
	[ "$rc" = 0 ] && awk -v s="$s" 'BEGIN { exit !(s < 6) }' || return 1
	job "$OUT/loop-long.ini" 8s
	timeout 60 rperf run --key-file "$LAB_KEY" "$OUT/loop-long.ini" > /tmp/run2.out 2> /tmp/run2.err &
	apid=$!
	sleep 3
	t=$EPOCHREALTIME
	timeout 30 rperf run --key-file "$LAB_KEY" "$OUT/loop-short.ini" > /tmp/run3.out 2> /tmp/run3.err
	rc=$? s=$(lab_since "$t")
	wait "$apid"
	lab_result "agent_busy status=$rc seconds=$s first_run_status=$?"
	exec {A1}>&-
	echo "EXPECT exit 3 in < 3 s, 'busy: running a test for 10.77.0.1... since ... (N s left, N >= 1: the 8 s experiment is 3 s in)'"
	echo "GOT exit $rc in $s s: $(tr '\n' ' ' < /tmp/run3.err)"
	[ "$rc" = 3 ] && awk -v s="$s" 'BEGIN { exit !(s < 3) }' &&
		grep -q -E 'busy: running a test for [0-9.:]+ since .* UTC \([1-9][0-9]* s left\)' /tmp/run3.err
}
# SIGTERM ends both persistent servers at once (exit 0), also while a
# connection is pending
term_servers() {
	local t rl rb s
	exec {I1}<> "/dev/tcp/10.77.0.1/$PL"
	sleep 0.2
	t=$EPOCHREALTIME
	kill -TERM "$LPID" "$BPID"
	wait "$LPID"
	rl=$?
	wait "$BPID"
	rb=$?
	s=$(lab_since "$t")
	exec {I1}>&-
	lab_result "sigterm lat_status=$rl bw_status=$rb seconds=$s"
	echo "EXPECT both servers exit 0 within 2 s of SIGTERM"
	echo "GOT lat $rl, bw $rb after $s s"
	[ "$rl" = 0 ] && [ "$rb" = 0 ] && awk -v s="$s" 'BEGIN { exit !(s < 2) }'
}
agents_stop() {
	local i p
	for i in 1 2; do
		[ -e "/tmp/agent-h$i.pid" ] || continue
		read -r p < "/tmp/agent-h$i.pid"
		kill "$p" 2> /dev/null
		wait "$p" 2> /dev/null
	done
}

if ! command -v rperf > /dev/null; then
	echo "skip: no rperf binary in this boot (build target rperf_bin)"
	exit 77
fi
check "server with -d nonexist: exit 2 at once, never listens"       bad_device
check "persistent lat and bw servers listening"                      servers
check "lat: 2 idle + 1 stopped connection held, client < 5 s"        held lat "$PL" "$LPID" -n 200
check "bw: 2 idle + 1 stopped connection held, client < 5 s"         held bw "$PB" "$BPID" -n 200
check "lat: a client during a -D 12 run: busy at once, exit 3"       busy lat "$PL"
check "bw: a client during a -D 12 run: busy at once, exit 3"        busy bw "$PB"
check "HELLO of protocol version 2: REFUSE in words"                 wrong_version
check "ib_send_lat client on rperf's port: named in the server log"  perftest_client
check "rperf lat against an ib_send_lat server: named, exit 3"       perftest_server
check "200 connect-and-close clients: alive, fds stable, serves"     churn
check "unresolvable host: exit 2 at once, says so"                   unresolvable
check "silent connection: closed at the 3 s handshake deadline"      handshake_deadline
check "agent: idle connection held, controller served; busy text"    agent
agents_stop
check "SIGTERM: both persistent servers exit 0 at once"             term_servers
kill "$LPID" "$BPID" 2> /dev/null
wait 2> /dev/null
srv_logs lat | head -c 2000
lab_summary
