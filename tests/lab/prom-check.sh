#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# prom-check.sh OUTDIR - --prom in the lab (suites/run-prom.sh: rperf lat,
# bw and run on real verbs, each writing JSON and Prometheus text), then
# here on the host: `promtool check metrics` (Debian's prometheus package;
# not in the VM image) must accept lat.prom, bw.prom, run.prom, mesh.prom
# and every.prom (rperf run --every's, after its last run).
# Status 77 = lab or promtool missing; ends "N passed, M failed".
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=${1:?usage: prom-check.sh OUTDIR}
command -v promtool > /dev/null || { echo "prom-check: promtool is needed (apt-get install prometheus)"; exit 77; }
mkdir -p "$out"
rm -f "$out"/*.prom "$out"/*.json
"$here/rxe-lab" run --hosts 3 --timeout 420 --out "$out" "$here/suites/run-prom.sh"
rc=$?
[ "$rc" = 77 ] && exit 77
pass=0 fail=0
for f in lat bw run mesh every; do
	if [ -s "$out/$f.prom" ] && promtool check metrics < "$out/$f.prom" > "$out/$f.lint" 2>&1; then
		echo "ok   promtool check metrics $f.prom ($(grep -c '^rperf_' "$out/$f.prom") samples)"
		pass=$((pass + 1))
	else
		echo "FAIL promtool check metrics $f.prom: $(head -3 "$out/$f.lint" 2> /dev/null)"
		fail=$((fail + 1))
	fi
done
echo "host promtool: $pass passed, $fail failed (the VM's checks above: status $rc)"
[ "$rc" = 0 ] && [ "$fail" = 0 ] || exit 1
