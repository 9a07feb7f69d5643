#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# traffic.sh - the traffic shapes of issue 22 with `rperf run`, one boot:
#   rxe-lab run --hosts 5 tests/lab/suites/traffic.sh
#  - `stop`: a BSG started at 0.5 s and stopped at 2 s of a 3.5 s run ends
#    at its offset: its last completion (JSON end_ns, after the barrier)
#    within 50 ms of 2 s, and it ran 1.5 s (first post to last completion);
#  - `bytes` / `messages` with a size distribution: exactly the budget
#    reported, and the switch port carried at least that much payload;
#  - a two-key sweep (--sweep twice: the cartesian product) with --repeat;
#  - all-to-all (`to = *`) among h1..h4: every host receives from the 3
#    others (per-source counters on every switch egress port, each at least
#    the payload the instance reported);
#  - [incast]: 4 senders (h2..h5) burst 64 KiB each to h1's port, shaped
#    to 4 Mb/s (tbf, 4 KB bucket): every burst's completion (first post to
#    last byte) at least its wire bytes / 4 Mb/s (-15 %) and at most the
#    bytes the switch port carried beyond the other bursts' / 4 Mb/s
#    (+15 %): Soft-RoCE's retransmissions land in one burst.
# The BSGs use RDMA WRITE and completion events (tests/lab/README.md: only
# a latency client may busy-poll in the lab). And an on/off BSG (on = 250ms,
# off = 250ms): its host's tx counter sampled every 50 ms shows the
# periods, and it sends half a continuous BSG's bytes.
# Ends with "N passed, M failed".
# shellcheck source=/dev/null
. /usr/lib/rperf-lab/lab-lib.sh
OUT=${LAB_OUT:-/tmp}
T=90

hosts_ini() {
	local i
	for i in 1 2 3 4 5; do
		printf '[host h%s]\ncontrol = 10.77.0.%s\ndevice = rxe_h%s\ngid_index = %s\n' \
			"$i" "$i" "$i" "$(lab_host_gid "h$i")"
	done
}
# run_job NAME [rperf run args...]: rperf run "$OUT/NAME.ini" -> $OUT/NAME.json
run_job() {
	local n=$1 rc
	shift
	timeout "$T" rperf run --key-file "$LAB_KEY" "$@" --out_json_file "$OUT/$n.json" \
		"$OUT/$n.ini" > "/tmp/$n.out" 2> "/tmp/$n.err"
	rc=$?
	sed 's/^/  [out] /' "/tmp/$n.out" | tail -n 40
	sed 's/^/  [err] /' "/tmp/$n.err"
	return $rc
}
W=$'verb = write\ncompletion = event\nqp_timeout = 18\nmtu = 1024\n'

setup() { lab_agents_start 5; }

stop_at_offset() {
	local end secs
	{
		printf '[global]\nduration = 3s\nwarmup = 0.5s\n'
		hosts_ini
		printf "[bsg s]\nfrom = h2\nto = h1\nsize = 4K\ntx_depth = 4\nrate = 8M\nstart = 0.5s\nstop = 2s\n%s" "$W"
	} > "$OUT/stop.ini"
	run_job stop || return 1
	end=$(jq -r '.generators[0].end_ns' "$OUT/stop.json")
	secs=$(jq -r '.generators[0].seconds' "$OUT/stop.json")
	lab_result "stop end_ns=$end planned_ns=2000000000 seconds=$secs planned_s=1.5"
	lab_expect_range "last completion after GO (ms)" "$(awk -v e="$end" 'BEGIN { printf "%.1f", e / 1e6 }')" 1950 2050 || return 1
	lab_expect_range "first post to last completion (s; start 0.5 s, stop 2 s)" "$secs" 1.45 1.55
}

