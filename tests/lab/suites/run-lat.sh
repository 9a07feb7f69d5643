#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# run-lat.sh - what `rperf run`'s LSG shares with `rperf lat`, h2 -> h1
# across the switch, one boot, 2 hosts:
#   rxe-lab run --hosts 2 tests/lab/suites/run-lat.sh
#  - --raw FILE: every sample of an LSG of 20000 (three SAMPLES frames)
#    in the CSV, rtt = wire - loop per row, min/max/median the JSON's;
#  - timestamps (auto, the default): Soft-RoCE has no completion
#    timestamps, so CPU stamps, and the note rperf lat prints says why (in
#    the text and in JSON timestamps_note), not a silent fall-back;
#  - timestamps = cpu: CPU stamps, no note; timestamps = nic: the instance
#    fails with lat's words, exit 3;
#  - iters = 2000 in a 20 s window: exactly 2000 samples, the run ends
#    long before the window; iters = 10^8 in a 1 s window: the window
#    ends it, the instance's error says how many were taken;
#  - two hosts on one device (a second agent on h1 with the same rxe_h1):
#    the LSG source refuses the sink's QP on its own device and port, as
#    rperf lat's client does, exit 3;
#  - method and verb as rperf lat's --method/--verb, each seen on the wire
#    by its BTH opcode (tcpdump on h2's port, UDP 4791, the first byte of
#    the payload): verb = write (the rperf method's WRITE pairs: RDMA
#    WRITE Only 0x0a from h2, at least one per sample), verb = read (4 KiB,
#    postpoll by default: RDMA READ Request 0x0c), verb = atomic (8 B:
#    FETCH_ADD 0x14; atomic_op = cmp_and_swap: COMPARE_SWAP 0x13),
#    inline = 64 with SENDs (SEND Only 0x04);
#    method = pingpong (rperf lat's): h1's agent echoes every SEND (SEND
#    Only 0x04 leaving h1, at least one per sample), 500 samples; with
#    verb = write and busy-polling sinks it WRITEs each one back (RDMA
#    WRITE Only 0x0a leaving h1, at least one per sample);
#  - rdma_cm = 1 (rperf lat -R): mid-run `rdma resource show cm_id` lists
#    rperf's connected ids at both ends of the wire QP, samples taken;
#  - pacing, one unit for both paths (samples/s in the generator): rate =
#    512k (bits/s of 64 B SENDs = 1000 samples/s) with iters = 500, and
#    rperf lat --rate 1000 -n 500 beside it: each measured run lasts
#    0.5 s (499 gaps of 1 ms; [0.45, 0.8] s under emulation);
#  - warmup_samples = 50 (rperf lat's --warmup): exactly 50 warm-up
#    samples, then iters = 200;
#  - latency_gap = 2ms (rperf lat's --latency_gap) with iters = 250: the
#    measured run lasts 0.5 s ([0.45, 0.8] s);
#  - RTT limits as rperf lat's --max-p999: max_p999 = 1ns exits 1 with a
#    limit: line and JSON limits, 1 s exits 0;
#  - breakdown = 1 (rperf lat's --breakdown): each post timed, counted
#    once per sample, below its completion; pingpong has no loopback post;
#  - --hist FILE (rperf lat's --hist): the LSG's CDF rows hold every sample
#    and agree with the JSON's p50 and max;
#  - --sweep lsg.NAME.method=rperf,pingpong,postpoll --same-qps (rperf
#    lat's --method all on one set of QPs): 3 rounds of 500 samples on one
#    controller connection per agent, each point's method in the JSON;
#    h1's sink answers (SEND Only 0x04 leaving h1) in the pingpong round
#    only: at least its samples + warm-up, fewer than that plus the rperf
#    round's;
#  - [host h2] control = local: rperf run runs h2's agent itself (on
#    10.77.0.2, rxe_h2's address, a port of its own): an LSG of 500
#    samples to h1 and a BSG from h1 into its sink, every message
#    received; h1's agent took the controller, h2's `rperf agent` did not,
#    the local agent's lines are on rperf run's stderr;
#  - rperf lat's flow from these parts: h1 runs `rperf agent --insecure
#    --one-off` (no key, as rperf lat's server), h2 is local to `rperf run
#    --insecure`, --method all x 2 sizes as 6 rounds on one set of QPs:
#    every point ok with its 300 samples, the one-off agent took one
#    controller and exited 0 by itself.
# The LSG busy-polls (tests/lab/README.md: only a latency client may);
# its sink sleeps on events. Ends with "N passed, M failed".
# shellcheck source=/dev/null
. /usr/lib/rperf-lab/lab-lib.sh
OUT=${LAB_OUT:-/tmp}
T=60

