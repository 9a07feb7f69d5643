#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# run-qos.sh - `rperf run` with one agent per host: the RPerf paper's mixed
# traffic experiment (§VIII) in the lab, one boot:
#   rxe-lab run --hosts 5 tests/lab/suites/run-qos.sh
# h1 is the destination, h2 runs the LSG, h3..h5 one BSG each; everything
# goes to h1 through the switch port h1-sw, shaped to 4 Mb/s:
#  - shared FIFO (tbf), 0..3 BSGs (the job's `count`): the median RTT of a
#    poisson-scheduled LSG must grow with each BSG by Equation 2's W / R
#    (W = one BSG's bytes in flight on the wire, headers included; R = 4 Mb/s);
#  - strict priority (the LSG's traffic class 96 = TOS 0x60 in a lane of its
#    own): with 3 BSGs the LSG median stays within 2x its no-BSG value, while
#    the BSGs keep >= 90 % of their FIFO bandwidth.
# Ends with "N passed, M failed"; the tables checked are INFO lines.
#
# Lab settings, each from a measurement (rperf lat + rperf bw -e flows in
# this topology, then rperf run: about 20 boots; tests/lab/README.md):
#  - Only the LSG busy-polls: BSGs and sinks wait for completion events (more
#    busy pollers than the 2 vCPUs quantize latency to the 8 ms tick). Lab
#    packet processing is steered to CPU 0 (RPS) and the LSG pinned to CPU 1,
#    as in lat.sh.
#  - A BSG keeps W = tx_depth 8 x 512 B in flight (8 packets, 4720 bytes on
#    the wire): 3 x W queue for 28 ms at 4 Mb/s, below the RC ACK timeout of
#    67 ms (qp_timeout 14); qp_timeout 18 (1.07 s) all the same, so that a
#    slow VM never retransmits on queueing delay. Many small messages rather
#    than 2 x 2 KiB: a BSG whose completion event comes late (the VM's
#    scheduler, up to a tick) still has 7 messages queued, where with 2 x 2 KiB
#    the queue ran dry and the 1-BSG step came out at 0.50-0.99 x W/R (4 x
#    1 KiB: 0.75 x); with 8 x 512 B 0.97 x.
#  - The BSGs use RDMA WRITE: the destination's CPU then does nothing per
#    message (no receive completions to wait for, nothing to refill). Each
#    BSG message costs the VM's CPU time, and in the priority lane that CPU
#    time, not the switch, is what the LSG's 40-90 us RTT grows by: with SEND
#    the lane's median rose 2.3-2.4x, with WRITE 1.7-2.0x while a second VM
#    shared the 2 host cores; with WRITE and no other VM 1.17-1.65x.
#  - The LSG sends 2 B messages (60 B frames), the smallest share of the port
#    per sample; paced when the job file can (see lsg_rate_probe).
#  - The lane sits under a tbf shaper, not htb (lab_prio): behind htb the lane
#    packet waited for the token debt of the BSG packet sent before it (LSG
#    p50 1.1-3.1 ms instead of 0.1 ms); tbf sends it as soon as the bucket
#    holds its own 60 bytes.
#  - No delay on the LSG's path: a netem delay next to the busy-polling LSG
#    made its RTT bimodal at the scheduler tick (p50 1.5-5.6 ms for 1 ms).
. /usr/lib/rperf-lab/lab-lib.sh
OUT=${LAB_OUT:-/tmp}
RATE_BPS=4000000              # the shaped port h1-sw, bits/s
BSG_SIZE=512 BSG_DEPTH=8 MTU=1024 BSG_VERB=write
LSG_SIZE=2 LSG_TCLASS=96
LSG_RATE=500 LSG_PACED=''     # samples/s, when the job file takes [lsg] rate
# The FIFO series samples on an open poisson schedule (issue 20), not the
# paced closed loop: a closed loop takes 5-50x more samples per second while
# the queue is empty (0.2 ms RTTs) than while it holds the BSGs' windows
# (9-28 ms), so an unloaded 10-20 % of its window (the agents' start skew
# under TCG, a BSG stalled by the busy host) became most of its samples and
# its median: CI saw a 2-BSG median of 0.275 ms (421 samples) and a 1-BSG
# one of 1.07 ms, between runs of 8.9 and 18.5 ms. Poisson samples see time
# averages: the same gap moves the median by its share of the time only.
FIFO_SCHED=poisson:500        # the lane runs keep the paced closed loop
DURATION=3s WARMUP=1s
# The BSGs start 250 ms after the LSG, so that their load (warm-up +
# duration from their own start) outlasts the LSG's measured window (after
# its warm-up) by 250 ms: the agents start at the same instant only to within
# tens of ms under TCG, and an LSG that outlives the load takes a burst of
# fast samples at the end (a paced LSG catches up on its schedule): once the
# 1-BSG median came out at 0.09 ms instead of 9.2 ms, from 360 of 683 samples
# taken after the BSG had stopped. The LSG's warm-up (1 s) covers the start.
BSG_START=250ms
RPS=1 BSG_CPU=''               # RPS=1: lab packet processing on CPU 0; BSG hosts' cpu
T=60                          # a run's timeout (timeout(1)), seconds
# NAME=VALUE arguments override the settings above (for experiments), e.g.
#   rxe-lab run --hosts 5 run-qos.sh BSG_SIZE=1024 BSG_DEPTH=4
for a in "$@"; do
	case ${a%%=*} in
	BSG_SIZE | BSG_DEPTH | BSG_VERB | BSG_START | LSG_SIZE | LSG_RATE | FIFO_SCHED | DURATION | WARMUP | RPS | BSG_CPU) declare "$a" ;;
	*) echo "run-qos.sh: unknown argument '$a'"; exit 2 ;;
	esac
