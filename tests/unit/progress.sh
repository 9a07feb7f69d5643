#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# unit.progress_tty: the progress line of a long run on a terminal, never in a
# file. Two dry-run agents (no RDMA device) on 127.0.0.1 serve a 3-point
# `rperf run --sweep` of 1 s points:
#   - under a pseudo-terminal (python3's pty): stderr shows
#     "rperf run --sweep: KEY = VALUE, k of 3, elapsed ..., ... left",
#     redrawn in place (\r) and erased at the end;
#   - stdout and stderr to files: no progress text in either;
#   - --quiet under the pseudo-terminal: none.
# usage: progress.sh RPERF
set -uo pipefail
rperf=${1:?usage: progress.sh RPERF}
work=$(mktemp -d /tmp/rperf-progress.XXXXXX)
pids=()
cleanup() {
	[ ${#pids[@]} -gt 0 ] && kill "${pids[@]}" 2> /dev/null
	wait 2> /dev/null
	rm -rf "$work"
}
trap cleanup EXIT
base=$((21000 + (RANDOM % 400) * 20))
printf 'progress test key\n' > "$work/key" # the channel is TLS-PSK
chmod 600 "$work/key"
for i in 1 2; do
	"$rperf" agent --dry-run --key-file "$work/key" --bind 127.0.0.1 -p $((base + i)) --clock posix \
		--timeout 30s > "$work/agent$i.log" 2>&1 &
	pids+=($!)
done
for _ in $(seq 100); do
	grep -q 'listening on' "$work/agent1.log" && grep -q 'listening on' "$work/agent2.log" && break
	sleep 0.1
done
printf '[global]\nduration = 1s\nwarmup = 100ms\ntimeout = 20s\n[host h1]\ncontrol = 127.0.0.1:%d\n[host h2]\ncontrol = 127.0.0.1:%d\n[lsg probe]\nfrom = h2\nto = h1\n' \
	$((base + 1)) $((base + 2)) > "$work/job.ini"
cmd=("$rperf" run --key-file "$work/key" --sweep lsg.probe.size=64,128,256 "$work/job.ini")
bad=0

# under a pseudo-terminal: everything the terminal got, \r and escapes kept
# (pty.spawn copies the terminal's output to its stdout too: dropped)
python3 - "$work/tty.out" "${cmd[@]}" > /dev/null <<'PY'
import os, pty, sys
out = open(sys.argv[1], "wb")
def read(fd):
    data = os.read(fd, 4096)
    out.write(data)
    return data
status = pty.spawn(sys.argv[2:], read)
out.close()
sys.exit(os.waitstatus_to_exitcode(status))
PY
rc=$?
n=$(grep -ao 'rperf run --sweep: lsg.probe.size = [0-9]*, [123] of 3, elapsed [0-9]* s' "$work/tty.out" | sort -u | wc -l)
echo "tty: exit $rc, $n distinct progress lines: $(grep -ao 'rperf run --sweep: [^\r]*' "$work/tty.out" | sort -u | head -4 | tr '\n' '|')"
[ "$rc" = 0 ] && [ "$n" -ge 2 ] || { echo "FAIL: no progress line on the terminal"; bad=1; }
grep -aq 'of 3, elapsed [0-9]* s, about [0-9]' "$work/tty.out" || { echo "FAIL: no estimate of what is left"; bad=1; }
grep -aq $'\r\033\\[K' "$work/tty.out" || { echo "FAIL: the line is not redrawn in place"; bad=1; }
tail -c 200 "$work/tty.out" | grep -aq 'rperf run --sweep: ' && { echo "FAIL: the line is not erased before the table"; bad=1; }
grep -aq 'sweep lsg.probe.size: 3 points' "$work/tty.out" || { echo "FAIL: no sweep table"; bad=1; }

# to files: nothing of it
"${cmd[@]}" > "$work/file.out" 2> "$work/file.err"
rc=$?
echo "files: exit $rc, stdout $(wc -c < "$work/file.out") B, stderr $(wc -c < "$work/file.err") B"
[ "$rc" = 0 ] || { echo "FAIL: the run to files exited $rc"; cat "$work/file.err"; bad=1; }
if grep -aq 'rperf run --sweep: ' "$work/file.out" "$work/file.err" || grep -aq $'\033' "$work/file.out" "$work/file.err"; then
	echo "FAIL: progress text in a file"
	bad=1
fi

# --quiet on the terminal: nothing of it either
python3 - "$work/quiet.out" "${cmd[@]:0:2}" --quiet "${cmd[@]:2}" > /dev/null <<'PY'
import os, pty, sys
out = open(sys.argv[1], "wb")
def read(fd):
    data = os.read(fd, 4096)
    out.write(data)
    return data
sys.exit(os.waitstatus_to_exitcode(pty.spawn(sys.argv[2:], read)))
PY
rc=$?
echo "--quiet on the terminal: exit $rc"
[ "$rc" = 0 ] && ! grep -aq 'rperf run --sweep: \|'$'\033' "$work/quiet.out" || { echo "FAIL: --quiet still shows progress (or exit $rc)"; bad=1; }
[ "$bad" = 0 ] && echo "ok"
exit "$bad"