budgets() {
	local b m tx0 tx1
	{
		printf '[global]\nduration = 3s\nwarmup = 0.5s\n'
		hosts_ini
		printf "[bsg b]\nfrom = h2\nto = h1\nsize = 64:0.5,1K:0.4,4K:0.1\nbytes = 1000000\nqps = 2\ntx_depth = 8\n%s" "$W"
		printf "[bsg m]\nfrom = h3\nto = h1\nsize = 64:0.5,1K:0.4,4K:0.1\nmessages = 777\ntx_depth = 8\n%s" "$W"
	} > "$OUT/budget.ini"
	tx0=$(lab_port_tx h1 bytes)
	run_job budget || return 1
	tx1=$(lab_port_tx h1 bytes)
	b=$(jq -r '.generators[] | select(.name == "b") | .bytes' "$OUT/budget.json")
	m=$(jq -r '.generators[] | select(.name == "m") | .messages' "$OUT/budget.json")
	lab_result "budget bytes=$b messages=$m port_h1_tx_bytes=$((tx1 - tx0))"
	echo "EXPECT bytes = 1000000 exactly, messages = 777 exactly, h1's port sent >= 1000000 B"
	echo "GOT bytes = $b, messages = $m, h1's port sent $((tx1 - tx0)) B"
	[ "$b" = 1000000 ] && [ "$m" = 777 ] && [ $((tx1 - tx0)) -ge 1000000 ]
}