done

# --------------------------------------------------------------- jobs
# job_write FILE NBSG [SCHEDULE]: the experiment with the first NBSG of
# h3,h4,h5; the LSG on SCHEDULE, else paced by [lsg] rate
job_write() {
	local f=$1 n=$2 sched=${3:-} i
	{
		printf '; run-qos.sh: 1 LSG (h2) + %s BSGs (h3..h5) -> h1\n' "$n"
		printf '[global]\nduration = %s\nwarmup = %s\ntimeout = 10s\nsink_completion = event\n' \
			"$DURATION" "$WARMUP"
		for i in 1 2 3 4 5; do
			printf '[host h%s]\ncontrol = 10.77.0.%s\ndevice = rxe_h%s\ngid_index = %s\n' \
				"$i" "$i" "$i" "$(lab_host_gid "h$i")"
			case $i in 1) echo "cpu = 0" ;; 2) echo "cpu = 1" ;; *) [ -n "$BSG_CPU" ] && echo "cpu = $BSG_CPU" ;; esac
		done
		printf '[lsg probe]\nfrom = h2\nto = h1\nsize = %s\ntclass = %s\n' "$LSG_SIZE" "$LSG_TCLASS"
		# [lsg] rate is in bits/s of its wire SENDs: size x 8 x samples/s
		if [ -n "$sched" ]; then
			# an open schedule posts pairs concurrently (sequential
			# pair order times each alone): the default order
			printf 'schedule = %s\nqp_timeout = 18\n' "$sched"
		else
			echo "pair_order = sequential"
			[ -n "$LSG_PACED" ] && printf 'rate = %s\n' $((LSG_SIZE * 8 * LSG_RATE))
		fi
		printf '[bsg load]\nfrom = h3, h4, h5\ncount = %s\nto = h1\nverb = %s\n' "$n" "$BSG_VERB"
		printf 'size = %s\ntx_depth = %s\ncq_mod = 1\nmtu = %s\nqp_timeout = 18\ncompletion = event\n' \
			"$BSG_SIZE" "$BSG_DEPTH" "$MTU"
		printf 'start = %s\n' "$BSG_START"
	} > "$f"
}

