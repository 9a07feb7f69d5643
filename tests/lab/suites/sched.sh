#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# sched.sh - tail latency under load that a closed-loop probe cannot hide
# (probe schedules), one boot:
#   rxe-lab run --hosts 3 tests/lab/suites/sched.sh
# h1 is the destination; its switch port h1-sw is a FIFO shaped to 4 Mb/s.
# h3 runs an on/off BSG (rperf run: SENDs, on 200 ms, off 200 ms) to h1; h2
# probes h1 with rperf lat --schedule poisson:RATE (a rate the port carries:
# 60 B frames, 2 % of it). Checked:
#  - the share of the poisson samples above 10x the idle median (a poisson
#    run with no BSG) is the port's busy share within +-10 points, the busy
#    share measured from the switch itself: the tbf's backlog on h1-sw,
#    sampled in the VM, time-weighted, busy = a backlog of at least what
#    delays a frame by 9x the idle median at 4 Mb/s (a sample waiting that
#    long is above 10x);
#  - the closed-loop figure (rperf lat, --schedule closed) is printed beside
#    it (expected below: a closed loop takes many samples in the gaps);
#  - the destination's received rate (rperf run's "to h1" row) is at most
#    the shaped port's rate + 2 % (a receiver's rate over the run's window);
#  - the schedule's own report: kept up (no "fell behind"), lag figures;
#  - rperf lat/bw with client and server both on rxe_h1: refused (exit 2).
# Ends with "N passed, M failed".
. /usr/lib/rperf-lab/lab-lib.sh
OUT=${LAB_OUT:-/tmp}
RATE=4mbit RATE_BPS=4000000
PROBE=250                      # samples/s (500/s: 10 % of samples posted
                               # > 2 ms late in the loaded VM, 1 boot)
BSG_SIZE=512 BSG_DEPTH=8 MTU=1024 ON=200ms OFF=200ms
LSG_SIZE=2
SHARE_TOL=10                   # points (issue 20)
T=90

switch_on_cpu0() {  # lab packet processing on CPU 0 (RPS), as run-qos.sh
	local d
	for d in /sys/class/net/h*/queues/rx-0/rps_cpus; do echo 1 > "$d"; done
	ip netns exec sw sh -c 'for d in /sys/class/net/h*/queues/rx-0/rps_cpus; do echo 1 > $d; done'
}
setup() {
	switch_on_cpu0
	lab_fifo h1 "$RATE" || { sleep 0.5; echo "INFO tc retried once"; lab_fifo h1 "$RATE"; } || return 1
	echo "INFO h1-sw: $(tc -n sw qdisc show dev h1-sw | tr '\n' ' ')"
	lab_agents_start 3 || return 1
	echo "INFO rperf $(rperf --version 2>&1 | head -1)"
}

# lat_run TAG SCHEDULE SECONDS: rperf lat h2 -> h1, every sample to
# $OUT/sched-TAG.raw; sets RAWF
lat_run() {
	local tag=$1 sched=$2 secs=$3 rc srv pin=()
	RAWF=$OUT/sched-$tag.raw
	rm -f "$RAWF"
	# the LSG on CPU 1, lab packet processing on CPU 0 (as run-qos.sh)
	command -v taskset > /dev/null && pin=(taskset -c 1)
	timeout "$T" rperf lat -d rxe_h1 > "/tmp/srv-$tag.log" 2>&1 &
	srv=$!
	sleep 0.5
	timeout "$T" "${pin[@]}" rperf lat -d rxe_h2 -s "$LSG_SIZE" -D "$secs" --warmup 100 \
		--schedule "$sched" --raw "$RAWF" --out_json_file "$OUT/sched-$tag.json" \
		10.77.0.1 > "$OUT/sched-$tag.txt" 2>&1
	rc=$?
	wait "$srv"
	sed 's/^/  [lat] /' "$OUT/sched-$tag.txt" | grep -v '^  \[lat\] *$' | head -40
	[ "$rc" = 0 ] || { echo "GOT rperf lat ($tag, $sched) status $rc"; return 1; }
	[ -s "$RAWF" ] || { echo "GOT no samples in $RAWF"; return 1; }
}
# rtt_p50 FILE / share_above FILE NS: from --raw (the RTT is the last column)
rtt_p50() {
	awk -F, '$NF ~ /^-?[0-9]+$/ { print $NF }' "$1" | sort -n |
		awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}
