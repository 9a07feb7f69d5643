#!/bin/bash
# lat.sh - rperf lat (the RPerf method) between lab hosts, one boot:
#   rxe-lab run --hosts 2 tests/lab/suites/lat.sh
# Server on h1 (rxe_h1, 10.77.0.1), client on h2; every run must cross the
# switch (bridge port counters). Ends with "N passed, M failed".
. /usr/lib/rperf-lab/lab-lib.sh
T=120 # per-run timeout, seconds
OUT=${LAB_OUT:-/tmp}

# rperf_pair JSON [CLIENT ARGS...]: server on h1, client on h2 -> JSON file
rperf_pair() {
	local json=$1 r rs spid
	shift
	timeout "$T" rperf lat -d rxe_h1 > /tmp/rsrv.log 2>&1 &
	spid=$!
	timeout "$T" rperf lat -d rxe_h2 --out_json_file "$json" "$@" 10.77.0.1 > /tmp/rcli.log 2>&1
	r=$?
	wait "$spid"
	rs=$?
	sed 's/^/  [cli] /' /tmp/rcli.log
	sed 's/^/  [srv] /' /tmp/rsrv.log
	echo "  -> rperf lat h2->h1 $*: client status $r, server status $rs"
	[ "$r" = 0 ] && return "$rs"
	return "$r"
}

# jget JSON FILTER: one value from a result file
jget() { jq -r "$2" "$1"; }

# lat_checks JSON SIZE [MAXSHARE]: samples, nonpositive share <= MAXSHARE
# (default 0.0499), wire p50 > loop p50
lat_checks() {
	local j=$1 size n np w l max=${3:-0.0499}
	size=$(jget "$j" '.results[0].size')
	n=$(jget "$j" '.results[0].samples')
	np=$(jget "$j" '.results[0].nonpositive')
	w=$(jget "$j" '.results[0].wire_ns.p50')
	l=$(jget "$j" '.results[0].loop_ns.p50')
	lab_result "rperf_lat size=$size samples=$n rtt_p50_ns=$(jget "$j" '.results[0].rtt_ns.p50') rtt_p999_ns=$(jget "$j" '.results[0].rtt_ns.p999') wire_p50_ns=$w loop_p50_ns=$l nonpositive=$np precompleted=$(jget "$j" '.results[0].precompleted') clock=$(jget "$j" '.clock.source')"
	[ "$size" = "$2" ] || { echo "GOT size $size, expected $2"; return 1; }
	lab_expect_ge "samples" "$n" 1 || return 1
	lab_expect_range "nonpositive share" "$(awk -v a="$np" -v b="$n" 'BEGIN { printf "%.4f", a / b }')" 0 "$max" || return 1
	lab_expect_ge "wire p50 - loop p50 (ns)" "$((w - l))" 1
}

# A non-positive RTT here is the emulator's doing: a scheduling hiccup of
# the VM that lands on the loopback SEND but not on the wire SEND. Their
# share follows the host's load (3.4-3.6 % on a quiet host, 5.2-6.9 % with
# the VM three times slower on a busy one), so a run that misses its bound
# is measured once more; both runs are printed.
iter_64_once() {
	lab_assert_crossed 2000 rperf_pair "$OUT/lat64.json" -s 64 -n 2000 --warmup 200 --pair-order sequential || return 2
	[ "$(jget "$OUT/lat64.json" '.results[0].samples')" = 2000 ] || { echo "GOT samples != 2000"; return 2; }
	lat_checks "$OUT/lat64.json" 64
}
duration_4096_once() {
	lab_assert_crossed 500 rperf_pair "$OUT/lat4k.json" -s 4096 -D 3s --warmup 100 --pair-order sequential || return 2
	lab_expect_range "measured seconds" "$(jget "$OUT/lat4k.json" '.results[0].seconds')" 2.9 6 || return 2
	# 4096 B: wire - loop is ~85 us here, within reach of the emulator's
	# hiccups; 5.6-6.5 % were measured on a busy host, the pre-session
	# binary included (6.05 %). 10 % still fails a broken Equation 1 (a
	# stamping bug puts the median near 0, i.e. ~50 % non-positive).
	lat_checks "$OUT/lat4k.json" 4096 0.0999
}
twice() {  # twice FUNC: a second attempt only when FUNC's result checks missed
	local rc
	"$1"
	rc=$?
	[ "$rc" = 1 ] || return "$rc"
	echo "NOTE attempt 1 missed (above); measuring once more"
	"$1"
}
iter_64() { twice iter_64_once; }
duration_4096() { twice duration_4096_once; }