# run_job TAG NBSG [SCHEDULE]: runs the job; sets J (JSON), P50 (LSG, ns),
# TX/RX (sum of the BSGs' Gb/s sent/received), NB (BSG results), PORT_BYTES
# (h1-sw)
run_job() {
	local tag=$1 n=$2 job=$OUT/qos-$1.ini rc t b0 b1 el
	J=$OUT/qos-$tag.json
	rm -f "$J"
	job_write "$job" "$n" "${3:-}"
	b0=$(lab_port_tx h1 bytes)
	t=$EPOCHREALTIME
	timeout "$T" rperf run --key-file "$LAB_KEY" "$job" --out_json_file "$J" > "$OUT/qos-$tag.txt" 2>&1
	rc=$?
	el=$(lab_since "$t")
	b1=$(lab_port_tx h1 bytes)
	sed 's/^/  [run] /' "$OUT/qos-$tag.txt"
	echo "  -> rperf run ($tag, $n BSGs): status $rc, $el s, h1-sw sent $((b1 - b0)) bytes"
	[ "$rc" = 0 ] || { echo "GOT rperf run status $rc ($tag)"; return 1; }
	P50=$(jq -r '[.generators[] | select(.kind == "lsg")][0].rtt_ns.p50 // empty' "$J")
	TX=$(jq -r '[.generators[] | select(.kind == "bsg") | .gbps] | add // 0' "$J")
	RX=$(jq -r '[.generators[] | select(.kind == "bsg") | .receiver_gbps] | add // 0' "$J")
	NB=$(jq -r '[.generators[] | select(.kind == "bsg")] | length' "$J")
	PORT_BYTES=$((b1 - b0))
	echo "INFO $tag: LSG p50 ${P50:-?} ns, $NB BSG results, BSG Gb/s sent $TX received $RX, $(jq -c '[.generators[] | {name, host, kind, p50: .rtt_ns.p50, samples: (.samples // .rtt_ns.samples), gbps, receiver_gbps}]' "$J")"
	case $P50 in '' | null | *[!0-9]*) echo "GOT no LSG median in $J"; return 1 ;; esac
	[ "$NB" = "$n" ] || { echo "GOT $NB BSG results, expected $n"; return 1; }
}

# Equation 2: one BSG's bytes in flight on the wire / rate, in ms. RoCEv2
# headers per packet: Ethernet 14 + IPv4 20 + UDP 8 + BTH 12 + ICRC 4 + FCS 4
# (tc's shaper counts all but the FCS: 0.4 % less); per message the first
# packet of a WRITE carries a RETH (16), write_imm's last an ImmDt (4) too.
eq2_ms() {
	local x=0
	case $BSG_VERB in write) x=16 ;; write_imm) x=20 ;; esac
	awk -v s="$BSG_SIZE" -v d="$BSG_DEPTH" -v m="$MTU" -v r="$RATE_BPS" -v x="$x" 'BEGIN {
		p = int((s + m - 1) / m); w = d * (s + p * 62 + x)
		printf "%.3f %d %d\n", w * 8 / r * 1000, w, d * p }'
}