share_above() {
	awk -F, -v t="$2" '$NF ~ /^-?[0-9]+$/ { n++; if ($NF + 0 > t) s++ }
		END { if (n) printf "%.4f %d\n", s / n, n; else print "nan 0" }' "$1"
}

IDLE=''
idle_run() {
	lat_run idle "poisson:$PROBE" 4 || return 1
	IDLE=$(rtt_p50 "$RAWF")
	lab_result "sched_idle poisson=$PROBE p50_ns=$IDLE samples=$(share_above "$RAWF" 0 | cut -d' ' -f2)"
	case $IDLE in '' | *[!0-9]*) echo "GOT no idle median"; return 1 ;; esac
}

# the BSG: rperf run, h3 -> h1, on/off SENDs
job_write() {
	{
		printf '[global]\nduration = %s\nwarmup = 1s\ntimeout = 10s\nsink_completion = event\n' "$1"
		for i in 1 3; do
			printf '[host h%s]\ncontrol = 10.77.0.%s\ndevice = rxe_h%s\ngid_index = %s\n' \
				"$i" "$i" "$i" "$(lab_host_gid "h$i")"
		done
		printf '[bsg load]\nfrom = h3\nto = h1\nverb = send\nsize = %s\ntx_depth = %s\n' "$BSG_SIZE" "$BSG_DEPTH"
		printf 'cq_mod = 1\nmtu = %s\nqp_timeout = 18\ncompletion = event\non = %s\noff = %s\n' "$MTU" "$ON" "$OFF"
	} > "$2"
}
# sampler: the tbf's backlog on h1-sw, one `qdisc show` per ~5 ms through one
# tc -batch; the times it was asked at in .t, the answers in .q (same order).
# It forks sleep(1) per sample: 29 ms per sample under TCG (226 in 6.6 s),
# CPU taken from the prober; a fork-free version (read -t on a FIFO) took
# no sample at all in the VM (1 boot) and is not used.
sampler_start() {
	rm -f /tmp/sampler.stop /tmp/backlog.t /tmp/backlog.q
	(
		while [ ! -e /tmp/sampler.stop ]; do
			echo "$EPOCHREALTIME" >> /tmp/backlog.t
			echo "qdisc show dev h1-sw"
			sleep 0.005
		done | tc -s -n sw -batch - > /tmp/backlog.q 2>&1
	) &
	SAMPLER=$!
}
sampler_stop() { touch /tmp/sampler.stop; wait "$SAMPLER"; }
# busy_share T0 T1 BYTES: time-weighted share of [T0, T1] with a backlog of
# at least BYTES (tc prints sizes as 1234b, 12Kb, 1Mb)
busy_share() {
	awk '/^qdisc tbf/ { f = 1 } f && /backlog/ { for (i = 1; i <= NF; i++) if ($i == "backlog") { print $(i + 1); f = 0; break } }' /tmp/backlog.q > /tmp/backlog.b
	paste -d' ' /tmp/backlog.t /tmp/backlog.b | awk -v t0="$1" -v t1="$2" -v min="$3" '
		function bytes(s) { if (s ~ /Mb$/) return s * 1048576; if (s ~ /Kb$/) return s * 1024; return s + 0 }
		NF == 2 && $1 >= t0 && $1 <= t1 {
			if (n) { dt = $1 - pt; tot += dt; if (pb >= min) busy += dt }
			pt = $1; pb = bytes($2); n++
		}
		END { if (tot > 0) printf "%.4f %d %.3f\n", busy / tot, n, tot; else print "nan 0 0" }'
}