# Under TCG the emulated switch (netem, bridge, veth) and Soft-RoCE run in
# softirqs on the CPU that sent the packet; a busy-polling LSG on that CPU
# starves them (ksoftirqd waits for a tick) and the RTT grows by scheduling
# delay, not by the switch. Steer all lab packet processing to CPU 0 (RPS)
# and pin the LSG to CPU 1: the switch gets its own "silicon".
switch_on_cpu0() {
	local d
	for d in /sys/class/net/h*/queues/rx-0/rps_cpus; do echo 1 > "$d"; done
	ip netns exec sw sh -c 'for d in /sys/class/net/h*/queues/rx-0/rps_cpus; do echo 1 > $d; done'
}

# ping_times N: N per-reply times (ms) h2 -> h1 through the switch
ping_times() {
	ping -c "$1" -i 0.05 -I 10.77.0.2 10.77.0.1 2>&1 | sed -n 's/.*time=\([0-9.]*\) ms.*/\1/p'
}
median() { sort -n | awk '{ v[NR] = $1 } END { if (NR) print v[int((NR + 1) / 2)]; else exit 1 }'; }
rperf_p50_ms() {
	rperf_pair "$1" -s 64 -n 300 --warmup 50 --pair-order sequential --cpu 1 > "$1.log" 2>&1 || { cat "$1.log" >&2; return 1; }
	awk -v v="$(jget "$1" '.results[0].rtt_ns.p50')" 'BEGIN { printf "%.3f\n", v / 1e6 }'
}
# round TAG: 3 interleaved (rperf run, 20 pings); appends to /tmp/ka-TAG.*
ka_round() {
	local i
	for i in 1 2 3; do
		rperf_p50_ms "$OUT/ka-$1-$i.json" >> "/tmp/ka-$1.rperf" || return 1
		ping_times 20 >> "/tmp/ka-$1.ping"
	done
}

# Known answer: 5 ms of netem on the destination's switch port (requests to
# h1 wait 5 ms), ping and rperf runs interleaved. Two bounds, each far from
# what was measured:
#  - below: rperf's median RTT rises by at least 95 % of the 5 ms (netem
#    delivers no packet early; 5 % covers the base median, 0.06 ms, and the
#    histogram's bucket error). Measured rises: 5.15-7.68 ms (8 boots).
#  - above: rperf's delayed median is at most 1.3 x ping's delayed median
#    of the same boot (TCG's timers overshoot netem's 5 ms by 4-54 %, for
#    both tools alike: rperf / ping delayed medians 0.81-1.02 in 8 boots).
#    A clock off by 2x, or a delay counted twice, fails it.
# The former check, rperf's rise = ping's rise within max(15 %, 0.3 ms),
# compared two noisy rises (ping's base median is ~1 ms of its own software,
# 0.93-1.24 ms): it missed in 2 of those 4 boots (rises 7.68 vs 6.34 ms,
# 6.65 vs 5.65 ms) with rperf measuring right.
KA_DELAY_MS=5
known_answer() {
	local pb rb pd rd rise_p rise_r lo hi
	rm -f /tmp/ka-*
	switch_on_cpu0
	ka_round base || return 1
	lab_delay h1 "${KA_DELAY_MS}ms" || return 1
	ka_round delay
	lab_delay_clear h1
	rb=$(median < /tmp/ka-base.rperf) && pb=$(median < /tmp/ka-base.ping) &&
		rd=$(median < /tmp/ka-delay.rperf) && pd=$(median < /tmp/ka-delay.ping) ||
		{ echo "GOT a run failed or ping got no replies"; return 1; }
	rise_p=$(awk -v a="$pb" -v b="$pd" 'BEGIN { printf "%.3f", b - a }')
	rise_r=$(awk -v a="$rb" -v b="$rd" 'BEGIN { printf "%.3f", b - a }')
	lo=$(awk -v d="$KA_DELAY_MS" 'BEGIN { printf "%.3f", 0.95 * d }')
	hi=$(awk -v p="$pd" 'BEGIN { printf "%.3f", 1.3 * p }')
	lab_result "known_answer_5ms ping_median_ms base=$pb delayed=$pd rise=$rise_p (n=$(wc -l < /tmp/ka-base.ping)+$(wc -l < /tmp/ka-delay.ping)) rperf_rtt_p50_ms base=$rb delayed=$rd rise=$rise_r (runs: $(tr '\n' ' ' < /tmp/ka-base.rperf)/ $(tr '\n' ' ' < /tmp/ka-delay.rperf)) rperf_over_ping_delayed=$(awk -v a="$rd" -v b="$pd" 'BEGIN { printf "%.3f", a / b }')"
	lab_expect_range "rperf RTT rise (ms), >= 95 % of netem's $KA_DELAY_MS ms" "$rise_r" "$lo" 1000 &&
		lab_expect_range "rperf delayed median (ms), <= 1.3 x ping's $pd ms" "$rd" 0 "$hi"
}