# ------------------------------------------------------------- checks
switch_on_cpu0() {  # all lab packet processing on CPU 0 (RPS), as in lat.sh
	local d
	for d in /sys/class/net/h*/queues/rx-0/rps_cpus; do echo 1 > "$d"; done
	ip netns exec sw sh -c 'for d in /sys/class/net/h*/queues/rx-0/rps_cpus; do echo 1 > $d; done'
}
# tc_retry CMD...: tc set-up, retried once (a third-party step): says so
tc_retry() {
	"$@" && return 0
	echo "INFO tc set-up failed once ($*), retrying"
	sleep 0.5
	"$@"
}
# An unpaced closed-loop LSG in the lane takes what the BSGs lose: with rperf
# lat it ran 540-1800 samples/s of 60 B frames (3-21 % of the 4 Mb/s port),
# with rperf run and WRITE BSGs 12-70 % of the port (the BSGs kept 29-86 % of
# their FIFO bandwidth, 9 boots). On hardware its share is < 2 %. The job
# file's [lsg] rate (bits/s of its wire SENDs: size x 8 x samples/s) paces
# it; the probe below says so when an rperf lacks it. 500/s is 5.4-5.8 % of
# the port (the BSGs kept 94.4-95.6 %, lane median 0.5-1.1 x the no-BSG one,
# 3 boots); 200/s left the VM's CPUs idle long enough between samples that
# waking them made the median bimodal (0.1-2.3 ms, rperf lat --rate).
lsg_rate_probe() {
	printf '[host a]\ncontrol = 127.0.0.1:1\n[host b]\ncontrol = 127.0.0.1:2\n[lsg p]\nfrom = a\nto = b\nrate = %s\n' \
		"$LSG_RATE" > /tmp/lsg-rate.ini
	timeout 20 rperf run --key-file "$LAB_KEY" --timeout 1s /tmp/lsg-rate.ini > /tmp/lsg-rate.out 2>&1
	local rc=$?
	if [ "$rc" = 2 ] && grep -q rate /tmp/lsg-rate.out; then
		echo "INFO the job file has no [lsg] rate ($(head -c 200 /tmp/lsg-rate.out)): the LSG runs unpaced"
	else
		LSG_PACED=1
		echo "INFO [lsg] rate accepted (probe status $rc): the LSG is paced to $LSG_RATE samples/s (rate = $((LSG_SIZE * 8 * LSG_RATE)) bits/s)"
	fi
}
setup() {
	[ "$RPS" = 1 ] && switch_on_cpu0
	lsg_rate_probe
	lab_agents_start 5 || return 1
	echo "INFO rperf $(rperf --version 2>&1 | head -1); rxe MTU $(ibv_devinfo -d rxe_h1 | awk '/active_mtu/ { print $2 }')"
}

