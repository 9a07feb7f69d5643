#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# run-verbs.sh - `rperf run` BSGs of the verbs rperf bw sends besides
# send/write/write_imm, h2 -> h1 across the switch, one boot, 2 hosts:
#   rxe-lab run --hosts 2 tests/lab/suites/run-verbs.sh
#  - verb = read (4 KiB): the source's READs are answered by h1's NIC: its
#    requests enter the bridge from h2, the data from h1 (at least the
#    bytes the instance reported); the destination has nothing to count
#    (receiver_gbps null, the READ note in text and JSON);
#  - verb = atomic (no size: 8 B, fetch_and_add): one request packet from
#    h2 and one answer from h1 per operation at least;
#  - verb = atomic with size = 64 is refused naming the key, exit 2, no
#    packet sent;
#  - inline = 64 (rperf bw -I): 64 B SENDs posted inline, each received;
#  - rdma_cm = 1 (rperf bw -R), 2 QPs each way: `rdma resource show cm_id`
#    lists rperf's connected ids mid-run, every SEND received;
#  - rx_depth = 1 (rperf bw -r) on a BSG of 4 KiB SENDs, 8 in flight: the
#    sink's one receive cannot take them, so h1's Soft-RoCE answers with
#    RNR NAKs (its hw_counters/send_rnr_err rises), and RC's retries still
#    deliver every SEND; an LSG with rx_depth = 4 beside it takes samples;
#    rx_depth = 65536, above what rxe_h1's queues take, is refused naming
#    the key and the device;
#  - burst_size (rperf bw --burst_size) = 16777216 at rate = 20M: the
#    token bucket starts that full, so the 2 s run is not paced (at least
#    3 x the rate), where the same BSG without it keeps the rate (at most
#    1.25 x);
#  - [host h2] hugepages = 2M: with no huge page free the run measures on
#    normal pages and says so (hosts[].buffers_note, a note: line); with
#    16 free, h2's agent takes some of them mid-run and says nothing;
#  - --live with a BSG and an LSG, interval 0.5 s: every row of the
#    report's intervals came on stdout during the run (same messages and
#    samples, in order), none skipped, the first >= 1.5 s before the
#    report;
#  - --sweep over sizes with --same-qps (a BSG 1K/4K/16K and an LSG
#    8/64/1024 B, zipped): 3 rounds of one experiment: every RC QP of
#    rperf seen during them (rdma resource show qp, every 0.4 s) is one of
#    the same set, each agent took one controller and logged rounds 2 and
#    3 "on the same QPs"; each round's BSG moved messages of its own size
#    (bytes = messages x size) and its sink counted that round's messages
#    only (received = sent), and its LSG took samples at its size;
#  - agents restarted with --stall-limit 2s: a BSG (qp_timeout 18: RC gives
#    up after ~34 s) whose sink's port drops everything from 2 s on ends
#    with "no completion for 2.0 s" (the agent's limit, not RC's nor the
#    default 5 s).
# Completion events on the sources (tests/lab/README.md: only a latency
# client may busy-poll in the lab). Ends with "N passed, M failed".
# shellcheck source=/dev/null
. /usr/lib/rperf-lab/lab-lib.sh
OUT=${LAB_OUT:-/tmp}
T=60

