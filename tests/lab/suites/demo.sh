#!/bin/bash
# demo.sh MODE - the showcase measurement, run by `rxe-lab demo` twice:
# MODE=switch (h2 -> h1 through the bridge) and MODE=direct (--direct).
# Writes /out/demo-result.txt, one line per tool: "tool=... bytes=...
# t_min_us=... t_typical_us=... figure=RTT" (µs, round trips for both
# tools: ib_send_lat's RTT is 2 x its t_typical, perftest's half RTT, kept
# as half_t_typical_us=; rperf's line also has samples= and nonpositive=),
# which rxe-lab prints side by side: through the switch, back to back;
# and /out/demo-rperf.txt, rperf's whole report, which it also prints.
# shellcheck source=/dev/null
. /usr/lib/rperf-lab/lab-lib.sh
MODE=${1:-switch}

if [ -x /usr/bin/rperf ]; then
	lab_say "rperf info (the rperf build under test)"
	rperf info || echo "(rperf info exited with status $?)"
fi

# rperf lat (RPerf RTT, Equation 1) and perftest's ib_send_lat (software
# ping-pong; it prints half the RTT, doubled here so that RTT meets RTT) on
# the same path, one line each
measure() {
	local j=/tmp/demo-lat.json
	timeout 120 rperf lat -d rxe_h1 > /tmp/demo-srv.log 2>&1 &
	timeout 120 rperf lat -d rxe_h2 -s 64 -n 3000 --warmup 300 --pair-order sequential \
		--out_json_file "$j" 10.77.0.1 > /tmp/demo-rperf.log 2>&1 || { cat /tmp/demo-rperf.log; return 1; }
	wait
	cat /tmp/demo-rperf.log >&2
	cp /tmp/demo-rperf.log "$LAB_OUT/demo-rperf.txt"
	jq -r '.results[0] | "tool=rperf_lat bytes=\(.size) t_min_us=\(.rtt_ns.min / 1000) t_typical_us=\(.rtt_ns.p50 / 1000) t_p999_us=\(.rtt_ns.p999 / 1000) samples=\(.samples) nonpositive=\(.nonpositive) figure=RTT"' "$j"
	lab_pair 1 2 120 ib_send_lat -F -n 1000 > /tmp/demo.log 2>&1 || { cat /tmp/demo.log; return 1; }
	local pt
	pt=$(lab_lat_result) || { cat /tmp/demo.log; return 1; }
	echo "$pt" | awk '{
		for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
		printf "tool=ib_send_lat bytes=%s t_min_us=%.3f t_typical_us=%.3f half_t_typical_us=%s figure=RTT\n",
			v["bytes"], 2 * v["t_min_us"], 2 * v["t_typical_us"], v["t_typical_us"] }'
}

lab_say "measuring h2 -> h1 ($MODE): rperf lat and ib_send_lat"
# shellcheck disable=SC2016 # expanded by eval
check "h2 -> h1 latency ($MODE) crosses the $([ "$MODE" = direct ] && echo veth pair || echo switch)" \
	lab_assert_crossed 1500 eval 'R=$(measure)'
[ -n "${R:-}" ] && { echo "$R" > "$LAB_OUT/demo-result.txt"; lab_say "result: $R"; }
# the whole rperf report, not only the line above (rxe-lab demo explains it)
if [ -s "$LAB_OUT/demo-rperf.txt" ]; then
	lab_say "rperf lat's report ($MODE, h2 -> h1; figures are RTTs in usec)"
	sed -n '/^rperf lat/,$p' "$LAB_OUT/demo-rperf.txt"
fi
lab_summary