# rperf lat --interval: a 4 s run in 500 ms intervals, 5 ms of delay put
# on h1-sw 2.5 s after the client starts (connecting and the warm-up take
# about 0.5-1.5 s here, so the delay lands inside the measured window).
# Checked: 7+ intervals; their samples add up to the run's (each sample in
# exactly one interval); the largest interval max is the run's max (the true
# max, not a percentile); each interval's p50 <= p99 <= max; the series
# shows the delay (its highest p50 at least 95 % of 5 ms above its first);
# the text's interval rows, one per interval.
lat_interval() {
	local j=$OUT/lat-iv.json n sum tot mx rmx first hi bad rows bg
	( sleep 2.5; lab_delay h1 5ms ) &
	bg=$!
	rperf_pair "$j" -s 64 -D 4s --warmup 100 --interval 500ms --pair-order sequential
	local rc=$?
	wait "$bg"
	lab_delay_clear h1
	[ "$rc" = 0 ] || { echo "GOT rperf lat status $rc"; return 1; }
	echo "INFO intervals [start_s, samples, p50_us, p99_us, max_us]: $(jq -c '.results[0].intervals | map([.start_s, .samples, .p50_us, .p99_us, .max_us])' "$j" | head -c 1500)"
	n=$(jget "$j" '.results[0].intervals | length')
	sum=$(jget "$j" '.results[0].intervals | map(.samples) | add')
	tot=$(jget "$j" '.results[0].samples')
	mx=$(jget "$j" '.results[0].intervals | map(.max_us // empty) | max')
	rmx=$(jget "$j" '.results[0].rtt_ns.max / 1000')
	first=$(jget "$j" '[.results[0].intervals[] | select(.samples > 0)][0].p50_us')
	hi=$(jget "$j" '.results[0].intervals | map(.p50_us // empty) | max')
	bad=$(jget "$j" '.results[0].intervals | map(select(.samples > 0 and (.p50_us > .p99_us or .p99_us > .max_us))) | length')
	rows=$(grep -cE '^  rperf +64 +[0-9]+\.[0-9]{3} +[0-9]+ ' /tmp/rcli.log)
	lab_result "lat_interval intervals=$n samples_sum=$sum samples=$tot max_us=$mx rtt_max_us=$rmx first_p50_us=$first highest_p50_us=$hi text_rows=$rows"
	lab_expect_ge "intervals (4 s at 500 ms)" "$n" 7 || return 1
	echo "EXPECT the intervals' samples add up to the run's; GOT $sum of $tot"
	[ "$sum" = "$tot" ] || return 1
	lab_expect_range "largest interval max - run's max (us)" "$(awk -v a="$mx" -v b="$rmx" 'BEGIN { printf "%.3f", a - b }')" 0 0 || return 1
	lab_expect_range "intervals with p50 > p99 or p99 > max" "$bad" 0 0 || return 1
	lab_expect_ge "highest interval p50 - first's (us), 95 % of the 5 ms delay" "$(awk -v a="$first" -v b="$hi" 'BEGIN { printf "%.1f", b - a }')" 4750 || return 1
	echo "EXPECT one text row per interval; GOT $rows of $n"
	[ "$rows" = "$n" ]
}

# expect_exit STATUS PATTERN CMD...: exit status and a one-line error
expect_exit() {
	local want=$1 pat=$2 rc n
	shift 2
	"$@" > /tmp/ee.out 2> /tmp/ee.err
	rc=$?
	n=$(wc -l < /tmp/ee.err)
	echo "EXPECT exit $want, one stderr line matching '$pat'"
	echo "GOT exit $rc, $n line(s): $(head -c 300 /tmp/ee.err)"
	[ "$rc" = "$want" ] && [ "$n" = 1 ] && grep -q -- "$pat" /tmp/ee.err
}

