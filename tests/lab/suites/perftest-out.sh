#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# perftest-out.sh - perftest's output habits in rperf (issue 11), one boot,
# 2 hosts, h2 -> h1 across the switch:
#   rxe-lab run --hosts 2 tests/lab/suites/perftest-out.sh
# The tables are read by position as a perftest user's script reads them
# (awk $1..$9 / $1..$5) and checked against rperf's own JSON; then the
# perftest flags -H, -U, --cpu_util, --limit_lat, -w, --run_infinitely -D,
# --rate_units' default and rperf bw's default size.
. /usr/lib/rperf-lab/lab-lib.sh
T=120
OUT=${LAB_OUT:-/tmp}
jget() { jq -r "$2" "$1"; }

# pair CMD ARGS...: `rperf CMD` server on h1, client on h2 with ARGS;
# stdout in /tmp/po.out, stderr in /tmp/po.err; the client's status
pair() {
	local cmd=$1 r spid
	shift
	timeout "$T" rperf "$cmd" -d rxe_h1 > /tmp/po-srv.log 2>&1 &
	spid=$!
	timeout "$T" rperf "$cmd" -d rxe_h2 "$@" 10.77.0.1 > /tmp/po.out 2> /tmp/po.err
	r=$?
	wait "$spid"
	return "$r"
}
# col FIRST N [FILE]: field N of the first line whose field 1 is FIRST
col() { awk -v f="$1" -v n="$2" '$1 == f { print $n; exit }' "${3:-/tmp/po.out}"; }
# same NAME GOT WANT TOL: |GOT - WANT| <= TOL (numbers), printed
same() {
	echo "  $1: table $2, JSON $3"
	awk -v a="$2" -v b="$3" -v t="$4" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(a != "" && b != "" && d <= t) }'
}

