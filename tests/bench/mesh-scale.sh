#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# tests/bench/mesh-scale.sh RPERF [N] - a mesh of N (default 64) hosts end
# to end on one machine: N `rperf agent --dry-run` on 127.0.0.1 (one port
# each, TLS with a pre-shared key), one `rperf mesh` over all of them with
# schedule rounds (N-1 rounds of N/2 pairs: one `rperf run` experiment per
# round, 10 ms per pair). Prints the wall time of the whole mesh and per
# round; fails when the mesh does not complete: a status other than 0, a
# round not run, a cell not "ok" or not N(N-1) cells (a broken planner or
# controller), never on the time itself (it depends on the machine).
set -euo pipefail
rperf=${1:?usage: mesh-scale.sh RPERF [N]}
n=${2:-64}
command -v jq > /dev/null || { echo "mesh-scale: jq is needed (tests/install-deps.sh)"; exit 77; }
work=$(mktemp -d /tmp/rperf-mesh-scale.XXXXXX)
pids=()
stop_agents() {
	[ ${#pids[@]} -eq 0 ] && return 0
	kill "${pids[@]}" 2> /dev/null || true
	wait "${pids[@]}" 2> /dev/null || true
	pids=()
}
trap 'stop_agents; [ -n "${KEEP:-}" ] || rm -rf "$work"' EXIT
printf 'mesh-scale bench key\n' > "$work/key"
chmod 600 "$work/key"

start_agents() {  # start_agents BASE: 0 when all N listen
	local i t up
	for ((i = 1; i <= n; i++)); do
		"$rperf" agent --dry-run --bind 127.0.0.1 -p $(($1 + i)) --key-file "$work/key" \
			--clock posix --timeout 30s > "$work/agent$i.log" 2>&1 &
		pids+=($!)
	done
	for ((t = 0; t < 300; t++)); do
		up=0
		for ((i = 1; i <= n; i++)); do
			grep -q "listening on" "$work/agent$i.log" 2> /dev/null && up=$((up + 1))
		done
		[ "$up" -eq "$n" ] && return 0
		for p in "${pids[@]}"; do kill -0 "$p" 2> /dev/null || return 1; done
		sleep 0.1
	done
	return 1
}

ok=0
for try in 1 2 3; do
	base=$((20000 + (RANDOM % 400) * 100))
	if start_agents "$base"; then ok=1; break; fi
	stop_agents
done
[ "$ok" = 1 ] || { echo "mesh-scale: could not start $n agents"; tail -3 "$work"/agent*.log; exit 1; }
{
	printf '[global]\ntimeout = 30s\n'
	for ((i = 1; i <= n; i++)); do printf '[host h%d]\ncontrol = 127.0.0.1:%d\n' "$i" $((base + i)); done
	printf '[mesh all]\nschedule = rounds\nduration = 10ms\nwarmup = 0\n'
} > "$work/mesh.ini"
t0=$EPOCHREALTIME
set +e
"$rperf" mesh --key-file "$work/key" --out_json_file "$work/mesh.json" "$work/mesh.ini" > "$work/mesh.txt" 2>&1
rc=$?
set -e
t1=$EPOCHREALTIME
head -3 "$work/mesh.txt"
rounds=$(jq '.mesh.rounds_run' "$work/mesh.json" 2> /dev/null || echo 0)
cells=$(jq '[.mesh.matrix[][] | select(. != null and .status == "ok")] | length' "$work/mesh.json" 2> /dev/null || echo 0)
wall=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }')
echo "mesh-scale: $n dry-run agents, $rounds of $((n - 1)) rounds, $cells of $((n * (n - 1))) cells ok, status $rc"
awk -v w="$wall" -v r="$rounds" -v n="$n" 'BEGIN { printf "RESULT mesh of %d hosts: wall time %.2f s (%.1f ms per round of %d pairs x 2 directions; %d cores)\n", n, w, r ? 1000 * w / r : 0, n / 2, '"$(nproc)"' }'
if [ "$rc" != 0 ] || [ "$rounds" != $((n - 1)) ] || [ "$cells" != $((n * (n - 1))) ] ||
	[ "$(jq -r '.mesh.dry_run' "$work/mesh.json")" != true ]; then
	echo "mesh-scale: the $n-host mesh did not complete"; tail -20 "$work/mesh.txt"; exit 1
fi