# two --sweep keys (2 x 2 points) x --repeat 3: 12 runs of 0.5 s
sweep_repeat() {
	local pts ok
	{
		printf '[global]\nduration = 0.5s\nwarmup = 0\n'
		hosts_ini
		printf "[bsg x]\nfrom = h2\nto = h1\nsize = 1K\ntx_depth = 4\nrate = 8M\n%s" "$W"
	} > "$OUT/sweep2.ini"
	run_job sweep2 --sweep bsg.x.size=1K,4K --sweep bsg.x.tx_depth=2,4 --repeat 3 || return 1
	pts=$(jq -c '[.points[] | {value, repeats, gbps: .stats.bsg_gbps.mean, ci95: .stats.bsg_gbps.ci95}]' "$OUT/sweep2.json")
	lab_result "sweep2 points=$pts"
	ok=$(jq -r '[.points[] | .values["bsg.x.size"] + "/" + .values["bsg.x.tx_depth"]] == ["1K/2", "1K/4", "4K/2", "4K/4"] and
		([.points[] | select(.repeats == 3 and .stats.bsg_gbps.n == 3 and .stats.bsg_gbps.ci95 != null
			and (.reports | length) == 3)] | length) == 4' "$OUT/sweep2.json")
	grep -q 'mean ± 95 % interval over 3 repeats' "/tmp/sweep2.out" || ok="$ok, no interval table"
	echo "EXPECT the 4 points of 1K,4K x 2,4 in order, each with 3 repeats and a 95 % interval (JSON and text)"
	echo "GOT $ok"
	[ "$ok" = true ]
}

# per-source counters on every switch egress port: clsact + one u32
# filter per source address (pref J = from hJ) with a counting action
src_counters_on() {
	local i j
	for i in 1 2 3 4; do
		{
			echo "qdisc replace dev h$i-sw clsact"
			for j in 1 2 3 4; do
				[ "$i" = "$j" ] && continue
				echo "filter add dev h$i-sw egress protocol ip pref $j u32 match ip src 10.77.0.$j/32 action pass"
			done
		} | tc -n sw -batch - || return 1
	done
}
# src_bytes I J: bytes the switch sent to hI that came from hJ
src_bytes() {
	tc -n sw -s filter show dev "h$1-sw" egress | awk -v j="$2" '
		/^filter/ { p = 0; for (k = 1; k < NF; k++) if ($k == "pref") p = $(k + 1) }
		p == j && $1 == "Sent" { print $2; exit }'
}

# to = *: 12 BSGs (SEND, so each sink counts what it received)
all_to_all() {
	local i j b n ok=0 line='' inst
	{
		printf '[global]\nduration = 1.5s\nwarmup = 0.2s\n'
		hosts_ini
		printf '[bsg all]\nfrom = h1, h2, h3, h4\nto = *\nsize = 1K\ntx_depth = 4\nrate = 2M\nverb = send\ncompletion = event\nmtu = 1024\n'
	} > "$OUT/a2a.ini"
	src_counters_on || { echo "GOT no clsact/u32 on the switch ports"; return 1; }
	run_job a2a || return 1
	inst=$(jq -c '[.generators[] | {host, to, status, bytes, received_bytes}]' "$OUT/a2a.json")
	n=$(jq '[.generators[] | select(.status == "ok" and .bytes > 0 and .received_bytes > 0)] | length' "$OUT/a2a.json")
	echo "INFO instances: $inst"
	# every pair: the switch's counter from hJ to hI >= what J's instance
	# to I reported sent (payload; the counter adds the headers), > 0
	jq -r '.generators[] | "\(.host) \(.to) \(.bytes)"' "$OUT/a2a.json" > /tmp/a2a.pairs
	while read -r j i sent; do
		b=$(src_bytes "${i#h}" "${j#h}")
		line="$line $j->$i=${b:-none}/$sent"
		[ "${b:-0}" -ge "$sent" ] && [ "$sent" -gt 0 ] || ok=1
	done < /tmp/a2a.pairs # (no /dev/fd in the VM for <(...))
	lab_result "a2a instances_ok=$n/12 switch_bytes/payload:$line"
	echo "EXPECT 12 instances ok, each sent and received bytes; on every switch egress port the per-source counter (u32 on the source address) of each of the 3 other hosts >= the payload its instance reported"
	echo "GOT $n instances ok;$line"
	[ "$n" = 12 ] && [ "$ok" = 0 ]
}

incast() {
	local tx0 tx1 msgs per got
	lab_sw tc qdisc replace dev h1-sw root tbf rate 4mbit burst 4kb limit 8mb || return 1
	{
		printf '[global]\nduration = 2.5s\nwarmup = 0\n'
		hosts_ini
		printf "[incast in]\nfrom = h2, h3, h4, h5\nto = h1\nburst = 64K\nperiod = 1s\nsize = 4K\ntx_depth = 16\n%s" \
			"${W/qp_timeout = 18/qp_timeout = 20}"
	} > "$OUT/incast.ini"
	tx0=$(lab_port_tx h1 bytes)
	run_job incast
	tx1=$(lab_port_tx h1 bytes)
	lab_port_reset h1
	msgs=$(jq '[.generators[] | select(.name == "in") | .messages] | add' "$OUT/incast.json")
	got=$(jq -c '.incasts[0] | {senders, bursts, burst_ns, share, aligned, completion_ns}' "$OUT/incast.json")
	# Bounds per burst, from physics and this run's counters: a burst of 4
	# senders x 16 WRITEs of 4 KiB at MTU 1024 is 64 x (4096 + 4 packets x
	# 58 B as tbf counts them + a 16 B RETH) = 278,016 B on the wire, at
	# 4 Mb/s 556 ms: no burst completes in less (-15 %: the 4 KB bucket,
	# the stamps). Soft-RoCE may retransmit (a busy VM drops packets in
	# rxe, go-back-N resends them), and those bytes go to the burst they
	# fell in: a lab round measured 550, 698, 700 ms with the port carrying
	# 974,138 B for 834,048 of messages. So a burst takes at most the bytes
	# the port carried beyond the other bursts' minimum, at 4 Mb/s (+15 %).
	# A band around the run's average bytes per message (the old check)
	# failed that round on the burst without retransmissions.
	local nb lo hi
	nb=$(jq '.incasts[0].bursts // 0' "$OUT/incast.json")
	per=278016
	lo=$(awk -v b="$per" 'BEGIN { printf "%.0f", 0.85 * b * 8 / 4e6 * 1e9 }')
	hi=$(awk -v t="$((tx1 - tx0))" -v b="$per" -v n="$nb" 'BEGIN {
		x = t - (n - 1) * b; if (x < b) x = b; printf "%.0f", 1.15 * x * 8 / 4e6 * 1e9 }')
	lab_result "incast port_bytes=$((tx1 - tx0)) messages=$msgs burst_wire_bytes=$per retransmitted_bytes_at_least=$((tx1 - tx0 - msgs / 64 * per)) lo_ns=$lo hi_ns=$hi incast=$got"
	echo "EXPECT 4 senders, 3 bursts, every completion_ns in [$lo, $hi] (a burst's 278,016 wire bytes / 4 Mb/s - 15 % .. the port's bytes beyond the other bursts' / 4 Mb/s + 15 %)"
	echo "GOT $got"
	jq -e --argjson lo "$lo" --argjson hi "$hi" '.incasts[0] | .senders == 4 and .bursts >= 3 and
		.burst_ns.p50 > 0 and .burst_ns.p99 >= .burst_ns.p50 and .burst_ns.max >= .burst_ns.p99 and
		([.completion_ns[] | select(. < $lo or . > $hi)] | length) == 0' "$OUT/incast.json" > /dev/null
}

# on = 250ms, off = 250ms (sched20's keys) beside a continuous BSG at the
# same rate: h5's netdev tx bytes sampled every 50 ms show the periods
# (read -t on a fifo: no process per sample under TCG), and the on/off
# BSG sends about half of the continuous one's bytes
onoff() {
	local i b prev=0 d s on=0 off=0 flips=0 state="" ratio series="" cpid
	{
		printf '[global]\nduration = 3s\nwarmup = 0\n'
		hosts_ini
		printf "[bsg cont]\nfrom = h4\nto = h1\nsize = 1K\ntx_depth = 4\nrate = 4M\n%s" "$W"
		printf "[bsg onoff]\nfrom = h5\nto = h1\nsize = 1K\ntx_depth = 4\nrate = 4M\non = 250ms\noff = 250ms\n%s" "$W"
	} > "$OUT/onoff.ini"
	rm -f /tmp/tick && mkfifo /tmp/tick && exec 9<> /tmp/tick
	run_job onoff &
	cpid=$!
	for ((i = 0; i < 120; i++)); do
		read -r b < /sys/class/net/h5/statistics/tx_bytes
		d=$((b - prev)) prev=$b
		if [ "$i" -gt 30 ] && [ "$i" -le 80 ]; then # 1.5-4 s: inside the window
			if [ "$d" -gt 5000 ]; then on=$((on + 1)) s=on; else off=$((off + 1)) s=off; fi
			[ -n "$state" ] && [ "$s" != "$state" ] && flips=$((flips + 1))
			state=$s series="$series$([ "$s" = on ] && echo 1 || echo 0)"
		fi
		read -r -t 0.05 -u 9 _
	done
	exec 9>&-
	wait "$cpid" || return 1
	ratio=$(jq -r '[.generators[] | {(.name): .bytes}] | add | .onoff / .cont' "$OUT/onoff.json")
	lab_result "onoff samples_on=$on samples_off=$off flips=$flips bytes_ratio=$ratio series=$series"
	echo "EXPECT on and off samples both >= 10 and >= 4 switches in 50 samples of 50 ms (periods of 250 ms); on/off bytes / continuous bytes in [0.35, 0.65]"
	echo "GOT on $on, off $off, switches $flips, ratio $ratio"
	[ "$on" -ge 10 ] && [ "$off" -ge 10 ] && [ "$flips" -ge 4 ] &&
		awk -v r="$ratio" 'BEGIN { exit !(r >= 0.35 && r <= 0.65) }'
}

check "5 agents listening (TLS, the lab key)"                   setup
check "stop = 2s ends the BSG within 50 ms of its offset"       stop_at_offset
check "bytes / messages budgets with a size distribution"       budgets
check "--sweep x 2 (cartesian product) with --repeat 3"          sweep_repeat
check "to = * among h1..h4: every host receives from the 3 others" all_to_all
check "on/off BSG: the periods on the wire, half the bytes"     onoff
check "[incast] 4 x 64 KiB to a 4 Mb/s port: completion = wire / rate" incast
lab_agents_stop
lab_summary