hosts_ini() {
	local i
	for i in 1 2; do
		printf '[host h%s]\ncontrol = 10.77.0.%s\ndevice = rxe_h%s\ngid_index = %s\n' \
			"$i" "$i" "$i" "$(lab_host_gid "h$i")"
	done
}
# job NAME BSG-KEYS: $OUT/NAME.ini, one BSG h2 -> h1 for 2 s
job() {
	{
		printf '[global]\nduration = 2s\nwarmup = 0.2s\n'
		hosts_ini
		printf '[bsg %s]\nfrom = h2\nto = h1\ncompletion = event\nqp_timeout = 18\nmtu = 1024\ntx_depth = 8\n%s' "$1" "$2"
	} > "$OUT/$1.ini"
}
# run_job NAME: rperf run -> $OUT/NAME.json; RC, and the bridge's packets
# and bytes from h2 (RX2, RB2) and from h1 (RX1, RB1) during it
run_job() {
	local a1 a2 c1 c2
	a1=$(lab_port_rx h1) a2=$(lab_port_rx h2)
	c1=$(lab_port_rx h1 bytes) c2=$(lab_port_rx h2 bytes)
	timeout "$T" rperf run --key-file "$LAB_KEY" --out_json_file "$OUT/$1.json" \
		"$OUT/$1.ini" > "/tmp/$1.out" 2> "/tmp/$1.err"
	RC=$?
	RX1=$(($(lab_port_rx h1) - a1)) RX2=$(($(lab_port_rx h2) - a2))
	RB1=$(($(lab_port_rx h1 bytes) - c1)) RB2=$(($(lab_port_rx h2 bytes) - c2))
	sed 's/^/  [out] /' "/tmp/$1.out" | tail -n 30
	sed 's/^/  [err] /' "/tmp/$1.err"
	echo "  -> rperf run $1: status $RC; bridge: from h2 $RX2 packets / $RB2 B, from h1 $RX1 packets / $RB1 B"
}
# run_ok NAME: run_job NAME, which must exit 0
run_ok() {
	run_job "$1"
	[ "$RC" = 0 ] || { echo "GOT rperf run status $RC"; return 1; }
}
# gen NAME FIELD: the first generator's FIELD in $OUT/NAME.json
gen() { jq -r ".generators[0].$2" "$OUT/$1.json"; }

setup() { lab_agents_start 2; }

read_bsg() {
	local m b g rg note
	job rd $'verb = read\nsize = 4K\n'
	run_ok rd || return 1
	m=$(gen rd messages) b=$(gen rd bytes) g=$(gen rd gbps)
	rg=$(gen rd receiver_gbps) note=$(gen rd receiver_note)
	lab_result "read messages=$m bytes=$b gbps=$g from_h2_pkts=$RX2 from_h1_bytes=$RB1"
	echo "EXPECT messages > 0, gbps > 0, receiver_gbps null with the READ note, >= messages packets from h2 (requests), >= bytes B from h1 (the data read), the note in the text"
	echo "GOT messages $m, gbps $g, receiver_gbps $rg, note '$note', $RX2 packets from h2, $RB1 B from h1"
	[ "$m" -gt 0 ] && lab_expect_ge "gbps" "$g" 0.000001 && [ "$rg" = null ] &&
		[ "$note" = "RDMA READ: the destination sees no completion, nothing to count" ] &&
		[ "$RX2" -ge "$m" ] && [ "$RB1" -ge "$b" ] &&
		grep -q "verb read: the destination sees no completion" "/tmp/rd.out"
}

atomic_bsg() {
	local m b
	job at $'verb = atomic\n'
	run_ok at || return 1
	m=$(gen at messages) b=$(gen at bytes)
	lab_result "atomic messages=$m bytes=$b size=$(gen at size) from_h2_pkts=$RX2 from_h1_pkts=$RX1"
	echo "EXPECT messages > 0 of 8 B (bytes = 8 x messages), >= messages packets from h2 and from h1 (request and answer each)"
	echo "GOT messages $m, bytes $b, $RX2 packets from h2, $RX1 from h1"
	[ "$m" -gt 0 ] && [ "$b" = $((8 * m)) ] && [ "$RX2" -ge "$m" ] && [ "$RX1" -ge "$m" ]
}

atomic_size_refused() {
	job as $'verb = atomic\nsize = 64\n'
	run_job as
	echo "EXPECT status 2, the error names size and the 8 B operand, < 20 packets from h2 (no BSG ran)"
	echo "GOT status $RC, $RX2 packets from h2: $(head -c 300 /tmp/as.err)"
	[ "$RC" = 2 ] && grep -q "size: 64 B with verb atomic, whose operand is 8 B" /tmp/as.err &&
		[ "$RX2" -lt 20 ]
}

# inline = 64 (rperf bw -I): 64 B SENDs posted inline; the destination
# counts every one
inline_bsg() {
	local m rm
	job il $'verb = send\nsize = 64\ninline = 64\nrate = 20M\n'
	run_ok il || return 1
	m=$(gen il messages) rm=$(gen il received_messages)
	lab_result "inline messages=$m received=$rm from_h2_pkts=$RX2"
	echo "EXPECT messages > 0, received = messages, >= messages packets from h2"
	echo "GOT messages $m, received $rm, $RX2 packets from h2"
	[ "$m" -gt 0 ] && [ "$rm" = "$m" ] && [ "$RX2" -ge "$m" ]
}

