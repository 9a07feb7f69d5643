#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# rperf run --check (issue 24): the plan of a job without any agent.
#  - every job in examples/ passes with the lab hosts map (exit 0, "check:
#    OK"), fig7-converged.ini also with the lab settings and the sweep of
#    tests/lab/suites/fig7.sh (every point printed);
#  - every file of the error corpus tests/unit/jobs/bad/*.ini fails with
#    exit 2 and FILE:LINE, LINE being the file's "expect-line: N";
#    a bad --set and a bad --sweep name the option (exit 2);
#  - no socket: each passing and each failing check runs under
#    strace -f -e trace=socket,connect,sendto,sendmsg and must make none of
#    those calls (a resolver or a dial would), nor read a key.
# Usage: run-check.sh RPERF SOURCE_DIR
set -uo pipefail
RPERF=$1
SRC=$2
pass=0 fail=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ok() { pass=$((pass + 1)); echo "ok   $*"; }
bad() { fail=$((fail + 1)); echo "FAIL $*"; }
command -v strace > /dev/null || { echo "run-check: strace is needed (tests/install-deps.sh)"; exit 77; }
cd "$SRC" || exit 1

# check WANT_RC NAME ARGS...: rperf run --check ARGS, then again under
# strace (LeakSanitizer cannot run under ptrace: leaks are checked by the
# first run, in the sanitizer build)
check() {
	local want=$1 name=$2 rc calls
	shift 2
	"$RPERF" run --check "$@" > "$tmp/out" 2> "$tmp/err"
	rc=$?
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
		strace -f -qq -e trace=socket,connect,sendto,sendmsg -o "$tmp/trace" \
		"$RPERF" run --check "$@" > /dev/null 2>&1
	calls=$(grep -cE '(socket|connect|sendto|sendmsg)\(' "$tmp/trace")
	if [ "$calls" != 0 ]; then
		bad "$name: $calls network call(s): $(grep -E '(socket|connect|sendto|sendmsg)\(' "$tmp/trace" | head -2)"
		return 1
	fi
	if [ "$rc" != "$want" ]; then
		bad "$name: exit $rc, expected $want: $(head -c 300 "$tmp/err")"
		return 1
	fi
	return 0
}

# a control: strace does see a socket (else the check above proves nothing)
ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 strace -f -qq -e trace=socket,connect -o "$tmp/trace" "$RPERF" run --insecure --timeout 1s "$SRC/tests/unit/jobs/four-hosts.ini" > /dev/null 2>&1
if grep -qE '(socket|connect)\(' "$tmp/trace"; then
	ok "control: a real rperf run is seen opening a socket under strace"
else
	bad "control: strace saw no socket of a real rperf run: $(head -3 "$tmp/trace")"
fi

map=examples/lab-hosts.ini
for f in examples/*.ini; do
	[ "$f" = "$map" ] && continue
	if check 0 "$f" --hosts-map "$map" "$f"; then
		if grep -q '^check: OK' "$tmp/out" && grep -q '^expected: ' "$tmp/out" &&
			grep -qE '^ +[0-9]+ ' "$tmp/out"; then
			ok "$f: plan printed ($(grep -c -E '^ +[0-9]+ ' "$tmp/out") instance(s)), no socket"
		else
			bad "$f: exit 0 without the plan: $(head -c 300 "$tmp/out")"
		fi
	fi
done

# fig7 as the lab runs it: the lab settings and the sweep
mapfile -t sets < <(sed -n 's/^\([a-z]\)/--set\n\1/p' examples/lab-sets.txt)
if check 0 "fig7 with the lab sets and --sweep" --hosts-map "$map" "${sets[@]}" \
	--sweep bsg.load.count=0,1,2,3 examples/fig7-converged.ini; then
	n=$(grep -c '^== sweep point' "$tmp/out")
	# point 4: 3 BSGs + the LSG, 3 s window, 1 s warm-up, BSGs from 250 ms
	if [ "$n" = 4 ] && grep -q '^expected in all: ' "$tmp/out" &&
		grep -q '4 instance(s) (1 LSG, 3 BSG)' "$tmp/out" &&
		grep -qE '^expected: 4\.[0-9]+ s from GO .*planned end 4\.250 s' "$tmp/out"; then
		ok "fig7 sweep: 4 points planned, the lab sets applied (planned end 4.250 s)"
	else
		bad "fig7 sweep: $(grep -E '^(==|expected)' "$tmp/out" | head -8)"
	fi
fi

for f in tests/unit/jobs/bad/*.ini; do
	line=$(sed -n 's/.*expect-line: \([0-9]*\).*/\1/p' "$f" | head -1)
	if check 2 "$f" "$f"; then
		if grep -q "$f:$line: " "$tmp/err" && [ "$(wc -l < "$tmp/err")" = 1 ]; then
			ok "$f: exit 2, $(head -c 120 "$tmp/err")"
		else
			bad "$f: exit 2 but not one line naming $f:$line: $(head -c 300 "$tmp/err")"
		fi
	fi
done
if check 2 "bad --set" --set bsg.nosuch.size=1 examples/fig7-converged.ini &&
	grep -q -- '--set bsg.nosuch.size=1' "$tmp/err"; then
	ok "bad --set: exit 2 naming the option"
else
	bad "bad --set: $(head -c 300 "$tmp/err")"
fi
if check 2 "bad --sweep" --sweep bsg.load.size=64,4X examples/fig7-converged.ini &&
	grep -q "4X" "$tmp/err"; then
	ok "bad --sweep value: exit 2 naming it"
else
	bad "bad --sweep: $(head -c 300 "$tmp/err")"
fi
printf '[host sink]\ncontrol = 10.0.0.1\ncpu = many\n' > "$tmp/map.ini"
if check 2 "bad hosts map" --hosts-map "$tmp/map.ini" examples/fig7-converged.ini &&
	grep -q "$tmp/map.ini:3" "$tmp/err"; then
	ok "bad hosts map: exit 2 naming MAP:3"
else
	bad "bad hosts map: $(head -c 300 "$tmp/err")"
fi
echo "run-check: $pass passed, $fail failed"
[ "$fail" = 0 ]