PS='' BUSY='' CS='' DEST=''
loaded_run() {
	local job=$OUT/sched-bsg.ini j=$OUT/sched-bsg.json b0 t0 t1 k thr s n
	[ -n "$IDLE" ] || { echo "GOT no idle median"; return 1; }
	job_write 16s "$job"
	rm -f "$j"
	sampler_start
	b0=$(lab_port_tx h1 bytes)
	timeout "$T" rperf run --key-file "$LAB_KEY" "$job" --out_json_file "$j" > "$OUT/sched-bsg.txt" 2>&1 &
	local runpid=$!
	for ((k = 0; k < 200; k++)); do  # the BSG's bytes cross h1-sw
		[ $(($(lab_port_tx h1 bytes) - b0)) -gt 20000 ] && break
		sleep 0.1
	done
	echo "INFO BSG traffic after $((k / 10)).$((k % 10)) s"
	t0=$EPOCHREALTIME
	lat_run poisson "poisson:$PROBE" 5 || { sampler_stop; wait "$runpid"; return 1; }
	t1=$EPOCHREALTIME
	lat_run closed closed 3 || { sampler_stop; wait "$runpid"; return 1; }
	sampler_stop
	wait "$runpid"
	echo "  -> rperf run (BSG): status $?"
	sed 's/^/  [run] /' "$OUT/sched-bsg.txt"
	thr=$((10 * IDLE))
	# a backlog that delays a frame by 9 x the idle median at RATE_BPS
	local qb=$((9 * IDLE * RATE_BPS / 8 / 1000000000))
	read -r s n <<< "$(share_above "$OUT/sched-poisson.raw" "$thr")"
	PS=$s
	read -r BUSY k t0 <<< "$(busy_share "$t0" "$t1" "$qb")"
	echo "INFO backlog samples in the poisson window: $k over $t0 s; busy = backlog >= $qb B"
	read -r CS k <<< "$(share_above "$OUT/sched-closed.raw" "$thr")"
	DEST=$(jq -r '.hosts[] | select(.name == "h1") | .received.receiver_gbps // empty' "$j" 2> /dev/null)
	[ -n "$DEST" ] || DEST=$(jq -r '[.generators[] | select(.kind == "bsg") | .receiver_gbps] | add // empty' "$j")
	lab_result "sched_share poisson=$PROBE slow_share=$PS samples=$n busy_share=$BUSY closed_slow_share=$CS closed_samples=$k threshold_ns=$thr idle_p50_ns=$IDLE busy_backlog_bytes=$qb"
	echo "INFO  schedule        samples above 10x idle median   port busy share (tc backlog)"
	echo "INFO  poisson:$PROBE   $PS                             $BUSY"
	echo "INFO  closed          $CS (closed loop, expected biased low)"
	jq -c '.warnings // empty' "$OUT/sched-poisson.json" 2> /dev/null | sed 's/^/INFO poisson warnings: /'
}
share_check() {
	[ -n "$PS" ] && [ -n "$BUSY" ] || { echo "GOT no shares"; return 1; }
	local d
	d=$(awk -v a="$PS" -v b="$BUSY" 'BEGIN { printf "%.1f", 100 * (a - b) }')
	lab_expect_range "poisson slow share - port busy share (points)" "$d" "-$SHARE_TOL" "$SHARE_TOL"
}
closed_beside() {
	[ -n "$CS" ] || { echo "GOT no closed-loop share"; return 1; }
	echo "INFO closed-loop share above 10x idle median: $CS (poisson: $PS, port busy: $BUSY)"
	lab_expect_range "closed-loop slow share (printed beside; a share)" "$CS" 0 1
}
dest_rate() {
	[ -n "$DEST" ] || { echo "GOT no destination rate"; return 1; }
	lab_result "sched_dest_rate received_gbps=$DEST port_gbps=$(awk -v r="$RATE_BPS" 'BEGIN { print r / 1e9 }')"
	lab_expect_range "h1 received (Gb/s) <= shaped port + 2 %" "$DEST" 0 \
		"$(awk -v r="$RATE_BPS" 'BEGIN { print r * 1.02 / 1e9 }')"
}
kept_up() {  # the schedule's own report: its lag line (kept up or not)
	local l
	l=$(grep "schedule poisson:$PROBE" "$OUT/sched-poisson.txt")
	echo "INFO $l"
	lab_result "sched_lag fell_behind=$(grep -q 'FELL BEHIND' "$OUT/sched-poisson.txt" && echo yes || echo no)"
	[ -n "$l" ]
}