bad_device() { expect_exit 2 "rxe_h1, rxe_h2" rperf lat -d nosuch 10.77.0.1; }
bad_gid() { expect_exit 2 "gid-index" rperf lat -d rxe_h2 -x 5000 10.77.0.1; }
bad_sl() { expect_exit 2 "-S/--sl: '16'" rperf lat -d rxe_h2 -S 16 10.77.0.1; }
no_server() {
	local t=$EPOCHREALTIME
	expect_exit 3 "no rperf server answered" rperf lat -d rxe_h2 -p 18999 --connect-timeout 1s 10.77.0.1 || return 1
	lab_expect_range "seconds until giving up" "$(lab_since "$t")" 0.9 10
}
# A size above every rperf server's 16 MiB: the client refuses it before
# connecting (one line, exit 2); the server never sees it and serves the
# next client, then ends (no --persistent) with status 0.
refused() {
	timeout 60 rperf lat -d rxe_h1 > /tmp/rsrv.log 2>&1 &
	local spid=$! rs r r2
	expect_exit 2 "above the largest message an rperf server accepts" rperf lat -d rxe_h2 -s 32M 10.77.0.1
	r=$?
	timeout 60 rperf lat -d rxe_h2 -s 64 -n 200 --pair-order sequential 10.77.0.1 > /tmp/rcli2.log 2>&1
	r2=$?
	wait "$spid"
	rs=$?
	echo "EXPECT then a 64 B client served (exit 0), the server exits 0 after it"
	echo "GOT client $r2, server $rs: $(tr '\n' ' ' < /tmp/rsrv.log | head -c 300)"
	[ "$r" = 0 ] && [ "$r2" = 0 ] && [ "$rs" = 0 ]
}
# The server dies mid-run: the client prints and saves partial statistics,
# exits 3, and does not hang.
peer_killed() {
	local spid cpid rc t j=$OUT/killed.json
	rm -f "$j"
	rperf lat -d rxe_h1 > /tmp/rsrv.log 2>&1 &
	spid=$!
	timeout 90 rperf lat -d rxe_h2 -D 60s --pair-order sequential --out_json_file "$j" 10.77.0.1 > /tmp/rcli.log 2> /tmp/rcli.err &
	cpid=$!
	sleep 4
	kill -9 "$spid"
	t=$EPOCHREALTIME
	wait "$cpid"
	rc=$?
	echo "INFO client stderr: $(cat /tmp/rcli.err)"
	grep -E 'samples|partial|rperf ' /tmp/rcli.log | head -5
	lab_result "peer_killed client_status=$rc seconds_to_exit=$(lab_since "$t") partial=$(jget "$j" .partial) samples=$(jget "$j" '.results[0].samples')"
	echo "EXPECT client exit 3 (not 124 = hung), partial JSON with samples > 0"
	[ "$rc" = 3 ] && [ "$(jget "$j" .partial)" = true ] && [ "$(jget "$j" '.results[0].samples')" -gt 0 ]
}

# --persistent: the server serves clients one after another and survives a
# client killed mid-run
persistent() {
	local spid r1 r2 r3
	rperf lat -d rxe_h1 --persistent > /tmp/psrv.log 2>&1 &
	spid=$!
	timeout 60 rperf lat -d rxe_h2 -n 300 --warmup 10 --pair-order sequential 10.77.0.1 > /dev/null 2>&1
	r1=$?
	timeout 60 rperf lat -d rxe_h2 -D 30s --pair-order sequential 10.77.0.1 > /dev/null 2>&1 &
	local cpid=$!
	sleep 3
	kill -9 "$cpid"
	wait "$cpid" 2> /dev/null
	r2=$?
	timeout 60 rperf lat -d rxe_h2 -n 300 --warmup 10 --pair-order sequential 10.77.0.1 > /dev/null 2>&1
	r3=$?
	kill -0 "$spid" 2> /dev/null
	local alive=$?
	kill "$spid" 2> /dev/null
	wait "$spid"
	echo "INFO server log: $(tr '\n' '|' < /tmp/psrv.log)"
	echo "EXPECT first client 0, second killed (137), third 0, server still running"
	echo "GOT $r1, $r2, $r3, server alive=$([ "$alive" = 0 ] && echo yes || echo no)"
	[ "$r1" = 0 ] && [ "$r2" = 137 ] && [ "$r3" = 0 ] && [ "$alive" = 0 ]
}

