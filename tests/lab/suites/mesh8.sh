#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# mesh8.sh - the port-pair latency matrix of the lab switch (issue 21):
#   rxe-lab run --hosts 8 tests/lab/suites/mesh8.sh
# One [mesh] over h1..h8 (rounds: 7 rounds of 4 disjoint pairs, both
# directions of a pair together), run six times with known answers the
# suite injects on the switch (netns sw) and then checks against the
# report's localization (JSON mesh.suspects):
#   1-3. no fault (three runs): nothing named (no false positive);
#   4. netem delay D (random 200-600 us, printed) on one host's switch port
#      hX-sw (egress towards hX: every round trip from or to hX crosses it
#      once): exactly port hX named, added RTT from D - 15 % - 50 us up to
#      what the link delivers (pings beside the run) + 15 % + 50 us (see
#      one_port);
#   5. the same D on two ports: both named, nothing else;
#   6. D on one direction of one pair: a prio qdisc on hB-sw whose first
#      band (a netem) takes only RoCE v2 SENDs (BTH opcode 0..7) from hA's
#      address: the hA -> hB LSG's wire SENDs are late, hB -> hA's ACKs from
#      hA are not: pair hA -> hB named, no port.
# The one-port JSON is kept for the heatmap (mesh8-plot.sh).
# Prints the suite's time. The mesh's settings for emulation (TCG, 2 vCPUs
# for 8 hosts), from a lab run of this suite's first version (23:00, all 4
# pairs of a round at once, p50, 300 ms per pair):
#  - statistic = p10: a 449 us netem on a port moved the delayed cells' p50
#    to 3-48 ms (ping through it: avg +1.6 ms, min +0.58 ms): TCG fires
#    netem's timer late, for some packets by milliseconds; the low end of a
#    cell moves by about the delay (a single pair: p10 +0.56 ms);
#  - parallel = 2: with 4 pairs (8 LSGs) at once the delayed cells' p10
#    rose by 0.45-4.4 ms, a single pair's by 0.56 ms;
#  - out_above = 100us: without a fault, cells stood up to +61 us above a
#    28 us baseline (p50, 4 pairs at once): CPU contention, no fault;
#    with p10 and 2 pairs at once at most +22 us in 15 runs (5 boots).
# Pairs (issue 21's problem left: a boot named 3 extra pairs next to two
# slow ports): a pair behind a named port must stand above that port's
# added RTT, and a named pair is measured again alone and named only when
# out twice. 5 boots passed after the first rule (02:20-03:10), the last 4
# with both; in 2 of those the two-port run named a pair at first and not
# measured again: cells of 6-59 of 300 samples whose p10 stood out once
# (18-29 ms, or 1.9 ms between the two slow ports) and not the second time.
# Per pair 300 samples (samples = 300: 600 ms at the pace) after 100 ms of
# warm-up, the LSG paced at 256 kbit/s (500 samples/s offered) with event
# completions.
. /usr/lib/rperf-lab/lab-lib.sh
OUT=${LAB_OUT:-/tmp}
T0=$EPOCHREALTIME
D=$((200 + RANDOM % 401))
pick() { echo $((1 + RANDOM % 8)); }
X=$(pick)
Y=$(pick)
while [ "$Y" = "$X" ]; do Y=$(pick); done
A=$(pick)
B=$(pick)
while [ "$B" = "$A" ]; do B=$(pick); done

job_write() {
	local i
	{
		printf '; mesh8.sh: the switch of 8 lab hosts\n[global]\ntimeout = 20s\n'
		for i in 1 2 3 4 5 6 7 8; do
			printf '[host h%s]\ncontrol = 10.77.0.%s\ndevice = rxe_h%s\n' "$i" "$i" "$i"
		done
		printf '[mesh sw]\nhosts = all\nschedule = rounds\nsamples = 300\nwarmup = 100ms\n'
		printf 'size = 64\nrate = 256k\ncompletion = event\n'
		printf 'statistic = p10\nparallel = 2\nout_above = 100us\n'
	} > "$OUT/mesh8.ini"
}

setup() {
	echo "INFO injected delay D = $D us; one port h$X, two ports h$X h$Y, pair h$A -> h$B"
	job_write
	lab_agents_start 8
}