declare -A FP50 FTX FRX
fifo_runs() {
	local k
	tc_retry lab_fifo h1 4mbit || return 1
	echo "INFO h1-sw: $(tc -n sw qdisc show dev h1-sw)"
	for k in 0 1 2 3; do
		run_job "fifo$k" "$k" "$FIFO_SCHED" || return 1
		echo "INFO fifo$k: LSG schedule $(jq -c '[.generators[] | select(.kind == "lsg")][0] | {schedule, samples, open_schedule}' "$J")"
		FP50[$k]=$P50 FTX[$k]=$TX FRX[$k]=$RX
		if [ "$k" -gt 0 ]; then  # the BSGs crossed the switch: >= 1 s at 4 Mb/s
			lab_expect_ge "bytes h1-sw sent to h1 during the $k-BSG run" "$PORT_BYTES" 500000 || return 1
		fi
	done
	echo "INFO h1-sw after the FIFO runs: $(tc -n sw -s qdisc show dev h1-sw | tr '\n' ' ')"
}
# rx_col GBPS: the received column; a WRITE's sink has nothing to count
rx_col() { if [ "$BSG_VERB" = write ]; then echo "n/a (write)"; else printf '%.6f\n' "$1"; fi; }
# the table: BSGs, LSG p50, growth over the previous run, Equation 2
fifo_table() {
	local pred=$1 k g
	echo "INFO  BSGs  LSG_p50_ms  growth_ms  eq2_ms  growth/eq2   BSG_Gbps_sent  BSG_Gbps_received"
	for k in 0 1 2 3; do
		g=-
		[ "$k" -gt 0 ] && g=$(awk -v a="${FP50[$((k - 1))]}" -v b="${FP50[$k]}" 'BEGIN { printf "%.3f", (b - a) / 1e6 }')
		awk -v k="$k" -v p="${FP50[$k]}" -v g="$g" -v e="$pred" -v t="${FTX[$k]}" -v r="$(rx_col "${FRX[$k]}")" 'BEGIN {
			printf "INFO  %4d  %10.3f  %9s  %6s  %10s  %13.6f  %17s\n", k, p / 1e6, g,
				(k ? e : "-"), (k ? sprintf("%.3f", g / e) : "-"), t, r }'
	done
}
fifo_grows() {
	local k
	[ -n "${FP50[3]:-}" ] || { echo "GOT no FIFO results"; return 1; }
	# shellcheck disable=SC2046 # three numbers
	set -- $(eq2_ms)
	local pred=$1 w=$2 pk=$3
	fifo_table "$pred"
	lab_result "run_qos_fifo lsg_p50_ns=${FP50[0]},${FP50[1]},${FP50[2]},${FP50[3]} eq2_ms_per_bsg=$pred bsg_wire_bytes_in_flight=$w packets=$pk rate_bps=$RATE_BPS"
	for k in 1 2 3; do
		echo "EXPECT LSG p50 with $k BSGs > with $((k - 1))"
		echo "GOT ${FP50[$k]} ns vs ${FP50[$((k - 1))]} ns"
		[ "${FP50[$k]}" -gt "${FP50[$((k - 1))]}" ] || return 1
	done
}
# Growth per BSG vs Equation 2: the least-squares slope of the LSG median
# over 0..3 BSGs must be W / R within +-EQ2_TOL %, and each step within
# +-EQ2_STEP_TOL %. Chosen from what was measured in this set-up: with
# rperf run and 8 x 512 B per BSG every step came within -9 % .. +4 % of
# W / R and the slope within -2.4 % .. -1.4 % (6 boots); with 2 x 2 KiB per BSG
# and a second VM sharing the host's 2 cores single steps moved -50 % ..
# +26 % (a median of 100-300 samples shifts by a few ms when the VM stalls)
# while the slope stayed within -15 % .. +1 %. The growth falls short of W / R by the time a BSG's
# bytes are out of the queue (its ACK's way back, the completion event and
# the repost: 0.1-1 ms of VM time, up to 500 B of its 4.7 KB). +-15 % on the
# slope still fails a BSG that keeps half or twice its window in the queue,
# a queue that is not shared or a header miscount of 100 B per packet.
EQ2_TOL=15 EQ2_STEP_TOL=50
fifo_eq2() {
	local k g ok=0 slope lo hi
	[ -n "${FP50[3]:-}" ] || { echo "GOT no FIFO results"; return 1; }
	# shellcheck disable=SC2046 # three numbers
	set -- $(eq2_ms)
	local pred=$1
	fifo_table "$pred"
	for k in 1 2 3; do
		g=$(awk -v a="${FP50[$((k - 1))]}" -v b="${FP50[$k]}" 'BEGIN { printf "%.3f", (b - a) / 1e6 }')
		lab_expect_range "step $((k - 1)) -> $k BSGs (ms), W/R = $pred ms +-$EQ2_STEP_TOL %" "$g" \
			"$(awk -v p="$pred" -v t="$EQ2_STEP_TOL" 'BEGIN { print p * (1 - t / 100) }')" \
			"$(awk -v p="$pred" -v t="$EQ2_STEP_TOL" 'BEGIN { print p * (1 + t / 100) }')" || ok=1
	done
	slope=$(awk -v a="${FP50[0]}" -v b="${FP50[1]}" -v c="${FP50[2]}" -v d="${FP50[3]}" \
		'BEGIN { printf "%.3f", (-1.5 * a - 0.5 * b + 0.5 * c + 1.5 * d) / 5 / 1e6 }')
	lo=$(awk -v p="$pred" -v t="$EQ2_TOL" 'BEGIN { print p * (1 - t / 100) }')
	hi=$(awk -v p="$pred" -v t="$EQ2_TOL" 'BEGIN { print p * (1 + t / 100) }')
	lab_result "run_qos_eq2 growth_ms_per_bsg_slope=$slope eq2_ms=$pred ratio=$(awk -v m="$slope" -v p="$pred" 'BEGIN { printf "%.3f", m / p }') tolerance_pct=$EQ2_TOL"
	lab_expect_range "growth per BSG, least-squares slope over 0..3 BSGs (ms), W/R = $pred ms +-$EQ2_TOL %" "$slope" "$lo" "$hi" || ok=1
	return "$ok"
}

