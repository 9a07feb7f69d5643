#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# rounds-dry.sh RPERF - rperf run --sweep ... --same-qps against 3 `rperf
# agent --dry-run` on 127.0.0.1 (the whole conversation, nothing measured):
#   1. a sweep of an LSG's and a BSG's sizes (zipped), 3 points, repeated
#      twice: exit 0, one controller connection per agent, 3 rounds each
#      time (the agents log rounds 2 and 3 "on the same QPs"), the JSON's
#      points in order with each point's sizes in its report, 2 repeats;
#   2. an LSG's method and size swept together (zipped: rperf, pingpong,
#      postpoll at 8, 64, 1K B), as rperf lat's --method all: 3 rounds on
#      one connection per agent, each point's method and size in the JSON;
#   3. refused (exit 2, a line naming the fix, no agent contacted):
#      --same-qps without --sweep, a swept key that is not a size or a
#      method, a BSG that draws its sizes; --check prints the rounds.
# The real run on Soft-RoCE: lab suite run-verbs (same_qps).
set -uo pipefail
rperf=${1:?usage: rounds-dry.sh RPERF}
command -v jq > /dev/null || { echo "rounds-dry: jq is needed"; exit 77; }
# shellcheck source=tests/unit/dry-agents.sh
. "$(dirname "$0")/dry-agents.sh"
dry_test_init rounds-dry
start_dry_agents 3 "$work" --key-file "$work/key" --clock posix --timeout 30s ||
	{ echo "FAIL 3 dry-run agents did not start"; exit 1; }
{
	printf '[global]\nduration = 50ms\nwarmup = 10ms\n'
	for i in 1 2 3; do printf '[host h%d]\ncontrol = 127.0.0.1:%d\n' "$i" $((base + i)); done
	printf '[lsg probe]\nfrom = h1\nto = h2\n[bsg load]\nfrom = h3\nto = h2\n'
} > "$work/job.ini"
run() { "$rperf" run --key-file "$work/key" "$@" "$work/job.ini"; }

rounds() {
	run --sweep lsg.probe.size=8,64,1K --sweep bsg.load.size=4K,16K,64K --zip \
		--same-qps --repeat 2 --out_json_file "$work/r.json" > "$work/r.txt" 2>&1 ||
		{ cat "$work/r.txt"; return 1; }
	local conns r2 r3 got
	conns=$(cat "$work"/agent*.log | grep -c ': connected$')
	r2=$(cat "$work"/agent*.log | grep -c 'round 2 of 3 on the same QPs')
	r3=$(cat "$work"/agent*.log | grep -c 'round 3 of 3 on the same QPs')
	got=$(jq -c '[.points[] | [.index, .status, (.repeats | length),
		(.report.generators[] | select(.name == "probe") | .size),
		(.report.generators[] | select(.name == "load") | .size)]]' "$work/r.json")
	echo "     connections $conns, round 2 x$r2, round 3 x$r3; points $got"
	[ "$conns" = 6 ] && [ "$r2" = 6 ] && [ "$r3" = 6 ] &&
		[ "$got" = '[[0,"ok",2,8,4096],[1,"ok",2,64,16384],[2,"ok",2,1024,65536]]' ] &&
		[ "$(grep -c '^== sweep point' "$work/r.txt")" = 6 ] &&
		[ "$(jq .same_qps "$work/r.json")" = true ] &&
		grep -q '; as rounds on the same QPs' "$work/r.txt"
}
t "3 sizes x 2 repeats as rounds on one connection per agent" rounds

methods() {
	local c0 c1 got
	c0=$(cat "$work"/agent*.log | grep -c ': connected$')
	run --sweep lsg.probe.method=rperf,pingpong,postpoll --sweep lsg.probe.size=8,64,1K \
		--zip --same-qps --out_json_file "$work/m.json" > "$work/m.txt" 2>&1 ||
		{ cat "$work/m.txt"; return 1; }
	c1=$(cat "$work"/agent*.log | grep -c ': connected$')
	got=$(jq -c '[.points[] | (.report.generators[] | select(.name == "probe") |
		[.method, .size])]' "$work/m.json")
	echo "     connections $((c1 - c0)); points $got"
	[ $((c1 - c0)) = 3 ] &&
		[ "$got" = '[["rperf",8],["pingpong",64],["postpoll",1024]]' ]
}
t "3 methods x sizes as rounds on one connection per agent" methods

refused() { # refused PART ARGS...: exit 2, stderr has PART
	local part=$1
	shift
	run "$@" > "$work/o" 2> "$work/e"
	local rc=$?
	[ "$rc" = 2 ] && grep -q -- "$part" "$work/e" || { echo "     exit $rc: $(cat "$work/e")"; return 1; }
}
t "--same-qps without --sweep" refused 'without --sweep' --same-qps
t "--same-qps over a key that is not a size" refused "only 'size' and an LSG's 'method' may be swept" \
	--same-qps --sweep global.duration=50ms,60ms
t "--same-qps with sizes drawn" refused 'draws its sizes' \
	--same-qps --sweep lsg.probe.size=8,64 --set 'bsg.load.size=4K:1,64K:1'
check() {
	"$rperf" run --check --same-qps --sweep lsg.probe.size=8,64 "$work/job.ini" > "$work/c" 2>&1 &&
		grep -q 'as rounds on the same QPs' "$work/c" || { cat "$work/c"; return 1; }
}
t "--check names the rounds" check
exit $fail