# mesh NAME: one mesh run into $OUT/NAME.json / .txt; status 0 expected
mesh() {
	local rc t
	t=$EPOCHREALTIME
	timeout 200 rperf mesh --key-file "$LAB_KEY" --out_json_file "$OUT/$1.json" "$OUT/mesh8.ini" > "$OUT/$1.txt" 2>&1
	rc=$?
	sed -n '1,12p' "$OUT/$1.txt" | sed 's/^/  [mesh] /'
	sed -n '/^p50 RTT/,/^$/p' "$OUT/$1.txt" | sed 's/^/  [mesh] /'
	echo "INFO $1: status $rc in $(lab_since "$t") s; cells $(jq -c '[.mesh.localization.cells_measured, .mesh.localization.cells_failed]' "$OUT/$1.json" 2> /dev/null), pairs measured again $(jq '.mesh.localization.pairs_again' "$OUT/$1.json" 2> /dev/null), samples per cell $(jq -c '[.mesh.matrix[][] | select(. != null) | .samples] | [min, max]' "$OUT/$1.json" 2> /dev/null)"
	echo "GOT suspects $(jq -c '.mesh.suspects' "$OUT/$1.json" 2> /dev/null)"
	[ "$rc" = 0 ] || { echo "GOT status $rc (expected 0)"; return 1; }
}

# tc set-up, retried once (a third-party step under load): says so
tc_retry() {
	"$@" && return 0
	echo "INFO tc set-up failed once ($*), retrying"
	sleep 1
	"$@"
}

no_fault() {
	local k
	echo "EXPECT mesh.suspects == [] in each of 3 runs, all 56 cells measured"
	for k in 1 2 3; do
		mesh "mesh-clean$k" || return 1
		jq -e '(.mesh.suspects | length) == 0 and .mesh.localization.cells_measured == 56' "$OUT/mesh-clean$k.json" > /dev/null || return 1
	done
}

# p10 (us) of the RTTs in ping's output file $1, the statistic the mesh uses
p10_us() {
	sed -n 's|.* time=\([0-9.]*\) ms$|\1|p' "$1" | sort -n |
		awk '{ v[NR] = $1 } END { if (NR >= 100) printf "%d", v[int((NR + 9) / 10)] * 1000; else print "?" }'
}

# What the link delivered in this run, the same boot's reference: pings from
# h$O through the delayed port h$X and, at the same time, through an
# undelayed port h$Z (the same path but for the delay), every 20 ms while
# the mesh runs, so under the load rperf's probes put on the vCPUs; p10
# against p10, the mesh's statistic. Under TCG netem's timer fires late, by
# how much depends on how busy the vCPUs are: a ping-only reference taken
# before the run (40 pings' minimum, before and after setting the delay)
# came out from D - 36 us to D + 411 us against rperf's D + 93..180 us in 9
# boots (CI: D = 449 us, ping +413 us, rperf +589 us): two noisy
# measurements under different loads. The bounds: lo = D - (15 % + 50 us),
# netem never delivers early, so an rperf that loses part of the delay
# fails; hi = the larger of D and the reference + 15 % + 50 us, so an rperf
# that adds what the link did not fails. Both figures are printed.
one_port() {
	local lo hi O Z rise px pz pid_x pid_z
	O=$((X % 8 + 1)) # the next host after X, and the one after it: never X
	Z=$((O % 8 + 1))
	tc_retry lab_delay "h$X" "${D}us" || return 1
	ping -n -i 0.02 -I "10.77.0.$O" "10.77.0.$X" > "$OUT/ping-x.txt" 2> /dev/null &
	pid_x=$!
	ping -n -i 0.02 -I "10.77.0.$O" "10.77.0.$Z" > "$OUT/ping-z.txt" 2> /dev/null &
	pid_z=$!
	mesh mesh-port1
	local rc=$?
	kill -INT "$pid_x" "$pid_z"
	wait "$pid_x" "$pid_z"
	lab_delay_clear "h$X"
	[ "$rc" = 0 ] || return 1
	px=$(p10_us "$OUT/ping-x.txt")
	pz=$(p10_us "$OUT/ping-z.txt")
	echo "INFO ping p10 from h$O during the run: $px us to h$X, $pz us to h$Z ($(grep -c time= "$OUT/ping-x.txt") and $(grep -c time= "$OUT/ping-z.txt") pings): the link delivered +$((px - pz)) us for D = $D us"
	[ "$px" != "?" ] && [ "$pz" != "?" ] || { echo "GOT fewer than 100 pings' RTTs: no reference"; return 1; }
	rise=$(((px - pz) * 1000))
	local ref=$((rise > D * 1000 ? rise : D * 1000))
	lo=$((D * 1000 - D * 150 - 50000))
	hi=$((ref + ref * 15 / 100 + 50000))
	echo "EXPECT exactly [{kind port, host h$X}], added_ns in [$lo, $hi] (from the injected D = $D us - 15 % - 50 us to the larger of D and the link's delivered +$((rise / 1000)) us + 15 % + 50 us)"
	echo "GOT row h$X p10 (us): $(jq -c --argjson i $((X - 1)) '[.mesh.matrix[$i][] | if . == null then null else (.p10_ns / 1000 | floor) end]' "$OUT/mesh-port1.json")"
	local added
	added=$(jq '.mesh.suspects[0].added_ns // 0 | floor' "$OUT/mesh-port1.json")
	echo "GOT added $((added / 1000)) us: D + $((added / 1000 - D)) us, the link's delivered (ping) + $(((added - rise) / 1000)) us; netem's own lateness (ping): +$((rise / 1000 - D)) us"
	jq -e --arg h "h$X" --argjson lo "$lo" --argjson hi "$hi" \
		'(.mesh.suspects | length) == 1 and .mesh.suspects[0].kind == "port" and
		.mesh.suspects[0].host == $h and .mesh.suspects[0].added_ns >= $lo and
		.mesh.suspects[0].added_ns <= $hi' "$OUT/mesh-port1.json" > /dev/null
}