# rdma_cm = 1 (rperf bw -R), 2 QPs each way (h2 -> h1 and h1 -> h2: each
# agent accepts one instance and dials the other, in id order): mid-run
# the kernel lists the connected rdma_cm ids of rperf (both ends of the 4
# QPs), and each destination counts every SEND
rdma_cm_bsg() {
	local m rm m2 rm2 ids pid
	job cm $'verb = send\nsize = 4K\nqps = 2\nrdma_cm = 1\nrate = 40M\n'
	sed -i 's/^duration = 2s/duration = 3s/' "$OUT/cm.ini"
	printf '[bsg back]\nfrom = h1\nto = h2\ncompletion = event\nqp_timeout = 18\nmtu = 1024\ntx_depth = 8\nverb = send\nsize = 4K\nqps = 2\nrdma_cm = 1\nrate = 40M\n' >> "$OUT/cm.ini"
	(sleep 1.8; rdma resource show cm_id > /tmp/cm-ids.txt 2>&1) &
	pid=$!
	run_ok cm
	wait "$pid"
	sed 's/^/  [cm_id] /' /tmp/cm-ids.txt
	[ "$RC" = 0 ] || return 1
	ids=$(grep -c 'state CONNECT.*comm rperf' /tmp/cm-ids.txt)
	m=$(gen cm messages) rm=$(gen cm received_messages)
	m2=$(jq -r '.generators[1].messages' "$OUT/cm.json")
	rm2=$(jq -r '.generators[1].received_messages' "$OUT/cm.json")
	lab_result "rdma_cm messages=$m received=$rm back_messages=$m2 back_received=$rm2 connected_cm_ids=$ids"
	echo "EXPECT messages > 0 each way, received = messages each way, >= 8 connected rdma_cm ids of rperf mid-run (4 QPs, both ends)"
	echo "GOT h2->h1 $m sent, $rm received; h1->h2 $m2 sent, $rm2 received; $ids connected rdma_cm ids"
	[ "$m" -gt 0 ] && [ "$rm" = "$m" ] && [ "$m2" -gt 0 ] && [ "$rm2" = "$m2" ] && [ "$ids" -ge 8 ]
}

# the Soft-RoCE counter $2 of host $1 (hw_counters)
rnr() { cat "/sys/class/infiniband/rxe_$1/ports/1/hw_counters/$2" 2> /dev/null || echo 0; }

rx_depth_keys() {
	local m rm n0 n1 s
	job rx $'verb = send\nsize = 4K\nrx_depth = 1\n'
	printf '[lsg probe]\nfrom = h1\nto = h2\ncompletion = event\nrx_depth = 4\nrate = 256k\n' >> "$OUT/rx.ini"
	n0=$(rnr h1 send_rnr_err)
	run_ok rx || return 1
	n1=$(rnr h1 send_rnr_err)
	m=$(gen rx messages) rm=$(gen rx received_messages)
	s=$(jq -r '.generators[] | select(.name == "probe") | .samples' "$OUT/rx.json")
	lab_result "rx_depth messages=$m received=$rm rnr_naks=$((n1 - n0)) lsg_samples=$s"
	echo "EXPECT messages > 0, received = messages, RNR NAKs sent by h1 > 0 (1 receive posted, 8 SENDs in flight); the LSG (rx_depth 4) took samples"
	echo "GOT messages $m, received $rm, $((n1 - n0)) RNR NAKs from h1 (send_rnr_err $n0 -> $n1), LSG samples $s"
	[ "$m" -gt 0 ] && [ "$rm" = "$m" ] && [ $((n1 - n0)) -gt 0 ] && [ "$s" -gt 0 ] || return 1
	job rxbig $'verb = send\nsize = 4K\nrx_depth = 65536\n'
	run_job rxbig
	echo "EXPECT a non-zero status, stderr naming 'rx_depth: 65536 is above what rxe_h1 allows'"
	echo "GOT status $RC: $(head -c 300 /tmp/rxbig.err)"
	[ "$RC" != 0 ] && grep -q "rx_depth: 65536 is above what rxe_h1 allows" /tmp/rxbig.err
}

