#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# fig13.sh - the RPerf paper's Fig 13 ("pretend LSG", Section VIII-C) from
# examples/fig13-pretend-lsg.ini, in the lab, one boot:
#   rxe-lab run --hosts 7 tests/lab/suites/fig13.sh
# sink = h1, probe = h2, the honest BSGs load1..4 = h3..h6 (tclass 0), the
# pretend LSG load5 = h7 (256 B WRITEs, batched, on the LSG's tclass 96);
# h1-sw shaped to 4 Mb/s with the lab's settings (examples/lab-sets.txt,
# plus the pretend's depth and timeout below), three switch policies:
#  - weighted classes, drr (lab_wrr h1 4mbit 96:1): the LSG class and the
#    rest get equal quanta, as an InfiniBand VL arbitration table of equal
#    weights for VL1 and VL0 (or RoCE ETS with equal shares): the pretend
#    LSG alone in its class takes 1/2 of the port, each of the 4 honest
#    BSGs 1/8: a factor of 4 expected from the weights;
#  - the same with Linux ets (bands without strict ones);
#  - strict priority (tbf + prio, as run-qos.sh's lane): nothing limits the
#    lane, the honest BSGs get what the pretend leaves.
# Each prints the pretend's Gb/s, the honest BSGs' (mean, min, max), the
# factor pretend / mean honest and the paper's: 21.5 Gb/s against 6.7 to
# 7 Gb/s each ("three times higher bandwidth share"), 3.07 to 3.21.
# Checks: with weights the pretend takes more than an honest BSG (factor
# >= 1.5; the factor against the weights' 4.0 is printed: how faithful the
# helper is under emulation, where a source's own window and completion
# events can limit it before the switch does); strict priority gives a
# larger factor than drr. Measured with 128 x 256 B in flight: drr 3.49
# (pretend share 0.466, the classes' wire bytes 1:1), ets 3.49, strict
# priority 435.6; with 32 x 256 B (window-limited): 2.01, 2.20, 2.58.
. /usr/lib/rperf-lab/lab-lib.sh
OUT=${LAB_OUT:-/tmp}
EX=/usr/share/rperf/examples
lab_example_sets
SETS=("${LAB_SETS[@]}")
# the pretend LSG in the lab: 128 x 256 B in flight (32 KiB, 64 ms at
# 4 Mb/s), lists of 16, completion events, the BSGs' timeout and MTU. With
# 32 x 256 B (8 KiB) it was limited by its own window under emulation, not
# by the switch: 1.2 Mb/s of a 4 Mb/s port even with strict priority, and
# its drr class sent 674 kB against the other's 1161 kB (factor 2.0)
SETS+=(--set bsg.pretend.tx_depth=128 --set bsg.pretend.post_list=16
	--set bsg.pretend.cq_mod=16 --set bsg.pretend.verb=write
	--set bsg.pretend.completion=event --set bsg.pretend.qp_timeout=18
	--set bsg.pretend.mtu=1024 --set bsg.pretend.start=250ms)
T=120
PAPER="21.5 Gb/s vs 6.7-7 Gb/s each: factor 3.07-3.21"

setup() {
	local d
	[ -r "$EX/fig13-pretend-lsg.ini" ] && [ -r "$EX/lab-hosts.ini" ] ||
		{ echo "GOT no examples in the image ($EX)"; return 1; }
	for d in /sys/class/net/h*/queues/rx-0/rps_cpus; do echo 1 > "$d"; done
	ip netns exec sw sh -c 'for d in /sys/class/net/h*/queues/rx-0/rps_cpus; do echo 1 > $d; done'
	lab_agents_start 7
}

# fig13 TAG: the experiment into $OUT/TAG.json; prints the shares, sets
# FACTOR (pretend / mean honest)
FACTOR=''
fig13() {
	local tag=$1 rc line
	FACTOR=''
	echo "INFO h1-sw: $(tc -n sw qdisc show dev h1-sw | tr '\n' ' ')"
	timeout "$T" rperf run --key-file "$LAB_KEY" --hosts-map "$EX/lab-hosts.ini" "${SETS[@]}" \
		--out_json_file "$OUT/$tag.json" "$EX/fig13-pretend-lsg.ini" > "$OUT/$tag.txt" 2>&1
	rc=$?
	[ "$rc" = 0 ] || { tail -n 20 "$OUT/$tag.txt"; echo "GOT status $rc"; return 1; }
	line=$(jq -r '[.generators[] | select(.kind == "bsg")] as $b |
		($b | map(select(.name == "pretend")) | .[0].gbps) as $p |
		($b | map(select(.name == "load") | .gbps)) as $h |
		($h | add / length) as $m |
		"pretend_gbps=\($p) honest_gbps_mean=\($m) honest_min=\($h | min) honest_max=\($h | max) honest_n=\($h | length) pretend_share=\($p / ($p + ($h | add))) factor=\($p / $m)"' "$OUT/$tag.json")
	FACTOR=$(printf '%s\n' "$line" | sed -n 's/.*factor=\([0-9.e+-]*\).*/\1/p')
	lab_result "fig13_$tag $line paper=\"$PAPER\""
	[ -n "$FACTOR" ]
}

W_FACTOR='' E_FACTOR='' S_FACTOR=''
weighted_drr() {
	lab_wrr h1 4mbit 96:1 || return 1
	fig13 drr || return 1
	W_FACTOR=$FACTOR
	echo "INFO class bytes: lane $(lab_wrr_bytes h1 1), rest $(lab_wrr_bytes h1 2)"
	echo "INFO paper: $PAPER; weights 1:1 predict 4.0 (1/2 against 1/8 each)"
	lab_expect_ge "pretend / mean honest BSG Gb/s (drr 1:1; the weights predict 4.0)" "$W_FACTOR" 1.5
}
weighted_ets() {
	lab_wrr h1 4mbit --ets 96:1 || return 1
	fig13 ets || return 1
	E_FACTOR=$FACTOR
	echo "INFO paper: $PAPER; weights 1:1 predict 4.0"
	lab_expect_ge "pretend / mean honest BSG Gb/s (ets 1:1; the weights predict 4.0)" "$E_FACTOR" 1.5
}
strict() {
	lab_prio h1 --rate 4mbit 96 || return 1
	fig13 prio || return 1
	S_FACTOR=$FACTOR
	echo "INFO paper: $PAPER; drr gave $W_FACTOR"
	lab_expect_ge "pretend / mean honest under strict priority, above drr's $W_FACTOR" \
		"$(awk -v s="$S_FACTOR" -v w="${W_FACTOR:-0}" 'BEGIN { print s - w }')" 0.000001
}

check "7 agents, the examples in the image"                      setup
check "Fig 13 with weights (drr 1:1): pretend takes more"         weighted_drr
check "Fig 13 with weights (ets 1:1): pretend takes more"         weighted_ets
check "Fig 13 with strict priority: pretend takes more"           strict
lab_agents_stop
lab_summary