two_ports() {
	tc_retry lab_delay "h$X" "${D}us" || return 1
	tc_retry lab_delay "h$Y" "${D}us" || { lab_delay_clear "h$X"; return 1; }
	mesh mesh-port2
	local rc=$?
	lab_delay_clear "h$X"
	lab_delay_clear "h$Y"
	[ "$rc" = 0 ] || return 1
	echo "EXPECT ports h$X and h$Y named, nothing else"
	jq -e --arg x "h$X" --arg y "h$Y" \
		'([.mesh.suspects[] | select(.kind == "port") | .host] | sort) == ([$x, $y] | sort) and
		(.mesh.suspects | length) == 2' "$OUT/mesh-port2.json" > /dev/null
}

# D on hB-sw for RoCE v2 SENDs (UDP 4791, BTH opcode 0..7) from hA only
pair_delay() {
	local p="h$B-sw"
	tc -n sw qdisc del dev "$p" root 2> /dev/null
	{
		echo "qdisc add dev $p root handle 1: prio bands 3 priomap 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1"
		echo "qdisc add dev $p parent 1:1 handle 10: netem delay ${D}us limit 100000"
		echo "filter add dev $p parent 1: protocol ip prio 1 u32 match ip src 10.77.0.$A/32 match ip protocol 17 0xff match ip dport 4791 0xffff match u8 0x00 0xf8 at 28 flowid 1:1"
	} | tc -n sw -batch -
}

one_pair() {
	local hit
	tc_retry pair_delay || return 1
	mesh mesh-pair
	local rc=$?
	hit=$(tc -n sw -s class show dev "h$B-sw" | awk '$1 == "class" && $3 == "1:1" { c = 1 } c && $1 == "Sent" { print $4; exit }')
	echo "INFO packets through the delayed band of h$B-sw: ${hit:-?}"
	lab_port_reset "h$B"
	[ "$rc" = 0 ] || return 1
	echo "EXPECT exactly [{kind pair, from h$A, to h$B}], no port"
	jq -e --arg a "h$A" --arg b "h$B" \
		'(.mesh.suspects | length) == 1 and .mesh.suspects[0].kind == "pair" and
		.mesh.suspects[0].from == $a and .mesh.suspects[0].to == $b' "$OUT/mesh-pair.json" > /dev/null
}

# the heatmap's input (drawn on the host: gnuplot is not in the VM)
keep_for_plot() {
	cp "$OUT/mesh-port1.json" "$OUT/mesh.json"
	echo "EXPECT $OUT/mesh.json: an 8 x 8 matrix, null diagonal"
	jq -e '(.mesh.matrix | length) == 8 and all(.mesh.matrix | to_entries[]; .value[.key] == null)' "$OUT/mesh.json" > /dev/null
}

if ! command -v rperf > /dev/null; then
	echo "skip: no rperf binary in this boot (build target rperf_bin)"
	exit 77
fi
check "8 agents listening; D, the ports and the pair picked"  setup
check "no fault, 3 runs: no port, no pair named"              no_fault
check "netem D on port h$X: exactly that port, +netem's delay" one_port
check "netem D on ports h$X and h$Y: both named"              two_ports
check "D on h$A -> h$B only (tc filter): that pair, no port"  one_pair
check "the JSON for the heatmap is kept"                      keep_for_plot
lab_agents_stop
echo "INFO mesh8 suite time: $(lab_since "$T0") s"
lab_summary
