#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# perftest-flags.sh - a perftest user's habit: the SAME flags on both sides
# (issue 11):   rxe-lab run --hosts 2 tests/lab/suites/perftest-flags.sh
# Server on h1 (rxe_h1, 10.77.0.1), client on h2. For lat and bw, each
# perftest command line runs with the same flags on the server and on the
# client; both must exit 0 and the traffic must cross the switch (bridge
# port counters). A server started with a different -s refuses the client
# naming both values (client exit 2). Ends with "N passed, M failed".
. /usr/lib/rperf-lab/lab-lib.sh
T=90 # per-run timeout, seconds

# same CMD MIN FLAGS...: `rperf CMD FLAGS` on h1 (server) and on h2
# (client, towards 10.77.0.1); both exit 0, >= MIN packets into the switch
same() {
	local cmd=$1 min=$2
	shift 2
	lab_assert_crossed "$min" pair "$cmd" "$@"
}
pair() {
	local cmd=$1 r rs spid
	shift
	timeout "$T" rperf "$cmd" -d rxe_h1 "$@" > /tmp/psrv.log 2>&1 &
	spid=$!
	timeout "$T" rperf "$cmd" -d rxe_h2 "$@" 10.77.0.1 > /tmp/pcli.log 2>&1
	r=$?
	wait "$spid"
	rs=$?
	sed 's/^/  [cli] /' /tmp/pcli.log | tail -n 30
	sed 's/^/  [srv] /' /tmp/psrv.log
	echo "  -> rperf $cmd $* on both sides: client status $r, server status $rs"
	[ "$r" = 0 ] && return "$rs"
	return "$r"
}

# Short runs: the lab moves ~5-10 MB/s. lat's warm-up is lowered (on both
# sides: it is a run flag too); -a stops at 4 KiB (--all-max) since 200
# messages of each size up to perftest's 8 MiB would take many minutes here.
W="--warmup 100"
lat_F() { same lat 2000 -s 64 -n 1000 -F $W; }
lat_a() { same lat 2000 -a -n 200 --all-max 4K $W; }
lat_R() { same lat 2000 -R -n 1000 $W; }
lat_q() { same lat 1000 -q 2 -s 4096 --report_gbits -n 500 $W && grep -q 'accepted and ignored' /tmp/pcli.log; }
lat_b() { same lat 1000 -b -n 500 $W && grep -q 'accepted and ignored' /tmp/pcli.log; }
lat_e() { same lat 1000 -e -n 500 $W && grep -q -- '-e/--events' /tmp/pcli.log; }
bw_F() { same bw 1000 -s 64 -n 1000 -F; }
bw_a() { same bw 2000 -a -n 200 --all-max 4K; }
bw_q() { same bw 1000 -q 2 -s 4096 --report_gbits -n 500 && grep -q 'Gb/s\|Gbps\|gbps' /tmp/pcli.log; }
bw_b() { same bw 2000 -b -n 1000 -s 4096; }
bw_e() { same bw 1000 -e -n 1000 -s 4096; }
# bw -R: every QP connected by rdma_cm from the client's own address (h2 ->
# h1 across the switch); -q 2: two connections on one listener
bw_R() {
	same bw 1000 -R -n 1000 -s 4096 || return 1
	grep -q 'Gb/s\|MB/s\|MiB/s\|gbps' /tmp/pcli.log
}
bw_R_q2() { same bw 1000 -R -q 2 -n 500 -s 4096; }

# -T on bw (perftest's TOS): the traffic class reaches the wire as TOS 0x60
bw_T() {
	local tos
	lab_capture_start h1 || return 1
	same bw 500 -T 96 -n 500 -s 4096 || { lab_capture_stop; return 1; }
	tos=$(lab_capture_stop)
	echo "EXPECT >= 500 packets with TOS 0x60 on h1's wire"
	echo "GOT $(echo "$tos" | tr '\n' ' ')"
	echo "$tos" | awk '$3 == "0x60" { t += $1 } END { exit !(t >= 500) }'
}
# -n with -D: -D wins with a warning (both sides), as in perftest
bw_nD() {
	same bw 200 -n 100000000 -D 2 -s 4096 || return 1
	echo "EXPECT the warning on both sides"
	grep -q -- '-D wins' /tmp/pcli.log && grep -q -- '-D wins' /tmp/psrv.log
}

# The server was started with -s 64, the client asks for 4096: refused,
# naming both values; the client exits 2 (usage), nothing is measured. The
# refused client does not end the server (no --persistent): a client that
# agrees is served next, and the server exits 0 after it.
mismatch() {
	local cmd=$1 r r2 rs spid
	timeout "$T" rperf "$cmd" -d rxe_h1 -s 64 > /tmp/psrv.log 2>&1 &
	spid=$!
	timeout "$T" rperf "$cmd" -d rxe_h2 -s 4096 -n 100 10.77.0.1 > /tmp/pcli.log 2>&1
	r=$?
	timeout "$T" rperf "$cmd" -d rxe_h2 -s 64 -n 100 10.77.0.1 > /tmp/pcli2.log 2>&1
	r2=$?
	wait "$spid"
	rs=$?
	sed 's/^/  [cli] /' /tmp/pcli.log
	sed 's/^/  [srv] /' /tmp/psrv.log
	echo "EXPECT client status 2, its message names -s/--size, 64 and 4096; then -s 64 served (0), server 0"
	echo "GOT client status $r: $(grep -m1 'size' /tmp/pcli.log); next client $r2, server $rs"
	[ "$r" = 2 ] && grep -q -- '-s/--size: the server was started with 64, the client asks for 4096' /tmp/pcli.log &&
		[ "$r2" = 0 ] && [ "$rs" = 0 ]
}
# The server given the same -s as the client's says nothing about it.
agree() {
	same lat 500 -s 4096 -n 300 $W || return 1
	echo "EXPECT no word of -s/--size on either side"
	! grep -q -- '--size' /tmp/pcli.log /tmp/psrv.log
}

check "lat -s 64 -n 1000 -F, both sides"                 lat_F
check "lat -a -n 200 (--all-max 4K), both sides"         lat_a
check "lat -R, both sides"                               lat_R
check "lat -q 2 -s 4096 --report_gbits: noted no-op"     lat_q
check "lat -b: noted no-op"                              lat_b
check "lat -e: noted"                                    lat_e
check "bw -s 64 -n 1000 -F, both sides"                  bw_F
check "bw -a -n 200 (--all-max 4K), both sides"          bw_a
check "bw -R h2->h1 across the switch"                   bw_R
check "bw -R -q 2: two rdma_cm connections"              bw_R_q2
check "bw -q 2 -s 4096 --report_gbits, both sides"       bw_q
check "bw -b, both sides"                                bw_b
check "bw -e, both sides"                                bw_e
check "bw -T 96 (perftest's TOS) on the wire"             bw_T
check "bw -n with -D: -D wins, a warning"               bw_nD
check "same -s on both sides: silent"                    agree
check "lat: server -s 64, client -s 4096: refused, exit 2" mismatch lat
check "bw: server -s 64, client -s 4096: refused, exit 2"  mismatch bw
lab_summary