host_ini() { # host_ini NAME CONTROL DEVICE-HOST: a [host] on rxe_hDEVICE-HOST
	printf '[host %s]\ncontrol = %s\ndevice = rxe_h%s\ngid_index = %s\n' \
		"$1" "$2" "$3" "$(lab_host_gid "h$3")"
}
# job NAME DURATION LSG-KEYS: $OUT/NAME.ini, one LSG h2 -> h1
job() {
	{
		printf '[global]\nduration = %s\nwarmup = 0.2s\n' "$2"
		host_ini h1 10.77.0.1 1
		host_ini h2 10.77.0.2 2
		printf '[lsg %s]\nfrom = h2\nto = h1\nqp_timeout = 18\n%s' "$1" "$3"
	} > "$OUT/$1.ini"
}
# run_job NAME: rperf run -> $OUT/NAME.json, its text in /tmp/NAME.out; RC
run_job() {
	timeout "$T" rperf run --key-file "$LAB_KEY" --out_json_file "$OUT/$1.json" \
		"$OUT/$1.ini" > "/tmp/$1.out" 2> "/tmp/$1.err"
	RC=$?
	sed 's/^/  [out] /' "/tmp/$1.out" | tail -n 30
	sed 's/^/  [err] /' "/tmp/$1.err"
	echo "  -> rperf run $1: status $RC"
}
# gen NAME FIELD: the first generator's FIELD in $OUT/NAME.json
gen() { jq -r ".generators[0].$2" "$OUT/$1.json"; }

# RTT limits of the [lsg] (rperf lat's --max-p50/--max-p999): judged on the
# run's own figures, far from any lab RTT (10-2000 us): 1 ns is crossed,
# 1 s is not. The rule itself (equal passes, no samples: not judged) is
# unit.run's rtt_limits.
limits() {
	local over within v p
	job limhi 1s $'max_p999 = 1ns\n'
	run_job limhi
	over=$RC
	v=$(jq -r '.generators[0].limits[0] | "\(.key) \(.exceeded) \(.value_us)"' "$OUT/limhi.json")
	p=$(jq -r '.generators[0].rtt_ns.p999 / 1000' "$OUT/limhi.json")
	job limlo 1s $'max_p50 = 1\nmax_p999 = 1s\n'
	run_job limlo
	within=$RC
	lab_result "limits over_status=$over over='$v' p999_us=$p within_status=$within within=$(jq -c '[.generators[0].limits[] | .exceeded]' "$OUT/limlo.json")"
	echo "EXPECT max_p999 = 1ns: exit 1, a limit: line, stderr says so, JSON limits [max_p999 true, value_us = rtt_ns.p999]; max_p50 = 1 (s) and max_p999 = 1s: exit 0, both false, no limit: line"
	echo "GOT exit $over, JSON '$v' (p999 $p us), text: $(grep '^limit:' /tmp/limhi.out); exit $within, $(jq -c '[.generators[0].limits[] | [.key, .exceeded]]' "$OUT/limlo.json")"
	[ "$over" = 1 ] && [ "$within" = 0 ] &&
		grep -q '^limit: limhi (h2 -> h1): RTT p99.9 is .* us, above max_p999 = 0.001 us$' /tmp/limhi.out &&
		grep -q 'above an RTT limit' /tmp/limhi.err &&
		jq -e '.generators[0].limits == [{"key": "max_p999", "limit_us": 0.001, "value_us": (.generators[0].rtt_ns.p999 / 1000), "exceeded": true}]' "$OUT/limhi.json" > /dev/null &&
		jq -e '[.generators[0].limits[] | [.key, .exceeded]] == [["max_p50", false], ["max_p999", false]]' "$OUT/limlo.json" > /dev/null &&
		! grep -q '^limit:' /tmp/limlo.out
}

# latency_gap (rperf lat's --latency_gap): 250 samples 2 ms apart, start
# to start: a measured run of 0.498 s (249 gaps; [0.45, 0.8] s under
# emulation, as the pacing check), no more samples than asked
gap() {
	local s n
	job gap 10s $'latency_gap = 2ms\niters = 250\n'
	run_job gap
	s=$(gen gap seconds) n=$(gen gap samples)
	lab_result "latency_gap status=$RC samples=$n seconds=$s"
	echo "EXPECT status 0, 250 samples, the measured run in [0.45, 0.8] s (249 gaps of 2 ms)"
	echo "GOT status $RC, $n samples in $s s"
	[ "$RC" = 0 ] && [ "$n" = 250 ] && lab_expect_range "rperf run seconds" "$s" 0.45 0.8
}

# warmup_samples (rperf lat's --warmup): the warm-up is that many samples
# instead of the [global] warmup time: JSON warmup exactly 50, then iters
warm() {
	local w n
	job warm 10s $'warmup_samples = 50\niters = 200\n'
	run_job warm
	w=$(gen warm warmup) n=$(gen warm samples)
	lab_result "warmup_samples status=$RC warmup=$w samples=$n"
	echo "EXPECT status 0, warmup 50, samples 200"
	echo "GOT status $RC, warmup $w, samples $n"
	[ "$RC" = 0 ] && [ "$w" = 50 ] && [ "$n" = 200 ]
}