burst_size_bsg() {
	local g0 g1
	job bs0 $'verb = send\nsize = 4K\nrate = 20M\n'
	run_ok bs0 || return 1
	job bs1 $'verb = send\nsize = 4K\nrate = 20M\nburst_size = 16777216\n'
	run_ok bs1 || return 1
	g0=$(gen bs0 gbps) g1=$(gen bs1 gbps)
	lab_result "burst_size paced_gbps=$g0 full_bucket_gbps=$g1 rate_gbps=0.02"
	echo "EXPECT without burst_size at most 1.25 x 0.02 Gb/s; with a bucket of 16777216 messages at least 3 x 0.02 Gb/s"
	echo "GOT $g0 Gb/s, $g1 Gb/s"
	awk -v a="$g0" -v b="$g1" 'BEGIN { exit !(a > 0 && a <= 0.025 && b >= 0.06) }'
}

# HugePages_Free of the VM (every host's agent shares its kernel)
huge_free() { awk '/^HugePages_Free/ { print $2 }' /proc/meminfo; }

hugepages_host() {
	local note free0 mid hp pid
	echo 0 > /proc/sys/vm/nr_hugepages
	job hp0 $'verb = send\nsize = 4K\nrate = 20M\n'
	sed -i '/^\[host h2\]/a hugepages = 2M' "$OUT/hp0.ini"
	run_ok hp0 || return 1
	note=$(jq -r '.hosts[] | select(.name == "h2") | .buffers_note' "$OUT/hp0.json")
	echo "EXPECT no huge page free: exit 0, h2's buffers_note 'no free 2M huge pages ...: normal pages used', a note: line"
	echo "GOT '$note'; text: $(grep '^note: h2: buffers' /tmp/hp0.out)"
	case $note in "no free 2M huge pages"*) ;; *) return 1 ;; esac
	grep -q '^note: h2: buffers: no free 2M huge pages' /tmp/hp0.out || return 1
	echo 16 > /proc/sys/vm/nr_hugepages
	free0=$(huge_free)
	job hp1 $'verb = send\nsize = 4K\nrate = 20M\n'
	sed -i '/^\[host h2\]/a hugepages = 2M' "$OUT/hp1.ini"
	(sleep 1.5; huge_free > /tmp/hp-mid.txt) &
	pid=$!
	run_job hp1
	wait "$pid" # not every job: the agents are this shell's too
	mid=$(cat /tmp/hp-mid.txt)
	echo 0 > /proc/sys/vm/nr_hugepages
	note=$(jq -r '.hosts[] | select(.name == "h2") | .buffers_note' "$OUT/hp1.json")
	hp=$(jq -r '.hosts[] | select(.name == "h2") | .hugepages' "$OUT/hp1.json")
	lab_result "hugepages note_none_free='$(jq -r '.hosts[] | select(.name == "h2") | .buffers_note' "$OUT/hp0.json")' free_before=$free0 free_mid=$mid status=$RC"
	echo "EXPECT 16 free: exit 0, HugePages_Free below $free0 mid-run, h2's hugepages 2M, buffers_note null"
	echo "GOT status $RC, HugePages_Free $free0 -> $mid mid-run, hugepages $hp, buffers_note $note"
	[ "$RC" = 0 ] && [ -n "$mid" ] && [ "$mid" -lt "$free0" ] && [ "$hp" = 2M ] && [ "$note" = null ]
}

