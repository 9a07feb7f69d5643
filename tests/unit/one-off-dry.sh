#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# one-off-dry.sh RPERF - `rperf agent --dry-run --one-off` on 127.0.0.1:
#   1. two such agents serve one rperf run (exit 0), then both exit 0 by
#      themselves, saying so, and nothing listens on their ports;
#   2. a one-off agent whose controller is refused (a job the agent's
#      limits refuse: its experiment ended) exits 0 as well, the run exits
#      3 naming the refusal;
#   3. --one-off with --persistent is refused (exit 2, one line).
# Without --one-off an agent serves one controller after another (every
# other dry test).
set -uo pipefail
rperf=${1:?usage: one-off-dry.sh RPERF}
# shellcheck source=tests/unit/dry-agents.sh
. "$(dirname "$0")/dry-agents.sh"
dry_test_init one-off-dry
job() { # job DURATION: h1 -> h2, on the agents at $base + 1, 2
	{
		printf '[global]\nduration = %s\nwarmup = 10ms\n' "$1"
		for i in 1 2; do printf '[host h%d]\ncontrol = 127.0.0.1:%d\n' "$i" $((base + i)); done
		printf '[lsg probe]\nfrom = h1\nto = h2\n'
	} > "$work/job.ini"
}
# gone: every agent process we started has exited 0 within 5 s
gone() {
	local p k rc
	for p in "${pids[@]}"; do
		for ((k = 0; k < 50; k++)); do kill -0 "$p" 2> /dev/null || break; sleep 0.1; done
		kill -0 "$p" 2> /dev/null && { echo "     agent $p still runs"; return 1; }
		wait "$p"
		rc=$?
		[ "$rc" = 0 ] || { echo "     agent $p exit $rc"; return 1; }
	done
	pids=()
}
served() {
	start_dry_agents 2 "$work" --key-file "$work/key" --clock posix --one-off ||
		{ echo "     agents did not start"; return 1; }
	job 50ms
	"$rperf" run --key-file "$work/key" "$work/job.ini" > "$work/r.txt" 2>&1 ||
		{ cat "$work/r.txt"; return 1; }
	gone || return 1
	[ "$(grep -l 'served one controller (--one-off)' "$work"/agent*.log | wc -l)" = 2 ] &&
		[ "$(grep -l 'exiting (--one-off)' "$work"/agent*.log | wc -l)" = 2 ] &&
		! ss -Hltn "sport = :$((base + 1))" | grep -q . ||
		{ tail -n 3 "$work"/agent*.log; return 1; }
}
t "2 one-off agents: one run, then both exit 0" served

refused() {
	rm -f "$work"/agent*.log
	start_dry_agents 2 "$work" --key-file "$work/key" --clock posix --one-off \
		--max-duration 1s || { echo "     agents did not start"; return 1; }
	job 5s
	"$rperf" run --key-file "$work/key" "$work/job.ini" > "$work/r.txt" 2>&1
	local rc=$?
	gone || return 1
	[ "$rc" = 3 ] && grep -q 'limits:' "$work/r.txt" ||
		{ echo "     run exit $rc"; cat "$work/r.txt"; return 1; }
}
t "a one-off agent whose plan was refused exits 0 too" refused

contradiction() {
	"$rperf" agent --dry-run --one-off --persistent --key-file "$work/key" \
		-p $((base + 9)) > "$work/c.txt" 2>&1
	local rc=$?
	[ "$rc" = 2 ] && [ "$(wc -l < "$work/c.txt")" = 1 ] &&
		grep -q -- '--one-off with --persistent' "$work/c.txt" ||
		{ echo "     exit $rc: $(cat "$work/c.txt")"; return 1; }
}
t "--one-off with --persistent: refused (exit 2, one line)" contradiction
exit $fail