# --timestamps: Soft-RoCE has no NIC completion timestamps. nic is a
# one-line error naming the device (exit 2); auto notes it and uses CPU stamps.
ts_nic() {
	expect_exit 2 "--timestamps nic: rxe_h2 has no NIC completion timestamps" \
		rperf lat -d rxe_h2 --timestamps nic 10.77.0.1
}
ts_auto() {
	local j=$OUT/ts-auto.json
	rperf_pair "$j" -s 64 -n 300 --warmup 20 --pair-order sequential --timestamps auto || return 1
	echo "EXPECT stdout note naming rxe_h2, JSON timestamps=cpu nic_clock_hz=null, 300 samples"
	echo "GOT note: $(grep -c 'rperf: note: rxe_h2 has no NIC completion timestamps' /tmp/rcli.log) line(s); timestamps=$(jget "$j" .timestamps) nic_clock_hz=$(jget "$j" .nic_clock_hz) samples=$(jget "$j" '.results[0].samples')"
	grep -q 'rperf: note: rxe_h2 has no NIC completion timestamps' /tmp/rcli.log &&
		grep -q 'timestamps   : cpu' /tmp/rcli.log &&
		[ "$(jget "$j" .timestamps)" = cpu ] && [ "$(jget "$j" .nic_clock_hz)" = null ] &&
		[ "$(jget "$j" '.results[0].samples')" = 300 ]
}

# yields MODE: sched_yield() calls of an rperf lat client with --poll MODE
# (strace -c counts them; none is a count of 0)
yields() {
	local spid n
	timeout "$T" rperf lat -d rxe_h1 > /tmp/rsrv.log 2>&1 &
	spid=$!
	timeout "$T" strace -f -qq -c -e trace=sched_yield -o "/tmp/strace-$1.txt" \
		rperf lat -d rxe_h2 -n 100 --warmup 10 --poll "$1" 10.77.0.1 > /tmp/rcli.log 2>&1 ||
		{ cat /tmp/rcli.log; wait "$spid"; return 1; }
	wait "$spid" || return 1
	n=$(awk '$NF == "sched_yield" { print $(NF - 1) }' "/tmp/strace-$1.txt")
	echo "${n:-0}"
}
# --poll: Soft-RoCE on one kernel often completes a SEND (its ACK too)
# inside the post, so an undelayed run may never poll an empty CQ. 2 ms of
# netem on h1-sw holds every wire completion back: with yield each of the
# 110 samples polls empty at least once, so it yields at least 110 times;
# busy never does.
poll_modes() {
	local busy yield rc=0
	lab_delay h1 2ms || return 1
	busy=$(yields busy) || { echo "--poll busy: $busy"; rc=1; }
	[ "$rc" = 0 ] && { yield=$(yields yield) || { echo "--poll yield: $yield"; rc=1; }; }
	lab_delay_clear h1
	[ "$rc" = 0 ] || return 1
	lab_result "poll_modes (2 ms on h1-sw, 110 samples) busy_sched_yield=$busy yield_sched_yield=$yield"
	[ "$busy" = 0 ] || { echo "GOT $busy sched_yield() calls with --poll busy"; return 1; }
	lab_expect_ge "sched_yield() calls with --poll yield" "$yield" 110
}

info_devices() {
	rperf info --json --spin 20ms > "$OUT/info.json" || return 1
	jq -c '.devices[] | {name, ports: [.ports[] | {port, state, link_layer, rate_gbps, mtu, max_vl_num, gids: (.gids | length)}]}' "$OUT/info.json"
	lab_expect_ge "devices in rperf info --json" "$(jq '[.devices[] | select(.name | test("^rxe_h"))] | length' "$OUT/info.json")" 2 || return 1
	jq -e '.devices[0].ports[0] | has("port") and has("state") and has("link_layer") and has("rate_gbps") and has("mtu") and has("max_vl_num") and has("gids")' "$OUT/info.json" > /dev/null &&
		jq -e '.devices[0] | has("name") and has("numa_node")' "$OUT/info.json" > /dev/null
}

check "rperf info --json lists rxe_h1 and rxe_h2 (contract keys)" info_devices
check "rperf lat 64 B, -n 2000, crosses the switch"            iter_64
check "rperf lat 4096 B, -D 3s, crosses the switch"            duration_4096
check "5 ms on h1-sw: rperf RTT rise >= 4.75 ms, <= 1.3 x ping's"              known_answer
check "--interval 500ms: intervals[] and rows, the delay seen"   lat_interval
check "unknown device: one line, exit 2"                       bad_device
check "GID index out of range: exit 2"                         bad_gid
check "SL 16: exit 2"                                          bad_sl
check "server not listening: exit 3 after the retry window"    no_server
check "size above the server's limit: refused before connecting, server serves on" refused
check "server killed mid-run: partial results, exit 3"         peer_killed
check "--persistent server survives a client killed mid-run"    persistent
check "--timestamps nic on rxe: one-line error naming it, exit 2" ts_nic
check "--timestamps auto on rxe: a note, CPU stamps, succeeds"    ts_auto
check "--poll yield: sched_yield() between polls; busy: none"  poll_modes
lab_summary