lat_columns() {
	local j=$OUT/po-lat.json bad=0 k
	lab_assert_crossed 2000 pair lat -s 64 -n 2000 --warmup 200 --pair-order sequential \
		--cpu_util --out_json_file "$j" || { cat /tmp/po.out /tmp/po.err; return 1; }
	sed -n '/#bytes/,/^$/p' /tmp/po.out
	grep -q "figures      : RTT (round-trip time)" /tmp/po.out || { echo "GOT no RTT figure line"; bad=1; }
	echo "EXPECT \$1..\$10 = #bytes #iterations t_min t_max t_typical t_avg t_stdev 99% 99.9% CPU_Util, as rperf's JSON; plain numbers (no '*')"
	same '$1 #bytes' "$(col 64 1)" 64 0 || bad=1
	same '$2 #iterations' "$(col 64 2)" "$(jget "$j" '.results[0].samples')" 0 || bad=1
	for k in 3:min 4:max 5:p50 6:mean 7:stdev 8:p99 9:p999; do
		same "\$${k%%:*} ${k#*:}" "$(col 64 "${k%%:*}")" \
			"$(jget "$j" ".results[0].rtt_ns.${k#*:} / 1000")" 0.0011 || bad=1
	done
	same '$10 CPU_Util[%]' "$(col 64 10)" "$(jget "$j" '.results[0].cpu_pct')" 0.011 || bad=1
	echo "  \$11 method: $(col 64 11), \$12 figure: $(col 64 12)"
	[ "$(col 64 11)" = rperf ] && [ "$(col 64 12)" = RTT ] || bad=1
	awk '$1 == 64' /tmp/po.out | grep -q '[*]' && { echo "GOT a '*' in the row"; bad=1; }
	lab_result "perftest_out lat t_min_us=$(col 64 3) t_typical_us=$(col 64 5) p99_us=$(col 64 8) cpu_util_pct=$(col 64 10) nonpositive=$(jget "$j" '.results[0].nonpositive')"
	return $bad
}

bw_columns() {
	local j=$OUT/po-bw.json bad=0
	# no -s: perftest's default size, 65536 B
	lab_assert_crossed 200 pair bw -n 200 --cpu_util --out_json_file "$j" || { cat /tmp/po.out /tmp/po.err; return 1; }
	sed -n '/#bytes/,/^$/p' /tmp/po.out
	echo "EXPECT \$1..\$6 = #bytes #iterations BW_peak BW_average MsgRate CPU_Util, as rperf's JSON; size 65536 by default"
	same '$1 #bytes' "$(col 65536 1)" 65536 0 || bad=1
	same '$2 #iterations' "$(col 65536 2)" "$(jget "$j" '.results[0].messages')" 0 || bad=1
	same '$3 BW peak[MB/sec]' "$(col 65536 3)" "$(jget "$j" '(.results[0].peak_gbps // .results[0].gbps) * 1e9 / 8 / 1048576')" 0.0051 || bad=1
	same '$4 BW average[MB/sec]' "$(col 65536 4)" "$(jget "$j" '.results[0].mibps')" 0.0051 || bad=1
	same '$5 MsgRate[Mpps]' "$(col 65536 5)" "$(jget "$j" '.results[0].mpps')" 0.0000011 || bad=1
	same '$6 CPU_Util[%]' "$(col 65536 6)" "$(jget "$j" '.results[0].cpu_pct')" 0.0051 || bad=1
	echo "  peak >= average: $(col 65536 3) >= $(col 65536 4)"
	awk -v p="$(col 65536 3)" -v a="$(col 65536 4)" 'BEGIN { exit !(p + 0 >= a + 0) }' || bad=1
	# perftest's own helper (lab_bw_result, written for ib_send_bw) reads it
	echo "  lab_bw_result (the ib_send_bw parser): $(lab_bw_result /tmp/po.out)"
	[ "$(lab_field "$(lab_bw_result /tmp/po.out)" bytes)" = 65536 ] || bad=1
	lab_result "perftest_out bw $(lab_bw_result /tmp/po.out) peak_MBps=$(col 65536 3) cpu_util_pct=$(col 65536 6)"
	return $bad
}

hist_unsorted() {
	local n h u
	pair lat -s 64 -n 500 --warmup 50 --pair-order sequential -H -U || { cat /tmp/po.out /tmp/po.err; return 1; }
	h=$(sed -n '/^-H:/,/^$/p' /tmp/po.out | grep -c '^64,')
	u=$(sed -n '/^-U:/,/^$/p' /tmp/po.out | grep -c '^64,')
	n=$(sed -n '/^-H:/,/^$/p' /tmp/po.out | awk -F, '$1 == 64 { c = $7 } END { print c + 0 }')
	echo "EXPECT -H: a CDF whose last cumulative count is 500; -U: 500 samples"
	echo "GOT -H: $h buckets, cumulative $n; -U: $u samples"
	[ "$h" -gt 0 ] && [ "$n" = 500 ] && [ "$u" = 500 ]
}

# limits: a limit that cannot be met exits 1 with one line naming it; one
# that is met exits 0
limits() {
	local r1 r2 r3 r4 bad=0
	pair lat -s 64 -n 300 --warmup 30 --pair-order sequential --limit_lat 1ns; r1=$?
	grep -- "--limit_lat" /tmp/po.err
	grep -q -- "--limit_lat: RTT p50 at 64 B" /tmp/po.err || bad=1
	pair lat -s 64 -n 300 --warmup 30 --pair-order sequential --limit_lat 10s; r2=$?
	pair bw -s 4096 -n 100 -w 100000; r3=$?
	grep -- "--limit_bw" /tmp/po.err
	grep -q -- "-w/--limit_bw: BW average at 4096 B is" /tmp/po.err || bad=1
	pair bw -s 4096 -n 100 -w 0.001; r4=$?
	echo "EXPECT --limit_lat 1ns: 1, 10s: 0; -w 100000 MB/s: 1, -w 0.001: 0"
	echo "GOT $r1 $r2 $r3 $r4"
	[ "$bad" = 0 ] && [ "$r1" = 1 ] && [ "$r2" = 0 ] && [ "$r3" = 1 ] && [ "$r4" = 0 ]
}

# --run_infinitely -D 1: a report line every second until SIGINT, then the
# final report, exit 0
infinitely() {
	local j=$OUT/po-inf.json cpid spid r n
	rm -f "$j"
	timeout "$T" rperf bw -d rxe_h1 > /tmp/po-srv.log 2>&1 &
	spid=$!
	timeout "$T" rperf bw -d rxe_h2 -s 4096 --run_infinitely -D 1 --out_json_file "$j" 10.77.0.1 > /tmp/po.out 2> /tmp/po.err &
	cpid=$!
	sleep 4.5
	kill -INT "$cpid"
	wait "$cpid"
	r=$?
	wait "$spid"
	cat /tmp/po.out /tmp/po.err
	n=$(grep -c '^  \[.*-.* s\]' /tmp/po.out)
	echo "EXPECT exit 0, >= 2 interval lines (one per second), the final table, messages > 0"
	echo "GOT exit $r, $n interval lines, messages $(jget "$j" '.results[0].messages')"
	[ "$r" = 0 ] && [ "$n" -ge 2 ] && grep -q '#bytes' /tmp/po.out && [ "$(jget "$j" '.results[0].messages')" -gt 0 ]
}

# --rate_limit without --rate_units is Gb/s, as in perftest
rate_units() {
	local j=$OUT/po-rate.json
	pair bw -s 4096 -n 60 --rate_limit 0.01 --out_json_file "$j" || { cat /tmp/po.out /tmp/po.err; return 1; }
	echo "EXPECT offered 0.01 Gb/s (perftest's default unit g)"
	echo "GOT offered $(jget "$j" '.results[0].rate_limit.offered_gbps') Gb/s, achieved $(jget "$j" '.results[0].gbps')"
	[ "$(jget "$j" '.results[0].rate_limit.offered_gbps')" = 0.01 ]
}

# progress_tty CMD ARGS...: -a, or a run of a few seconds, on a terminal
# (lab-ptyrun: a pseudo-terminal) shows a progress line "rperf lat: SIZE B,
# k of N, elapsed ..." redrawn in place and erased before the table; with
# stdout and stderr to files, none (issue 25)
progress_tty() {
	local cmd=$1 spid r n bad=0 t=/tmp/po-tty.lines
	shift
	timeout "$T" rperf "$cmd" -d rxe_h1 > /tmp/po-srv.log 2>&1 &
	spid=$!
	lab-ptyrun /tmp/po-tty.out timeout "$T" rperf "$cmd" -d rxe_h2 "$@" 10.77.0.1
	r=$?
	wait "$spid"
	# one line per carriage return: a redraw starts its line with ESC[K
	tr '\r' '\n' < /tmp/po-tty.out > "$t"
	n=$(grep -o "rperf $cmd: [0-9]* B, [0-9]* of [0-9]*, elapsed [0-9]* s" "$t" | sort -u | wc -l)
	echo "EXPECT exit 0, >= 2 distinct progress lines on the terminal, redrawn in place (CR ESC[K), erased before the table"
	echo "GOT exit $r, $n distinct: $(grep -o "rperf $cmd: .*" "$t" | sort -u | head -3 | tr '\n' '|')"
	[ "$r" = 0 ] && [ "$n" -ge 2 ] || bad=1
	grep -q "^$(printf '\033')\[Krperf $cmd: " "$t" || { echo "GOT no in-place redraw"; bad=1; }
	grep -q '#bytes' "$t" || { echo "GOT no table"; bad=1; }
	# the last progress text is followed by an erase
	awk -v pat="rperf $cmd: [0-9]+ B," 'BEGIN { e = sprintf("%c[K", 27) }
		$0 ~ pat { last = NR } { line[NR] = $0 }
		END { exit !(last && index(line[last + 1], e) == 1) }' "$t" ||
		{ echo "GOT the line not erased at the end"; bad=1; }
	pair "$cmd" "$@" || { cat /tmp/po.out /tmp/po.err; return 1; }
	echo "EXPECT to files: no progress text; GOT $(grep -c "rperf $cmd: [0-9]* B," /tmp/po.out /tmp/po.err | tr '\n' ' ')"
	grep -q "rperf $cmd: [0-9]* B," /tmp/po.out /tmp/po.err && bad=1
	[ "$bad" = 0 ] || head -40 "$t" | cat -v | cut -c1-200
	return $bad
}

lab_say "perftest's output in rperf: columns by position, -H/-U, limits, --run_infinitely -D, defaults"
check "lat table: perftest's 9 columns by position (+ CPU_Util 10th) = JSON" lat_columns
check "bw table: perftest's 5 columns by position (+ CPU_Util 6th) = JSON, 65536 B default" bw_columns
check "-H and -U print the CDF and every sample" hist_unsorted
check "--limit_lat and -w/--limit_bw exit 1 only when crossed" limits
check "--run_infinitely -D 1 reports every second until SIGINT" infinitely
check "--rate_units defaults to g (Gb/s), as perftest" rate_units
check "lat -a on a terminal: a progress line; to a file: none" progress_tty lat -a -n 10 --warmup 2 --pair-order sequential
# bw: a 3 s run (-a's 4-8 MiB messages stall Soft-RoCE on a loaded boot:
# retransmission timeouts, not what this check is about)
check "bw -D 3 on a terminal: a progress line; to a file: none" progress_tty bw -D 3
lab_summary
