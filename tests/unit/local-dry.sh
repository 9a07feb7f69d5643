#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# local-dry.sh RPERF - `rperf run --dry-run` with [host] control = local:
# rperf run starts those hosts' agents itself (dry: on 127.0.0.1):
#   1. both hosts local: exit 0, a dry-run report, each local agent
#      listening once and serving one controller;
#   2. one local host and one `rperf agent --dry-run`: exit 0, the
#      stand-alone agent took one controller, the local one the other;
#   3. a plain sweep of 2 points: the same local agents (started once)
#      serve both points, 2 controllers each; with --same-qps, 1 each;
#   4. --dry-run with no local host and no --mpi: exit 2, one line;
#   5. control = local with --mpi (mpirun -n 3, when built with MPI):
#      refused at once naming FILE:LINE, exit 2.
# The real run on Soft-RoCE: lab suite run-lat (local_agent).
set -uo pipefail
rperf=${1:?usage: local-dry.sh RPERF}
command -v jq > /dev/null || { echo "local-dry: jq is needed"; exit 77; }
# shellcheck source=tests/unit/dry-agents.sh
. "$(dirname "$0")/dry-agents.sh"
dry_test_init local-dry
job() { # job FILE CONTROL-OF-h2
	printf '[global]\nduration = 50ms\nwarmup = 10ms\n[host h1]\ncontrol = local\n[host h2]\ncontrol = %s\n[lsg probe]\nfrom = h2\nto = h1\n' \
		"$2" > "$1"
}
run() { "$rperf" run --dry-run --key-file "$work/key" "$@"; }
# lines PATTERN: stderr lines of the last run matching PATTERN
lines() { grep -c -- "$1" "$work/err"; }

both_local() {
	job "$work/both.ini" local
	run --out_json_file "$work/both.json" "$work/both.ini" > "$work/out" 2> "$work/err" ||
		{ cat "$work/err"; return 1; }
	echo "     listening: $(lines 'local agent h[12] .*: listening on 127.0.0.1 port'), connected: $(lines 'local agent h[12] .*: controller 127.0.0.1:[0-9]*: connected$')"
	[ "$(lines 'local agent h[12] .*: listening on 127.0.0.1 port')" = 2 ] &&
		[ "$(lines ': connected$')" = 2 ] && grep -q '^DRY RUN: 2 of 2 agent' "$work/out" &&
		[ "$(jq '.generators | length' "$work/both.json")" = 1 ]
}
t "both hosts local: one run, each local agent serves it" both_local

mixed() {
	start_dry_agents 1 "$work" --key-file "$work/key" --clock posix ||
		{ echo "     the agent did not start"; return 1; }
	job "$work/mixed.ini" "127.0.0.1:$((base + 1))"
	run "$work/mixed.ini" > "$work/out" 2> "$work/err" || { cat "$work/err"; return 1; }
	[ "$(grep -c ': connected$' "$work/agent1.log")" = 1 ] &&
		[ "$(lines 'local agent h1 .*: connected$')" = 1 ] &&
		[ "$(lines 'local agent h2')" = 0 ]
}
t "one local host beside an rperf agent" mixed

sweeps() {
	local plain listen same
	run --sweep lsg.probe.size=8,64 "$work/both.ini" > "$work/out" 2> "$work/err" ||
		{ cat "$work/err"; return 1; }
	plain=$(lines ': connected$')
	listen=$(lines ': listening on')
	run --sweep lsg.probe.size=8,64 --same-qps "$work/both.ini" > "$work/out" 2> "$work/err" ||
		{ cat "$work/err"; return 1; }
	same=$(lines ': connected$')
	echo "     plain sweep: $listen listening, $plain connected; --same-qps: $same connected"
	[ "$listen" = 2 ] && [ "$plain" = 4 ] && [ "$same" = 2 ]
}
t "a sweep's points on the same local agents" sweeps

refused() {
	job "$work/none.ini" "127.0.0.1:$((base + 1))"
	sed -i 's/^control = local$/control = 127.0.0.1:1/' "$work/none.ini"
	run "$work/none.ini" > "$work/out" 2> "$work/err"
	local rc=$?
	[ "$rc" = 2 ] && [ "$(wc -l < "$work/err")" = 1 ] &&
		grep -q -- '--dry-run: this job has no host with control = local' "$work/err" ||
		{ echo "     exit $rc: $(cat "$work/err")"; return 1; }
}
t "--dry-run without a local host or --mpi: refused" refused

with_mpi() {
	OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 timeout 60 \
		mpirun --oversubscribe -n 3 "$rperf" run --mpi --dry-run "$work/both.ini" \
		> "$work/out" 2> "$work/err"
	local rc=$?
	grep -q 'built without MPI' "$work/err" && { echo "     (this rperf has no MPI: not checked)"; return 0; }
	[ "$rc" != 0 ] && grep -q 'both.ini:4: \[host h1\] control = local with --mpi' "$work/err" ||
		{ echo "     exit $rc: $(head -c 400 "$work/err")"; return 1; }
}
if command -v mpirun > /dev/null; then
	t "control = local with --mpi: refused naming FILE:LINE" with_mpi
fi
exit $fail
