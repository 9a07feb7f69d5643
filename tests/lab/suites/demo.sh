#!/bin/bash
# demo.sh MODE - the showcase measurement, run by `rxe-lab demo` twice:
# MODE=switch (h2 -> h1 through the bridge) and MODE=direct (--direct).
# Writes /out/demo-result.txt: "tool=... bytes=... t_min_us=... t_typical_us=..."
# (one-way latency, µs), which rxe-lab subtracts: switch - direct.
# To show rperf instead of perftest, replace measure() (keep the output line).
# shellcheck source=/dev/null
. /usr/lib/rperf-lab/lab-lib.sh
MODE=${1:-switch}

if [ -x /usr/bin/rperf ]; then
	lab_say "rperf info (the rperf build under test)"
	rperf info || echo "(rperf info exited with status $?)"
fi

measure() {  # -> one line of key=value pairs
	lab_pair 1 2 120 ib_send_lat -F -n 1000 > /tmp/demo.log 2>&1 || { cat /tmp/demo.log; return 1; }
	echo "tool=ib_send_lat $(lab_lat_result)"
}

lab_say "measuring one-way latency h2 -> h1 ($MODE)"
# shellcheck disable=SC2016 # expanded by eval
check "h2 -> h1 latency ($MODE) crosses the $([ "$MODE" = direct ] && echo veth pair || echo switch)" \
	lab_assert_crossed 1500 eval 'R=$(measure)'
[ -n "${R:-}" ] && { echo "$R" > "$LAB_OUT/demo-result.txt"; lab_say "result: $R"; }
lab_summary