# breakdown = 1 (rperf lat's --breakdown): every sample's posts are timed
# (post_wire_ns and post_loop_ns count the samples, none dropped), a post
# returns before its completion is polled (CPU stamps on rxe: post cost
# p50 <= T_W - T_P p50, and the same for the loopback), the text has the
# rows; with method = pingpong there is no loopback post: post_loop_ns null
breakdown() {
	local n q
	job bd 10s $'iters = 1000\nbreakdown = 1\n'
	run_job bd
	job bdp 10s $'iters = 300\nbreakdown = 1\nmethod = pingpong\n'
	q=$RC
	run_job bdp
	n=$(jq -c '.generators[0] | [.samples, .post_wire_ns.count, .post_loop_ns.count, .post_wire_ns.p50, .wire_ns.p50, .post_loop_ns.p50, .loop_ns.p50]' "$OUT/bd.json")
	lab_result "breakdown status=$q samples,post_wire.count,post_loop.count,post_wire.p50,wire.p50,post_loop.p50,loop.p50=$n pingpong_status=$RC pingpong=$(jq -c '.generators[0] | [.samples, .post_wire_ns.count, .post_loop_ns]' "$OUT/bdp.json")"
	echo "EXPECT status 0, 1000 samples, post_wire_ns and post_loop_ns count 1000, post p50 > 0 and <= T_W - T_P p50 (wire), <= T_L - T_P p50 (loopback); rows in the text; pingpong: 300 samples, post_wire_ns count 300, post_loop_ns null, 'RTT = T_C - T_P'"
	echo "GOT status $q, [samples, post_wire count, post_loop count, post_wire p50, wire p50, post_loop p50, loop p50] = $n; pingpong status $RC"
	grep -A7 '^breakdown' /tmp/bd.out /tmp/bdp.out | sed 's/^/  /'
	[ "$q" = 0 ] && [ "$RC" = 0 ] &&
		jq -e '.generators[0] | .samples == 1000 and .post_wire_ns.count == 1000 and .post_loop_ns.count == 1000 and .post_wire_ns.p50 > 0 and .post_loop_ns.p50 > 0 and .post_wire_ns.p50 <= .wire_ns.p50 and .post_loop_ns.p50 <= .loop_ns.p50' "$OUT/bd.json" > /dev/null &&
		jq -e '.generators[0] | .samples == 300 and .post_wire_ns.count == 300 and .post_loop_ns == null' "$OUT/bdp.json" > /dev/null &&
		grep -q '^  bd (h2 -> h1): rperf send 64 B' /tmp/bd.out &&
		grep -q '^    post cost, loopback SEND .* p50 ' /tmp/bd.out &&
		grep -q '^    RTT = wire - loopback ' /tmp/bd.out &&
		grep -q '^    RTT = T_C - T_P ' /tmp/bdp.out &&
		! grep -q 'post cost, loopback' /tmp/bdp.out
}

# --hist (rperf lat's --hist): the LSG's RTT CDF as CSV rows, its
# generator first; the rows hold every sample (count adds up to the JSON's
# samples, cumulative ends there), the JSON's p50 and max fall in the rows
# the CDF puts them in
hist_csv() {
	local n rows sum p50 max r50 rmax
	job hc 10s $'iters = 2000\n'
	timeout "$T" rperf run --key-file "$LAB_KEY" --hist "$OUT/hc.csv" --out_json_file "$OUT/hc.json" \
		"$OUT/hc.ini" > /tmp/hc.out 2> /tmp/hc.err
	RC=$?
	sed 's/^/  [err] /' /tmp/hc.err
	head -3 "$OUT/hc.csv" | sed 's/^/  [csv] /'
	n=$(gen hc samples) p50=$(gen hc rtt_ns.p50) max=$(gen hc rtt_ns.max)
	rows=$(grep -c '^hc,h2,h1,64,' "$OUT/hc.csv")
	sum=$(awk -F, 'NR > 1 { s += $8 } END { print s + 0 }' "$OUT/hc.csv")
	r50=$(awk -F, -v n="$n" 'NR > 1 && $9 >= n / 2 { print $5 ":" $6; exit }' "$OUT/hc.csv")
	rmax=$(tail -1 "$OUT/hc.csv" | awk -F, '{ print $5 ":" $6 }')
	lab_result "hist status=$RC samples=$n rows=$rows count_sum=$sum p50=$p50 p50_row=$r50 max=$max last_row=$rmax"
	echo "EXPECT status 0; the header, rows 'hc,h2,h1,64,...' whose counts add up to the $n samples (the last cumulative too); the JSON p50 inside the row where the cumulative passes half, the max inside the last row"
	echo "GOT status $RC, $rows rows, counts $sum, p50 $p50 in row $r50, max $max in row $rmax"
	[ "$RC" = 0 ] && [ "$n" = 2000 ] && [ "$rows" -ge 1 ] && [ "$sum" = "$n" ] &&
		[ "$(head -1 "$OUT/hc.csv")" = "generator,from,to,size,lo_ns,hi_ns,value_ns,count,cumulative,fraction" ] &&
		[ "$(tail -1 "$OUT/hc.csv" | cut -d, -f9)" = "$n" ] &&
		awk -v r="$r50" -v v="$p50" 'BEGIN { split(r, a, ":"); exit !(v >= a[1] && v <= a[2]) }' &&
		awk -v r="$rmax" -v v="$max" 'BEGIN { split(r, a, ":"); exit !(v >= a[1] && v <= a[2]) }'
}

