#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# sw-counters.sh [HOST...] - the lab switch's queues for rperf run's
# `[switch NAME] counters = CMD` hook (issue 23): for each port hI-sw of
# netns sw (every port, or those facing the HOSTs given: h1 h3 ...), from
# `tc -s qdisc show`, one `name value [gauge]` line each:
#   hI-sw.backlog_bytes N gauge   the root qdisc's queue now (bytes; rperf
#                                 shows it per interval as read at its start)
#   hI-sw.drops N                 packets the root qdisc dropped (its
#                                 children's drops included)
#   hI-sw.ecn_marks N             packets marked CE (red: "marked",
#                                 fq_codel/codel: "ecn_mark")
#   hI-sw.sent_bytes N            bytes the root qdisc sent
# Installed in the VM as /usr/lib/rperf-lab/sw-counters. Exit 1 when the
# switch namespace or a port is missing (the hook then reports it).
set -uo pipefail
ports=()
if [ $# -gt 0 ]; then
	for h in "$@"; do ports+=("$h-sw"); done
else
	for p in $(ip -n sw -o link show 2> /dev/null | awk -F': ' '{ print $2 }' | cut -d@ -f1); do
		case $p in h*-sw) ports+=("$p") ;; esac
	done
fi
[ ${#ports[@]} -gt 0 ] || { echo "sw-counters: no switch ports (netns sw)" >&2; exit 1; }
for p in "${ports[@]}"; do
	tc -s -n sw qdisc show dev "$p" > "/tmp/sw-counters.$$" 2>&1 || { rm -f "/tmp/sw-counters.$$"; exit 1; }
	awk -v p="$p" '
		function bytes(s) {
			if (s ~ /Mb$/) return int(s * 1048576)
			if (s ~ /Kb$/) return int(s * 1024)
			return int(s)
		}
		/^qdisc / { q++; root = ($0 ~ / root /) }
		/ Sent / && root { sent = $2 }
		/dropped/ && root { for (i = 1; i <= NF; i++) if ($i == "(dropped") { d = $(i + 1); sub(/,/, "", d); drops += d } }
		/^ *backlog / && root { backlog = bytes($2) }
		/ marked / { for (i = 1; i <= NF; i++) if ($i == "marked") marks += $(i + 1) }
		/ecn_mark/ { for (i = 1; i <= NF; i++) if ($i == "ecn_mark") marks += $(i + 1) }
		END {
			if (!q) exit 1
			printf "%s.backlog_bytes %d gauge\n", p, backlog
			printf "%s.drops %d\n", p, drops
			printf "%s.ecn_marks %d\n", p, marks
			printf "%s.sent_bytes %d\n", p, sent
		}' "/tmp/sw-counters.$$" || { rm -f "/tmp/sw-counters.$$"; exit 1; }
	rm -f "/tmp/sw-counters.$$"
done
