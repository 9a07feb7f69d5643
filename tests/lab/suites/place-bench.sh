#!/bin/bash
# place-bench.sh - benchmark: LSG jitter (p99.9 - p50 of the RPerf RTT)
# pinned (server --cpu 0, client --cpu 1) vs unpinned (no pinning: the
# Soft-RoCE NIC has no NUMA node, so rperf binds nothing by default), same
# boot, h2 -> h1, three runs each, alternating. Under TCG the figures say
# how much the scheduler moves the generator, not what hardware would show.
# Prints RESULT lines; exits 0 unless a run failed.
# shellcheck source=/dev/null
. /usr/lib/rperf-lab/lab-lib.sh
N=${N:-3000}
jit_pin=() jit_free=()

one() { # one LABEL SERVER-ARGS -- CLIENT-ARGS: prints "p50 p999 jitter" (ns)
	local label=$1 srv=$2 cli=$3
	# shellcheck disable=SC2086
	timeout 120 rperf lat -d rxe_h1 $srv > /tmp/srv.log 2>&1 &
	# shellcheck disable=SC2086
	timeout 120 rperf lat -d rxe_h2 -n "$N" --warmup 300 $cli \
		--out_json_file /tmp/b.json 10.77.0.1 > /tmp/b.log 2>&1 || { cat /tmp/b.log /tmp/srv.log >&2; return 1; }
	wait
	jq -r '.results[0].rtt_ns | "\(.p50) \(.p999) \(.p999 - .p50)"' /tmp/b.json
}

for i in 1 2 3; do
	p=$(one pinned "--cpu 0" "--cpu 1") || exit 1
	u=$(one unpinned "" "") || exit 1
	set -- $p; jit_pin+=("$3")
	echo "RESULT run=$i pinned p50_ns=$1 p999_ns=$2 jitter_ns=$3"
	set -- $u; jit_free+=("$3")
	echo "RESULT run=$i unpinned p50_ns=$1 p999_ns=$2 jitter_ns=$3"
done
med() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
mp=$(med "${jit_pin[@]}") mu=$(med "${jit_free[@]}")
awk -v p="$mp" -v u="$mu" 'BEGIN { printf "RESULT lsg_jitter median p99.9-p50 pinned=%.1f us unpinned=%.1f us ratio(unpinned/pinned)=%.2f\n", p / 1000, u / 1000, (p > 0 ? u / p : 0) }'
echo "1 passed, 0 failed"