# --live (rperf bw --interval's live lines): a BSG (4 KiB SENDs, 20 Mb/s)
# and an LSG beside it, interval 0.5 s, a 3 s window; each stdout line
# stamped as it arrives. Every interval row of the report came live, the
# same figures (messages of the BSG, samples of the LSG, in order), none
# skipped, the first one long before the report
live_rows() {
	local tl tr bl bj ll lj d
	job live $'verb = send\nsize = 4K\nrate = 20M\ninterval = 0.5s\n'
	sed -i 's/^duration = 2s/duration = 3s/' "$OUT/live.ini"
	printf '[lsg probe]\nfrom = h2\nto = h1\nqp_timeout = 18\ninterval = 0.5s\n' >> "$OUT/live.ini"
	timeout "$T" rperf run --live --key-file "$LAB_KEY" --out_json_file "$OUT/live.json" \
		"$OUT/live.ini" 2> /tmp/live.err |
		while IFS= read -r l; do printf '%s %s\n' "$EPOCHREALTIME" "$l"; done > /tmp/live.out
	RC=${PIPESTATUS[0]}
	sed 's/^/  [out] /' /tmp/live.out | head -n 40
	sed 's/^/  [err] /' /tmp/live.err
	tl=$(awk '$2 == "live" { print $1; exit }' /tmp/live.out)
	tr=$(awk '$2 == "rperf" && $3 == "run" { print $1; exit }' /tmp/live.out)
	bl=$(grep ' live (h2 -> h1) bsg: ' /tmp/live.out | sed 's/.* \([0-9]*\) msgs$/\1/' | tr '\n' ' ')
	bj=$(jq -r '.generators[] | select(.name == "live") | .intervals[] | select(.messages != null) | .messages' "$OUT/live.json" | tr '\n' ' ')
	ll=$(grep ' probe (h2 -> h1) lsg: ' /tmp/live.out | sed 's/.* lsg: \([0-9]*\) samples.*/\1/' | tr '\n' ' ')
	lj=$(jq -r '.generators[] | select(.name == "probe") | .intervals[] | .samples' "$OUT/live.json" | tr '\n' ' ')
	d=$(awk -v a="$tl" -v b="$tr" 'BEGIN { if (a != "" && b != "") printf "%.3f", b - a }')
	lab_result "live status=$RC bsg_live='$bl' bsg_report='$bj' lsg_live='$ll' lsg_report='$lj' first_live=$tl report=$tr"
	echo "EXPECT status 0; the BSG's live messages = its report intervals' (>= 6 rows), the LSG's live samples = its report intervals' (>= 5 rows), no 'live: ... row(s)' skipped line, the first live line >= 1.5 s before the report"
	echo "GOT status $RC; BSG live [$bl] report [$bj]; LSG live [$ll] report [$lj]; first live line $d s before the report"
	[ "$RC" = 0 ] && [ -n "$tl" ] && [ -n "$tr" ] &&
		[ "$bl" = "$bj" ] && [ "$(wc -w <<< "$bl")" -ge 6 ] &&
		[ "$ll" = "$lj" ] && [ "$(wc -w <<< "$ll")" -ge 5 ] &&
		! grep -q ' live: [0-9]* row(s)' /tmp/live.out &&
		lab_expect_range "seconds from the first live line to the report" "$d" 1.5 60
}

# --same-qps: rperf's RC QPs (device/QPN) now, one per line
rc_qps() { rdma resource show qp 2> /dev/null | grep 'type RC' | grep 'comm rperf' | sed 's/^link \([^ ]*\) lqpn \([0-9]*\).*/\1:\2/'; }
same_qps() {
	local pid c0 c1 conns r2 r3 k bad="" all per
	job sq $'verb = send\nsize = 1K\nrate = 20M\n'
	sed -i 's/^duration = 2s/duration = 1s/' "$OUT/sq.ini"
	printf '[lsg probe]\nfrom = h2\nto = h1\nqp_timeout = 18\n' >> "$OUT/sq.ini"
	c0=$(cat /tmp/agent-h1.log /tmp/agent-h2.log | grep -c ': connected$')
	rm -f /tmp/sq-qps.txt
	(for k in $(seq 1 40); do rc_qps | tr '\n' ' ' >> /tmp/sq-qps.txt; echo >> /tmp/sq-qps.txt; sleep 0.4; done) &
	pid=$!
	timeout "$T" rperf run --key-file "$LAB_KEY" --out_json_file "$OUT/sq.json" \
		--sweep bsg.sq.size=1K,4K,16K --sweep lsg.probe.size=8,64,1024 --zip --same-qps \
		"$OUT/sq.ini" > /tmp/sq.out 2> /tmp/sq.err
	RC=$?
	kill "$pid" 2> /dev/null
	wait "$pid" 2> /dev/null
	sed 's/^/  [out] /' /tmp/sq.out | grep -E 'sweep|^  \[out\] (probe|sq) ' | head -n 20
	sed 's/^/  [err] /' /tmp/sq.err
	c1=$(cat /tmp/agent-h1.log /tmp/agent-h2.log | grep -c ': connected$')
	conns=$((c1 - c0))
	r2=$(grep -c 'round 2 of 3 on the same QPs' /tmp/agent-h1.log /tmp/agent-h2.log | awk -F: '{ s += $2 } END { print s + 0 }')
	r3=$(grep -c 'round 3 of 3 on the same QPs' /tmp/agent-h1.log /tmp/agent-h2.log | awk -F: '{ s += $2 } END { print s + 0 }')
	all=$(tr ' ' '\n' < /tmp/sq-qps.txt | grep . | sort -u | wc -l)
	per=$(awk '{ if (NF > m) m = NF } END { print m + 0 }' /tmp/sq-qps.txt)
	for k in 0 1 2; do
		jq -r --argjson k "$k" '.points[$k] | [.status, (.report.generators[] | select(.name == "sq") | .size, .messages, .bytes, .received_messages), (.report.generators[] | select(.name == "probe") | .size, .samples)] | @tsv' "$OUT/sq.json" > /tmp/sq-$k.tsv 2> /dev/null
		echo "INFO round $((k + 1)): status, BSG size, messages, bytes, received, LSG size, samples: $(tr '\t' ' ' < /tmp/sq-$k.tsv)"
		read -r st bs bm bb br ls lsmp < /tmp/sq-$k.tsv
		case $k in 0) want=(1024 8) ;; 1) want=(4096 64) ;; 2) want=(16384 1024) ;; esac
		[ "$st" = ok ] && [ "$bs" = "${want[0]}" ] && [ "$bm" -gt 0 ] && [ "$bb" = $((bm * bs)) ] &&
			[ "$br" = "$bm" ] && [ "$ls" = "${want[1]}" ] && [ "$lsmp" -gt 0 ] || bad="$bad $((k + 1))"
	done
	lab_result "same_qps status=$RC controllers=$conns round2=$r2 round3=$r3 distinct_rc_qps=$all max_at_once=$per bad_rounds='$bad'"
	echo "EXPECT status 0; 2 controller connections (one per agent); rounds 2 and 3 logged by both agents; every rperf RC QP seen is one of the set seen at once (>= 6: LSG 3 + its sink 1 + BSG 1 + its sink 1); per round: the BSG's size, bytes = messages x size, received = messages, the LSG's size, samples > 0"
	echo "GOT status $RC; $conns connections; round 2 x$r2, round 3 x$r3; $all distinct RC QPs, at most $per at once; rounds failing:${bad:- none}"
	[ "$RC" = 0 ] && [ "$conns" = 2 ] && [ "$r2" = 2 ] && [ "$r3" = 2 ] &&
		[ "$per" -ge 6 ] && [ "$all" = "$per" ] && [ -z "$bad" ]
}