# --raw: 20000 samples, more than two SAMPLES frames (8192 each) from h2's
# agent after the run: every one in the CSV, in lat's columns after the
# generator's, rtt = wire - loop on each row (CPU stamps), the rows' min
# and max the JSON's (the histogram keeps both exactly) and their median
# the JSON's p50 within the histogram's relative error
raw_csv() {
	local n rows bad min max med p50 jmin jmax rel
	job rc 20s $'iters = 20000\n'
	timeout "$T" rperf run --key-file "$LAB_KEY" --raw "$OUT/rc.csv" --out_json_file "$OUT/rc.json" \
		"$OUT/rc.ini" > /tmp/rc.out 2> /tmp/rc.err
	RC=$?
	sed 's/^/  [err] /' /tmp/rc.err
	head -3 "$OUT/rc.csv" | sed 's/^/  [csv] /'
	n=$(gen rc samples) p50=$(gen rc rtt_ns.p50) jmin=$(gen rc rtt_ns.min) jmax=$(gen rc rtt_ns.max)
	rel=$(gen rc rtt_ns.rel_error)
	rows=$(grep -c '^rc,h2,h1,64,' "$OUT/rc.csv")
	bad=$(awk -F, 'NR > 1 && $7 != $5 - $6' "$OUT/rc.csv" | wc -l)
	min=$(awk -F, 'NR > 1 { print $7 }' "$OUT/rc.csv" | sort -n | head -1)
	max=$(awk -F, 'NR > 1 { print $7 }' "$OUT/rc.csv" | sort -n | tail -1)
	med=$(awk -F, 'NR > 1 { print $7 }' "$OUT/rc.csv" | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')
	lab_result "raw status=$RC samples=$n rows=$rows rtt_not_wire_minus_loop=$bad min=$min/$jmin max=$max/$jmax median=$med p50=$p50 rel_error=$rel"
	echo "EXPECT status 0; the header; 20000 rows 'rc,h2,h1,64,...' (the JSON's samples); rtt = wire - loop on every row; the rows' min and max = the JSON's; their median within 2 x rel_error of the JSON's p50"
	echo "GOT status $RC; $rows rows of $n samples; $bad rows with rtt != wire - loop; min $min (JSON $jmin), max $max (JSON $jmax), median $med (JSON p50 $p50, rel_error $rel)"
	[ "$RC" = 0 ] && [ "$n" = 20000 ] && [ "$rows" = "$n" ] && [ "$bad" = 0 ] &&
		[ "$(head -1 "$OUT/rc.csv")" = "generator,from,to,size,wire_ns,loop_ns,rtt_ns" ] &&
		[ "$min" = "$jmin" ] && [ "$max" = "$jmax" ] &&
		awk -v m="$med" -v p="$p50" -v e="$rel" 'BEGIN { d = m - p; if (d < 0) d = -d; exit !(d <= 2 * e * p + 1) }'
}

setup() { lab_agents_start 2; }

stamps_auto() {
	local ts note n
	job auto 2s ''
	run_job auto
	ts=$(gen auto timestamps) note=$(gen auto timestamps_note) n=$(gen auto samples)
	lab_result "auto status=$RC samples=$n timestamps=$ts note='$note'"
	echo "EXPECT status 0, samples > 0, timestamps cpu, a timestamps_note naming rxe_h2, the note in the text"
	echo "GOT status $RC, samples $n, timestamps $ts, note '$note'"
	[ "$RC" = 0 ] && [ "$n" -gt 0 ] && [ "$ts" = cpu ] &&
		[ "$note" != null ] && [[ $note == *rxe_h2* ]] &&
		grep -q "h2: auto: note: .*: CPU completion stamps (timestamps auto)" "/tmp/auto.out"
}

stamps_cpu() {
	local ts note n
	job cpu 2s $'timestamps = cpu\n'
	run_job cpu
	ts=$(gen cpu timestamps) note=$(gen cpu timestamps_note) n=$(gen cpu samples)
	lab_result "cpu status=$RC samples=$n timestamps=$ts note=$note"
	echo "EXPECT status 0, samples > 0, timestamps cpu, timestamps_note null, no note in the text"
	echo "GOT status $RC, samples $n, timestamps $ts, note $note"
	[ "$RC" = 0 ] && [ "$n" -gt 0 ] && [ "$ts" = cpu ] && [ "$note" = null ] &&
		! grep -q "CPU completion stamps" "/tmp/cpu.out"
}

stamps_nic() {
	job nic 2s $'timestamps = nic\n'
	run_job nic
	lab_result "nic status=$RC"
	echo "EXPECT status 3 and lat's words: 'timestamps nic: ...; accepted: cpu or auto'"
	echo "GOT status $RC, $(grep -ho 'timestamps nic:[^;]*; accepted: cpu or auto' /tmp/nic.out /tmp/nic.err | head -n 1)"
	[ "$RC" = 3 ] && grep -q 'timestamps nic: .*; accepted: cpu or auto' /tmp/nic.out /tmp/nic.err
}

iters_exact() {
	local n s e
	job it 20s $'iters = 2000\n'
	run_job it
	n=$(gen it samples) s=$(gen it seconds) e=$(gen it error)
	lab_result "iters=2000 status=$RC samples=$n seconds=$s error='$e'"
	echo "EXPECT status 0, samples exactly 2000, no error, the measured run well inside the 20 s window (< 15 s)"
	echo "GOT status $RC, samples $n, error '$e', seconds $s"
	[ "$RC" = 0 ] && [ "$n" = 2000 ] && [ -z "$e" ] && lab_expect_range "seconds" "$s" 0 15
}

iters_window() {
	local n e
	job itw 1s $'iters = 100M\n'
	run_job itw
	n=$(gen itw samples) e=$(gen itw error)
	lab_result "iters=100M window=1s status=$RC samples=$n error='$e'"
	echo "EXPECT status 3, 0 < samples < 10^8, the error 'the window (duration) ended after N of iters = 100000000 samples' with N = samples"
	echo "GOT status $RC, samples $n, error '$e'"
	[ "$RC" = 3 ] && [ "$n" -gt 0 ] && [ "$n" -lt 100000000 ] &&
		[ "$e" = "the window (duration) ended after $n of iters = 100000000 samples" ]
}

# a second agent on h1 (port 18522), the same device rxe_h1 for both hosts
same_device() {
	local pid
	rperf agent --bind 10.77.0.1 --port 18522 --key-file "$LAB_KEY" > /tmp/agent-h1b.log 2>&1 &
	pid=$!
	for _ in $(seq 100); do ss -Hltn 'sport = :18522' | grep -q . && break; sleep 0.1; done
	{
		printf '[global]\nduration = 1s\nwarmup = 0.2s\n'
		host_ini a 10.77.0.1 1
		host_ini b 10.77.0.1:18522 1
		printf '[lsg same]\nfrom = a\nto = b\n'
	} > "$OUT/same.ini"
	run_job same
	kill "$pid"
	wait "$pid" 2> /dev/null
	lab_result "same-device status=$RC"
	echo "EXPECT status 3 and the refusal 'answered from this host's own device rxe_h1 port 1: that measures a loopback inside the device'"
	echo "GOT status $RC, $(grep -ho "own device [^:]*: that measures a loopback inside the device" /tmp/same.out /tmp/same.err | head -n 1)"
	[ "$RC" = 3 ] && grep -q "answered from this host's own device rxe_h1 port 1: that measures a loopback inside the device" /tmp/same.out /tmp/same.err "$OUT/same.json"
}

# verb_run NAME KEYS OPCODE: an LSG of KEYS (iters = 500) while tcpdump
# counts the packets of BTH OPCODE leaving h2; sets N (samples, warm-up
# included) and PKTS
verb_run() {
	local caps
	job "$1" 10s "iters = 500
$2"
	lab_capture_start h2 "src host 10.77.0.2 and udp dst port 4791 and udp[8] = $3" || return 1
	run_job "$1"
	caps=$(lab_capture_stop)
	PKTS=$(echo "$caps" | awk '{ s += $1 } END { print s + 0 }')
	N=$(($(gen "$1" samples) + $(gen "$1" warmup)))
	lab_result "$1 status=$RC method=$(gen "$1" method) verb=$(gen "$1" verb) samples+warmup=$N opcode_$3_pkts=$PKTS p50_ns=$(gen "$1" rtt_ns.p50)"
}
# verb_ok NAME KEYS OPCODE METHOD VERB: status 0, 500 samples, the JSON's
# method and verb, at least one packet of OPCODE per sample; postpoll's
# text never speaks of a loopback or a pair order (it has neither)
verb_ok() {
	verb_run "$1" "$2" "$3" || return 1
	echo "EXPECT status 0, samples 500, method $4, verb $5, >= samples + warm-up packets of opcode $3 from h2"
	echo "GOT status $RC, samples $(gen "$1" samples), method $(gen "$1" method), verb $(gen "$1" verb), $PKTS packets for $N samples"
	[ "$RC" = 0 ] && [ "$(gen "$1" samples)" = 500 ] && [ "$(gen "$1" method)" = "$4" ] &&
		[ "$(gen "$1" verb)" = "$5" ] && [ "$PKTS" -ge "$N" ] &&
		{ [ "$4" != postpoll ] || ! grep -Eq "loopback|pair_order" "/tmp/$1.out"; }
}
verb_write() { verb_ok vw $'verb = write\n' 0x0a rperf write; }
verb_read() { verb_ok vr $'verb = read\nsize = 4K\n' 0x0c postpoll read; }
verb_atomic() { verb_ok va $'verb = atomic\n' 0x14 postpoll atomic; }
verb_cas() { verb_ok vc $'verb = atomic\natomic_op = cmp_and_swap\n' 0x13 postpoll atomic; }
send_inline() { verb_ok vi $'inline = 64\n' 0x04 rperf send; }
# pingpong (gen/echo.h): the sink's agent answers every sample, each
# answer a packet of BTH opcode OP leaving h1 (one per sample at least).
# pp_ok NAME VERB OP [GLOBAL-KEY]: 500 samples of verb VERB
pp_ok() {
	local caps pkts n
	job "$1" 10s "$(printf 'iters = 500\nmethod = pingpong\nverb = %s\n' "$2")"$'\n'
	[ -n "${4:-}" ] && sed -i "/^\[global\]/a $4" "$OUT/$1.ini"
	lab_capture_start h1 "src host 10.77.0.1 and udp dst port 4791 and udp[8] = $3" || return 1
	run_job "$1"
	caps=$(lab_capture_stop)
	pkts=$(echo "$caps" | awk '{ s += $1 } END { print s + 0 }')
	n=$(($(gen "$1" samples) + $(gen "$1" warmup)))
	lab_result "pingpong_$2 status=$RC samples+warmup=$n answer_pkts=$pkts p50_ns=$(gen "$1" rtt_ns.p50)"
	echo "EXPECT status 0, samples 500, method pingpong, verb $2, >= samples + warm-up packets of opcode $3 from h1 (the answers)"
	echo "GOT status $RC, samples $(gen "$1" samples), method $(gen "$1" method), verb $(gen "$1" verb), $pkts answers for $n samples, p50 $(gen "$1" rtt_ns.p50) ns"
	[ "$RC" = 0 ] && [ "$(gen "$1" samples)" = 500 ] && [ "$(gen "$1" method)" = pingpong ] &&
		[ "$(gen "$1" verb)" = "$2" ] && [ "$pkts" -ge "$n" ]
}
# SENDs sent back (SEND Only 0x04); with verb = write (ib_write_lat's
# way) the sink polls its buffer's last byte and WRITEs each sample back
# (RDMA WRITE Only 0x0a): its sinks must poll, a WRITE makes no completion
pingpong() { pp_ok pp send 0x04; }
pingpong_write() { pp_ok ppw write 0x0a 'sink_completion = poll'; }

lsg_rdma_cm() {
	local n ids pid
	job cm 3s $'rdma_cm = 1\n'
	(sleep 1.8; rdma resource show cm_id > /tmp/cm-ids.txt 2>&1) &
	pid=$!
	run_job cm
	wait "$pid"
	sed 's/^/  [cm_id] /' /tmp/cm-ids.txt
	ids=$(grep -c 'state CONNECT.*comm rperf' /tmp/cm-ids.txt)
	n=$(gen cm samples)
	lab_result "rdma_cm status=$RC samples=$n connected_cm_ids=$ids"
	echo "EXPECT status 0, samples > 0, >= 2 connected rdma_cm ids of rperf mid-run (the wire QP's two ends)"
	echo "GOT status $RC, samples $n, $ids connected ids"
	[ "$RC" = 0 ] && [ "$n" -gt 0 ] && [ "$ids" -ge 2 ]
}

paced() {
	local s ls spid r
	job pace 10s $'rate = 512k\niters = 500\n'
	run_job pace
	s=$(gen pace seconds)
	timeout "$T" rperf lat -d rxe_h1 > /tmp/pace-srv.log 2>&1 &
	spid=$!
	sleep 0.5
	timeout "$T" rperf lat -d rxe_h2 --rate 1000 -n 500 --warmup 10 \
		--out_json_file "$OUT/pace-lat.json" 10.77.0.1 > /tmp/pace-cli.log 2>&1
	r=$?
	wait "$spid"
	sed 's/^/  [lat] /' /tmp/pace-cli.log | tail -n 12
	ls=$(jq -r '.results[0].seconds' "$OUT/pace-lat.json")
	lab_result "pacing run_status=$RC run_samples=$(gen pace samples) run_seconds=$s lat_status=$r lat_samples=$(jq -r '.results[0].samples' "$OUT/pace-lat.json") lat_seconds=$ls"
	echo "EXPECT both status 0 and 500 samples, each measured run in [0.45, 0.8] s"
	echo "GOT rperf run status $RC, $(gen pace samples) samples in $s s; rperf lat status $r, $(jq -r '.results[0].samples' "$OUT/pace-lat.json") samples in $ls s"
	[ "$RC" = 0 ] && [ "$r" = 0 ] && [ "$(gen pace samples)" = 500 ] &&
		[ "$(jq -r '.results[0].samples' "$OUT/pace-lat.json")" = 500 ] &&
		lab_expect_range "rperf run seconds" "$s" 0.45 0.8 &&
		lab_expect_range "rperf lat seconds" "$ls" 0.45 0.8
}

check "rperf agent on h1 and h2"                                   setup
check "timestamps auto: CPU stamps on rxe, with lat's note"         stamps_auto
check "timestamps = cpu: CPU stamps, no note"                       stamps_cpu
check "timestamps = nic on rxe: lat's refusal, exit 3"              stamps_nic
check "iters = 2000: exactly 2000 samples, inside the window"       iters_exact
check "iters = 100M in 1 s: the window ends it, the error says so"  iters_window
check "two hosts on one device: the LSG refuses the loopback"       same_device
check "verb = write: WRITE pairs, RDMA WRITEs on the wire"          verb_write
check "verb = read: postpoll READs on the wire"                     verb_read
check "verb = atomic: postpoll FETCH_ADDs on the wire"              verb_atomic
check "atomic_op = cmp_and_swap: COMPARE_SWAPs on the wire"         verb_cas
check "inline = 64: SENDs posted inline, each on the wire"          send_inline
check "method = pingpong: h1's agent echoes every SEND"           pingpong
check "pingpong with verb = write: h1's agent WRITEs every one back" pingpong_write
# --method all's way: the method changes per round on the same QPs; only
# the pingpong round's SENDs are answered by h1's sink
method_rounds() {
	local caps pkts c0 c1 got n=() k
	job mr 10s $'iters = 500\n'
	c0=$(cat /tmp/agent-h1.log /tmp/agent-h2.log | grep -c ': connected$')
	lab_capture_start h1 "src host 10.77.0.1 and udp dst port 4791 and udp[8] = 0x04" || return 1
	timeout "$T" rperf run --key-file "$LAB_KEY" --out_json_file "$OUT/mr.json" \
		--sweep lsg.mr.method=rperf,pingpong,postpoll --same-qps \
		"$OUT/mr.ini" > /tmp/mr.out 2> /tmp/mr.err
	RC=$?
	caps=$(lab_capture_stop)
	sed 's/^/  [out] /' /tmp/mr.out | grep -E 'sweep|^  \[out\] mr ' | head -n 12
	sed 's/^/  [err] /' /tmp/mr.err
	pkts=$(echo "$caps" | awk '{ s += $1 } END { print s + 0 }')
	c1=$(cat /tmp/agent-h1.log /tmp/agent-h2.log | grep -c ': connected$')
	got=$(jq -c '[.points[] | .status, (.report.generators[0] | .method, .samples)]' "$OUT/mr.json" 2> /dev/null)
	for k in 0 1 2; do
		n[k]=$(jq -r --argjson k "$k" '.points[$k].report.generators[0] | .samples + .warmup' "$OUT/mr.json" 2> /dev/null)
	done
	lab_result "method_rounds status=$RC controllers=$((c1 - c0)) points=$got samples+warmup='${n[*]}' answers_from_h1=$pkts"
	echo "EXPECT status 0; 2 controller connections; points ok with rperf, pingpong, postpoll and 500 samples each; SENDs from h1 >= the pingpong round's samples + warm-up (${n[1]}) and < that + the rperf round's (${n[0]})"
	echo "GOT status $RC; $((c1 - c0)) connections; $got; $pkts SENDs from h1"
	[ "$RC" = 0 ] && [ $((c1 - c0)) = 2 ] &&
		[ "$got" = '["ok","rperf",500,"ok","pingpong",500,"ok","postpoll",500]' ] &&
		[ "$pkts" -ge "${n[1]}" ] && [ "$pkts" -lt $((n[1] + n[0])) ]
}

# control = local: no `rperf agent` needed on the controller's host
local_agent() {
	local a1 a2 c1 c2 lines bm br
	job la 2s $'iters = 500\n'
	sed -i '/^\[host h2\]/,/^\[/ s/^control = .*/control = local/' "$OUT/la.ini"
	printf '[bsg lb]\nfrom = h1\nto = h2\nsize = 4K\nrate = 20M\nqp_timeout = 18\n' >> "$OUT/la.ini"
	a1=$(grep -c ': connected$' /tmp/agent-h1.log)
	a2=$(grep -c ': connected$' /tmp/agent-h2.log)
	run_job la
	c1=$(($(grep -c ': connected$' /tmp/agent-h1.log) - a1))
	c2=$(($(grep -c ': connected$' /tmp/agent-h2.log) - a2))
	lines=$(grep -c '^rperf run: local agent h2 [0-9:]*: controller 10\.77\.0\.2:[0-9]*: connected$' /tmp/la.err)
	bm=$(jq -r '.generators[] | select(.name == "lb") | .messages' "$OUT/la.json" 2> /dev/null)
	br=$(jq -r '.generators[] | select(.name == "lb") | .received_messages' "$OUT/la.json" 2> /dev/null)
	lab_result "local_agent status=$RC lsg_samples=$(gen la samples) bsg_messages=$bm bsg_received=$br h1_agent_controllers=$c1 h2_agent_controllers=$c2 local_connected_lines=$lines"
	echo "EXPECT status 0; 500 LSG samples; BSG messages > 0, all received; h1's agent 1 controller, h2's rperf agent 0; 1 'local agent h2 ... connected' line"
	echo "GOT status $RC; $(gen la samples) samples; BSG $bm sent, $br received; controllers h1 $c1, h2 $c2; $lines local line(s)"
	[ "$RC" = 0 ] && [ "$(gen la samples)" = 500 ] && [ "${bm:-0}" -gt 0 ] &&
		[ "$br" = "$bm" ] && [ "$c1" = 1 ] && [ "$c2" = 0 ] && [ "$lines" = 1 ]
}

# rperf lat's flow from parts: a one-off agent without a key on h1, h2
# local to the controller, methods x sizes as rounds on one set of QPs
one_off_lat() {
	local pid rc2 got want k conns
	rperf agent --insecure --one-off --bind 10.77.0.1 -p 18600 > /tmp/oneoff.log 2>&1 &
	pid=$!
	_lab_wait_listen 18600 "$pid" || { echo "GOT no one-off agent listening: $(tr '\n' '|' < /tmp/oneoff.log)"; return 1; }
	{
		printf '[global]\nduration = 10s\nwarmup = 0.2s\n'
		host_ini h1 10.77.0.1:18600 1
		host_ini h2 local 2
		printf '[lsg ol]\nfrom = h2\nto = h1\nqp_timeout = 18\niters = 300\n'
	} > "$OUT/ol.ini"
	timeout "$T" rperf run --insecure --out_json_file "$OUT/ol.json" \
		--sweep lsg.ol.method=rperf,pingpong,postpoll --sweep lsg.ol.size=64,1024 \
		--same-qps "$OUT/ol.ini" > /tmp/ol.out 2> /tmp/ol.err
	RC=$?
	for ((k = 0; k < 50; k++)); do kill -0 "$pid" 2> /dev/null || break; sleep 0.1; done
	if kill -0 "$pid" 2> /dev/null; then
		rc2=running
		kill "$pid"
		wait "$pid"
	else
		wait "$pid"
		rc2=$?
	fi
	sed 's/^/  [out] /' /tmp/ol.out | grep -E 'sweep|^  \[out\] ol ' | head -n 12
	sed 's/^/  [agent] /' /tmp/oneoff.log | tail -n 4
	got=$(jq -c '[.points[] | [.status, (.report.generators[0] | .method, .size, .samples)]] | sort' "$OUT/ol.json" 2> /dev/null)
	want='[["ok","pingpong",64,300],["ok","pingpong",1024,300],["ok","postpoll",64,300],["ok","postpoll",1024,300],["ok","rperf",64,300],["ok","rperf",1024,300]]'
	conns=$(grep -c ': connected$' /tmp/oneoff.log)
	lab_result "one_off_lat status=$RC agent_exit=$rc2 agent_controllers=$conns points=$got"
	echo "EXPECT status 0; 6 points ok, each method at 64 and 1024 B with 300 samples; the one-off agent: 1 controller, exit 0 by itself"
	echo "GOT status $RC; $got; agent $conns controller(s), exit $rc2"
	[ "$RC" = 0 ] && [ "$got" = "$want" ] && [ "$conns" = 1 ] && [ "$rc2" = 0 ] &&
		grep -q 'served one controller (--one-off)' /tmp/oneoff.log
}

check "rdma_cm = 1: the wire QP connected through rdma_cm"          lsg_rdma_cm
check "pacing: rate = 512k (64 B) and lat --rate 1000, 1 ms apart"  paced
check "latency_gap = 2ms: 250 samples 2 ms apart"                 gap
check "warmup_samples = 50: a warm-up of exactly 50 samples"     warm
check "max_p50/max_p999: 1 ns crossed (exit 1), 1 s within (exit 0)" limits
check "breakdown = 1: every post timed, before its completion"      breakdown
check "--hist: the LSG's RTT CDF as CSV, every sample in it"      hist_csv
check "--raw: 20000 samples in 3 SAMPLES frames, every one in the CSV" raw_csv
check "method swept on the same QPs: rperf, pingpong, postpoll rounds" method_rounds
check "control = local: h2's agent runs inside rperf run"          local_agent
check "lat's flow: a one-off agent, a local host, methods x sizes"  one_off_lat
lab_agents_stop
lab_summary
