#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# mesh-dry.sh RPERF - rperf mesh end to end against 5 `rperf agent
# --dry-run` on 127.0.0.1 (nothing measured, the whole conversation run):
#   1. a [mesh] job through rperf run: exit 0, 5 rounds (odd N: a bye),
#      the JSON contract (mesh.hosts, matrix rows = sources with a null
#      diagonal and cells {p50_ns, p99_ns, p999_ns, samples, status},
#      suspects a list), one run document per round;
#   2. rperf mesh ADDR,ADDR,...: the shorthand, 2 hosts, 1 round; and
#      parallel = 1: each round of 2 pairs as 2 experiments;
#   3. a [bsg] in the job runs beside every round;
#   4. one agent killed: exit 3, its 8 cells "failed" naming it, the other
#      12 "ok", every round run;
#   5. bad input: a [mesh] without hosts enough, bad hosts: exit 2.
set -uo pipefail
rperf=${1:?usage: mesh-dry.sh RPERF}
command -v jq > /dev/null || { echo "mesh-dry: jq is needed"; exit 77; }
# shellcheck source=tests/unit/dry-agents.sh
. "$(dirname "$0")/dry-agents.sh"
dry_test_init mesh-dry
start_dry_agents 5 "$work" --key-file "$work/key" --clock posix --timeout 30s ||
	{ echo "FAIL 5 dry-run agents did not start"; exit 1; }
{
	printf '[global]\ntimeout = 2s\n'
	for i in 1 2 3 4 5; do printf '[host h%d]\ncontrol = 127.0.0.1:%d\n' "$i" $((base + i)); done
	printf '[mesh sw]\nduration = 20ms\nwarmup = 0\nsize = 64\n'
} > "$work/mesh.ini"

full() {
	"$rperf" run --key-file "$work/key" --out_json_file "$work/a.json" "$work/mesh.ini" > "$work/a.txt" 2>&1 ||
		{ cat "$work/a.txt"; return 1; }
	grep -q '^mesh sw: 5 hosts' "$work/a.txt" &&
		jq -e '.mesh.hosts == ["h1","h2","h3","h4","h5"] and .mesh.rounds == 5 and
		.mesh.rounds_run == 5 and .mesh.dry_run and (.rounds | length) == 5 and
		(.mesh.suspects | type) == "array" and (.mesh.matrix | length) == 5 and
		all(.mesh.matrix | to_entries[]; (.value | length) == 5 and .value[.key] == null) and
		([.mesh.matrix[][] | select(. != null) | keys] | unique) ==
			[["min_ns","p10_ns","p50_ns","p999_ns","p99_ns","round","samples","status"]] and
		all(.mesh.matrix[][] | select(. != null); .status == "ok")' "$work/a.json" > /dev/null
}
shorthand() {
	"$rperf" mesh --key-file "$work/key" --out_json_file "$work/b.json" \
		"127.0.0.1:$((base + 1)),127.0.0.1:$((base + 2))" > "$work/b.txt" 2>&1 || { cat "$work/b.txt"; return 1; }
	jq -e --arg a "127.0.0.1_$((base + 1))" '.mesh.hosts[0] == $a and .mesh.rounds_run == 1 and
		([.mesh.matrix[][] | select(. != null)] | length) == 2' "$work/b.json" > /dev/null
}
parallel_one() {
	"$rperf" run --key-file "$work/key" --set mesh.sw.parallel=1 --set mesh.sw.statistic=p10 \
		--out_json_file "$work/p.json" "$work/mesh.ini" > "$work/p.txt" 2>&1 || { cat "$work/p.txt"; return 1; }
	echo "     $(jq -c '.mesh | [.rounds_run, .experiments, .parallel, .localization.statistic]' "$work/p.json")"
	jq -e '.mesh.rounds_run == 5 and .mesh.experiments == 10 and (.rounds | length) == 10 and
		.mesh.localization.statistic == "p10" and
		all(.mesh.matrix[][] | select(. != null); .status == "ok")' "$work/p.json" > /dev/null
}
under_load() {
	{ cat "$work/mesh.ini"; printf '[bsg load]\nfrom = h1\nto = h2\nsize = 4K\n'; } > "$work/load.ini"
	"$rperf" mesh --key-file "$work/key" --out_json_file "$work/l.json" "$work/load.ini" > "$work/l.txt" 2>&1 || { cat "$work/l.txt"; return 1; }
	echo "     $(jq -c '[.rounds[] | [.generators[] | select(.kind == "bsg") | .status]]' "$work/l.json")"
	jq -e '(.rounds | length) == 5 and all(.rounds[]; ([.generators[] | select(.kind == "bsg" and .name == "load" and .status == "ok")] | length) == 1)' "$work/l.json" > /dev/null
}
dead_agent() {
	local rc
	kill "${pids[2]}"
	wait "${pids[2]}" 2> /dev/null
	"$rperf" mesh --key-file "$work/key" --out_json_file "$work/c.json" "$work/mesh.ini" > "$work/c.txt" 2>&1
	rc=$?
	echo "     status $rc; $(grep -c 'h3' "$work/c.txt") report lines name h3"
	[ "$rc" = 3 ] &&
		jq -e '[.mesh.matrix[][] | select(. != null) | .status] | (map(select(. == "failed")) | length) == 8 and
		(map(select(. == "ok")) | length) == 12' "$work/c.json" > /dev/null &&
		jq -e '.mesh.matrix[2][0].error | test("host h3 failed")' "$work/c.json" > /dev/null &&
		jq -e '.mesh.rounds_run == 5 and .mesh.localization.cells_failed == 8' "$work/c.json" > /dev/null
}
bad_input() {
	local rc1 rc2
	printf '[host h1]\ncontrol = 127.0.0.1:1\n[mesh m]\n' > "$work/one.ini"
	"$rperf" mesh --key-file "$work/key" "$work/one.ini" 2> "$work/e1.txt"
	rc1=$?
	"$rperf" mesh --key-file "$work/key" ",," 2> "$work/e2.txt"
	rc2=$?
	echo "     $(head -1 "$work/e1.txt") | $(head -1 "$work/e2.txt")"
	[ "$rc1" = 2 ] && [ "$rc2" = 2 ] && grep -q 'a mesh needs at least 2' "$work/e1.txt"
}
t "a [mesh] job via rperf run: 5 rounds, the JSON contract" full
t "rperf mesh ADDR,ADDR: the shorthand" shorthand
t "parallel = 1: 10 experiments for 5 rounds of 2 pairs; statistic p10" parallel_one
t "a [bsg] beside the mesh runs in every round (the matrix under load)" under_load
t "a dead agent: its cells failed, the others kept, exit 3" dead_agent
t "bad mesh input: exit 2" bad_input
exit "$fail"