# the agents' --stall-limit against a path that drops everything mid-run
stall_limit() {
	local t0 el err pid
	lab_agents_stop
	lab_agents_start 2 --stall-limit 2s || return 1
	echo "INFO $(grep -h 'limits per PLAN' /tmp/agent-h2.log | head -1)"
	job st $'verb = send\nsize = 4K\nrate = 40M\n'
	sed -i 's/^duration = 2s/duration = 20s/' "$OUT/st.ini"
	(sleep 2; tc -n sw qdisc replace dev h1-sw root netem loss 100%) &
	pid=$!
	t0=$EPOCHREALTIME
	run_job st
	el=$(lab_since "$t0")
	wait "$pid"
	lab_port_reset h1
	err=$( (jq -r '.generators[0].error // empty' "$OUT/st.json" 2> /dev/null; cat /tmp/st.out /tmp/st.err) | grep -o 'no completion for [0-9.]* s' | head -1)
	lab_result "stall_limit status=$RC seconds=$el error='$err'"
	echo "EXPECT a non-zero status, the BSG's error 'no completion for 2.0 s' (the agent's --stall-limit; RC's own would be ~34 s, the default 5.0 s)"
	echo "GOT status $RC after $el s, '$err'"
	[ "$RC" != 0 ] && [ "$err" = "no completion for 2.0 s" ]
}

check "2 agents listening (TLS, the lab key)"                   setup
check "verb = read: requests from h2, the data from h1"         read_bsg
check "verb = atomic: 8 B operations, request and answer each"  atomic_bsg
check "verb = atomic, size = 64: refused naming the key, exit 2" atomic_size_refused
check "inline = 64: 64 B SENDs inline, every one received"     inline_bsg
check "rdma_cm = 1, 2 QPs each way: connected through rdma_cm" rdma_cm_bsg
check "rx_depth = 1: RNR NAKs, every SEND delivered; 65536 refused" rx_depth_keys
check "burst_size = 16777216: the full bucket is not paced"  burst_size_bsg
check "hugepages = 2M: none free, a note; 16 free, taken mid-run" hugepages_host
check "--live: every interval row on stdout as it came, as reported" live_rows
check "--same-qps: 3 sizes as rounds on one set of QPs"         same_qps
check "agents' --stall-limit 2s: a dropped path ends the BSG in 2 s" stall_limit
lab_agents_stop
lab_summary
