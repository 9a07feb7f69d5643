#!/bin/bash
# lat-one.sh - one rperf lat measurement h2 -> h1 into /out/lat.json, for
# host-side scripts that compare boots (switch-rtt.sh: --direct vs switch).
#   rxe-lab run [--direct] --out DIR tests/lab/suites/lat-one.sh [rperf args]
. /usr/lib/rperf-lab/lab-lib.sh
timeout 120 rperf lat -d rxe_h1 --cpu 0 > /tmp/srv.log 2>&1 &
spid=$!
lab_assert_crossed 1000 timeout 120 rperf lat -d rxe_h2 --cpu 1 --out_json_file "${LAB_OUT:-/out}/lat.json" "$@" 10.77.0.1
rc=$?
wait "$spid" || rc=1
sed 's/^/  [srv] /' /tmp/srv.log
exit "$rc"