# The time series: one rperf run with both generators ([lsg] schedule =
# poisson, [bsg] on/off), interval 100 ms: its JSON ($OUT/timeseries.json)
# holds intervals[] of each; the host draws it (tests/lab/sched-plot.sh).
# Checked here: 20+ intervals each, and the LSG's per-interval p50 spans the
# on/off phases (its highest above 10x its lowest).
timeseries_run() {
	local job=$OUT/sched-ts.ini j=$OUT/timeseries.json nl nb lo hi
	rm -f "$j"
	job_write 4s "$job"
	{
		printf 'interval = 100ms\n'
		printf '[host h2]\ncontrol = 10.77.0.2\ndevice = rxe_h2\ngid_index = %s\ncpu = 1\n' "$(lab_host_gid h2)"
		printf '[lsg probe]\nfrom = h2\nto = h1\nsize = %s\nschedule = poisson:%s\ninterval = 100ms\nqp_timeout = 18\n' "$LSG_SIZE" "$PROBE"
	} >> "$job"
	timeout "$T" rperf run --key-file "$LAB_KEY" "$job" --out_json_file "$j" > "$OUT/sched-ts.txt" 2>&1
	local rc=$?
	sed 's/^/  [run] /' "$OUT/sched-ts.txt"
	[ "$rc" = 0 ] || { echo "GOT rperf run status $rc"; return 1; }
	nl=$(jq '[.generators[] | select(.kind == "lsg")][0].intervals | length' "$j")
	nb=$(jq '[.generators[] | select(.kind == "bsg")][0].intervals | length' "$j")
	lo=$(jq '[.generators[] | select(.kind == "lsg")][0].intervals | map(.p50_us // empty) | min' "$j")
	hi=$(jq '[.generators[] | select(.kind == "lsg")][0].intervals | map(.p50_us // empty) | max' "$j")
	echo "INFO LSG intervals: $(jq -c '[.generators[] | select(.kind == "lsg")][0].intervals | map([.start_s, .samples, .p50_us])' "$j" | head -c 1500)"
	echo "INFO BSG intervals: $(jq -c '[.generators[] | select(.kind == "bsg")][0].intervals | map([.start_s, .gbps])' "$j" | head -c 1500)"
	lab_result "sched_timeseries lsg_intervals=$nl bsg_intervals=$nb lsg_p50_us_min=$lo max=$hi"
	lab_expect_ge "LSG intervals" "$nl" 20 || return 1
	lab_expect_ge "BSG intervals" "$nb" 20 || return 1
	lab_expect_ge "LSG p50 per interval: highest / lowest" \
		"$(awk -v a="$lo" -v b="$hi" 'BEGIN { if (a > 0) printf "%.1f", b / a; else print 0 }')" 10
}

# Client and server on one device and GID (both on rxe_h1, as when neither
# gives -d): a loopback inside the device, no packet through the switch.
# Refused with exit 2 naming the device; nothing crosses h1-sw.
same_device() {
	local cmd b0 b1 rc
	for cmd in lat bw; do
		b0=$(lab_port_rx h1)
		timeout 30 rperf "$cmd" -d rxe_h1 > "/tmp/same-srv-$cmd.log" 2>&1 &
		local srv=$!
		sleep 0.5
		timeout 30 rperf "$cmd" -d rxe_h1 -n 100 10.77.0.1 > "/tmp/same-$cmd.out" 2>&1
		rc=$?
		kill "$srv" 2> /dev/null
		wait "$srv" 2> /dev/null
		b1=$(lab_port_rx h1)
		echo "INFO rperf $cmd, both ends on rxe_h1: status $rc: $(tr '\n' ' ' < "/tmp/same-$cmd.out" | head -c 400)"
		echo "EXPECT rperf $cmd exits 2 naming rxe_h1; GOT status $rc"
		[ "$rc" = 2 ] || return 1
		grep -q "own device rxe_h1" "/tmp/same-$cmd.out" || { echo "GOT no device named"; return 1; }
		lab_expect_range "packets h1 sent into the switch meanwhile (control TCP only)" "$((b1 - b0))" 0 200 || return 1
	done
}

if ! command -v rperf > /dev/null; then
	echo "skip: no rperf binary in this boot (build target rperf_bin)"
	exit 77
fi
check "3 agents, h1-sw FIFO $RATE"                                setup
check "idle: poisson:$PROBE LSG, no BSG"                          idle_run
check "on/off BSG ($ON/$OFF) + poisson LSG + closed LSG"          loaded_run
check "poisson: share above 10x idle median = port busy share +-$SHARE_TOL" share_check
check "closed loop's share printed beside it"                     closed_beside
check "destination row <= shaped port rate + 2 %"                 dest_rate
check "poisson prober's lag reported (kept up or fell behind)"     kept_up
check "same device and GID on both ends: refused, exit 2"         same_device
check "time series: run JSON intervals[] of the LSG and the BSG"   timeseries_run
lab_agents_stop
lab_summary