# The FIFO series, run again once when its Equation 2 checks miss: on a busy
# host the emulated VM can stall long enough to empty a BSG's queue for
# most of a short run (a 1-BSG step of 2.5 ms instead of 9.4 ms was seen
# once in CI). The checks below keep their tolerances and judge the last
# series; every attempt's table is printed.
fifo_series() {
	local a
	for a in 1 2; do
		fifo_runs || return 1
		if { fifo_grows && fifo_eq2; } > "/tmp/fifo-check.$a" 2>&1; then
			[ "$a" = 1 ] || cat "/tmp/fifo-check.$a"
			return 0
		fi
		cat "/tmp/fifo-check.$a"
		[ "$a" = 1 ] && echo "NOTE FIFO series attempt 1 missed Equation 2 (see above); running the series once more"
	done
	return 0 # the FIFO checks below judge the last series
}

# strict priority: a 2-band prio under one tbf; band 1 (the lane) takes the
# LSG's TOS (tclass 96 -> 0x60), band 2 the rest
prio_lane() {
	local p=h1-sw
	tc -n sw qdisc del dev "$p" root 2> /dev/null
	{
		echo "qdisc add dev $p root handle 1: tbf rate 4mbit burst 16kb limit 8mb"
		echo "qdisc add dev $p parent 1:1 handle 10: prio bands 2 priomap 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1"
		echo "qdisc add dev $p parent 10:1 handle 11: pfifo limit 10000"
		echo "qdisc add dev $p parent 10:2 handle 12: pfifo limit 10000"
		printf 'filter add dev %s parent 10: protocol ip prio 1 u32 match ip tos 0x%02x 0xfc flowid 10:1\n' \
			"$p" $((LSG_TCLASS & 0xfc))
	} | tc -n sw -batch -
}
PP50_0='' PP50_3='' PTX3='' PRX3='' LANE_SHARE=''
band_bytes() {  # band_bytes BAND: bytes sent by that band of h1-sw's prio
	tc -n sw -s class show dev h1-sw | awk -v b="10:$1" '
		$1 == "class" && $2 == "prio" { f = ($3 == b) }
		$1 == "Sent" && f { print $2; exit }'
}
prio_runs() {
	local a b a1 a2 b1 b2 s
	tc_retry prio_lane || return 1
	echo "INFO h1-sw: $(tc -n sw qdisc show dev h1-sw | tr '\n' ' ')"
	run_job prio0 0 || return 1
	PP50_0=$P50
	a=$(lab_prio_stats h1)
	local l0 l1
	l0=$(band_bytes 1)
	run_job prio3 3 || return 1
	PP50_3=$P50 PTX3=$TX PRX3=$RX
	b=$(lab_prio_stats h1)
	l1=$(band_bytes 1)
	LANE_SHARE=$(awk -v a="$l0" -v b="$l1" -v t="$PORT_BYTES" 'BEGIN { if (t > 0) printf "%.3f", (b - a) / t; else print "?" }')
	echo "INFO the LSG's share of what h1-sw sent in the 3-BSG run: $LANE_SHARE ($((l1 - l0)) of $PORT_BYTES bytes; $([ -n "$LSG_PACED" ] && echo "paced at $LSG_RATE samples/s" || echo unpaced))"
	a1=$(lab_field "$a" band1_pkts) a2=$(lab_field "$a" band2_pkts)
	b1=$(lab_field "$b" band1_pkts) b2=$(lab_field "$b" band2_pkts)
	s=$(jq -r '[.generators[] | select(.kind == "lsg")][0] | .samples // .rtt_ns.samples // 0' "$J")
	echo "INFO lane (band 1) +$((b1 - a1)) packets, FIFO band (band 2) +$((b2 - a2)) packets in the 3-BSG run; $(lab_prio_stats h1)"
	lab_result "run_qos_prio_bands lane_pkts=$((b1 - a1)) fifo_pkts=$((b2 - a2)) lsg_samples=$s"
	# the LSG's SENDs are in the lane (>= one per sample), the BSGs' in band 2
	lab_expect_ge "lane packets in the 3-BSG run (LSG samples $s)" "$((b1 - a1))" "$s" &&
		lab_expect_ge "FIFO-band packets in the 3-BSG run (>= 1 s of 4 Mb/s)" "$((b2 - a2))" 450
}
# the JSON's per-class aggregates of the 3-BSG lane run: tclass 96 holds the
# LSG (same median), tclass 0 the 3 BSGs (their Gb/s summed)
prio_classes() {
	local j=$OUT/qos-prio3.json
	[ -s "$j" ] || { echo "GOT no $j"; return 1; }
	echo "INFO classes: $(jq -c '[.classes[] | {name, tclass, lsg_count, bsg_count, p50: .rtt_ns.p50, gbps}]' "$j")"
	echo "EXPECT tclass $LSG_TCLASS: 1 LSG, p50 = the LSG's ($PP50_3); tclass 0: 3 BSGs, Gb/s = their sum ($PTX3)"
	echo "GOT $(jq -c '[.classes[] | [.tclass, .lsg_count, .bsg_count, .rtt_ns.p50, .gbps]]' "$j")"
	jq -e --argjson t "$LSG_TCLASS" --argjson p "$PP50_3" --argjson g "$PTX3" '
		(.classes | length) == 2 and
		any(.classes[]; .tclass == $t and .lsg_count == 1 and .bsg_count == 0 and .rtt_ns.p50 == $p) and
		any(.classes[]; .tclass == 0 and .lsg_count == 0 and .bsg_count == 3 and
			((.gbps - $g) | fabs) <= 1e-6 * $g)' "$j" > /dev/null
}
prio_table() {
	echo "INFO  case              LSG_p50_ms  BSG_Gbps_sent  BSG_Gbps_received"
	awk -v a="${FP50[0]}" -v b="${FP50[3]}" -v c="$PP50_0" -v d="$PP50_3" \
		-v t3="${FTX[3]}" -v r3="$(rx_col "${FRX[3]}")" -v pt="$PTX3" -v pr="$(rx_col "$PRX3")" 'BEGIN {
		printf "INFO  FIFO, 0 BSGs     %10.3f  %13s  %17s\n", a / 1e6, "-", "-"
		printf "INFO  FIFO, 3 BSGs     %10.3f  %13.6f  %17s\n", b / 1e6, t3, r3
		printf "INFO  lane, 0 BSGs     %10.3f  %13s  %17s\n", c / 1e6, "-", "-"
		printf "INFO  lane, 3 BSGs     %10.3f  %13.6f  %17s\n", d / 1e6, pt, pr }'
}
# The lane protects the LSG: its median with 3 BSGs may exceed the lane's
# no-BSG median (same boot) by at most half of one BSG's queueing, W/R / 2
# (4.7 ms), where the shared FIFO adds 3 x W/R (28 ms). Strict priority
# leaves the LSG behind at most the one BSG frame in service (1 KiB MTU:
# 1.1 KB at 4 Mb/s = 2.2 ms, the worst case of a single sample). Measured
# growth: -0.15 .. +0.13 ms quiet (lane ratios 0.51-1.65 x of 0.04-0.30 ms
# medians in 9 boots, and the issue's 0.080 -> 0.210 ms that failed the old
# "<= 2 x" ratio), at most +1.1 ms with a second VM on the host (ratios
# 1.8-4.6 x of 0.1-0.3 ms): the bound is 3.6 ms above any growth seen and
# 6 x below a lane that does not protect. The rounds of issue 25 measured
# -0.045 .. +0.016 ms (and passed with a busy loop beside the VM too; their
# figures: tests/lab/README.md).
prio_rtt() {
	[ -n "$PP50_3" ] || { echo "GOT no priority results"; return 1; }
	prio_table
	local r g lim pred
	pred=$(eq2_ms | awk '{ print $1 }')
	r=$(awk -v a="$PP50_0" -v b="$PP50_3" 'BEGIN { printf "%.3f", b / a }')
	g=$(awk -v a="$PP50_0" -v b="$PP50_3" 'BEGIN { printf "%.3f", (b - a) / 1e6 }')
	lim=$(awk -v p="$pred" 'BEGIN { printf "%.3f", p / 2 }')
	lab_result "run_qos_prio lsg_p50_ns no_bsg=$PP50_0 3_bsg=$PP50_3 ratio=$r growth_ms=$g limit_ms=$lim fifo_3_bsg=${FP50[3]:-?}"
	lab_expect_range "LSG p50 growth, 0 -> 3 BSGs in the priority lane (ms; FIFO: 3 x W/R = $(awk -v p="$pred" 'BEGIN { print 3 * p }') ms)" "$g" -"$lim" "$lim"
}
# BSG bandwidth: what the sources sent (an RDMA WRITE has no receive
# completion to count at the destination; RC delivers every byte in order,
# and the h1-sw counters are printed next to it)
prio_bw() {
	[ -n "$PP50_3" ] && [ -n "${FTX[3]:-}" ] || { echo "GOT no priority or FIFO results"; return 1; }
	prio_table
	local r
	r=$(awk -v a="${FTX[3]}" -v b="$PTX3" 'BEGIN { if (a > 0) printf "%.3f", b / a; else print 0 }')
	lab_result "run_qos_bsg_share sent_gbps fifo_3=${FTX[3]} lane_3=$PTX3 ratio=$r lsg_share_of_port=$LANE_SHARE lsg_paced=${LSG_PACED:-no}"
	[ -n "$LSG_PACED" ] || echo "INFO the LSG ran unpaced (this rperf's job file has no [lsg] rate): it took $LANE_SHARE of the port in the lane"
	# What the lane may cost the BSGs is the paced LSG's share of the port
	# (5.4-5.8 %, measured in this run as LANE_SHARE); the ratio measured
	# 0.944-0.956 quiet (0.953 in each round of issue 25) and 0.89 once with
	# a second VM on the host. The
	# bound is 1 - the LSG's share - 0.15: 0.05-0.06 below the lowest ratio
	# seen, while a lane that starves the BSGs (or a broken shaper) is far
	# below; 1.5 above (the lane cannot add port bandwidth).
	local lo
	lo=$(awk -v s="$LANE_SHARE" 'BEGIN { if (s + 0 > 0 && s + 0 < 1) printf "%.3f", 1 - s - 0.15; else print 0.75 }')
	lab_expect_range "BSG total Gb/s, priority / FIFO (3 BSGs), >= 1 - LSG share $LANE_SHARE - 0.15" "$r" "$lo" 1.5
}


if ! command -v rperf > /dev/null; then
	echo "skip: no rperf binary in this boot (build target rperf_bin)"
	exit 77
fi
if rperf run /dev/null 2>&1 | grep -q "not built yet"; then
	echo "skip: this rperf has no 'rperf run' yet"
	exit 77
fi
check "5 agents listening"                                        setup
check "FIFO h1-sw 4 Mb/s: 0..3 BSGs, runs exit 0, BSGs cross"    fifo_series
check "FIFO: LSG median RTT grows with each added BSG"           fifo_grows
check "FIFO: growth per BSG = Equation 2 (W / R)"                fifo_eq2
check "lane for tclass $LSG_TCLASS: LSG in band 1, BSGs in band 2" prio_runs
check "JSON classes: tclass $LSG_TCLASS = the LSG, tclass 0 = the BSGs"   prio_classes
check "lane: LSG median growth with 3 BSGs <= W/R / 2 (FIFO: 3 W/R)" prio_rtt
check "lane: BSG total >= FIFO 3-BSG total x (1 - LSG share - 0.15)" prio_bw
lab_agents_stop
lab_summary
