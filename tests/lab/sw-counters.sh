#!/bin/sh
# SPDX-License-Identifier: BSD-2-Clause
# sw-counters.sh [HOST...] - the lab switch's queues for rperf run's
# `[switch NAME] counters = CMD` hook: for each port hI-sw of netns sw
# (every port, or those facing the HOSTs given: h1 h3 ...), from one
# `tc -s qdisc show`, one `name value [gauge]` line each:
#   hI-sw.backlog_bytes N gauge   the root qdisc's queue now (bytes; rperf
#                                 shows the reading nearest each interval's
#                                 middle)
#   hI-sw.backlog_kib N gauge     the same in whole KiB, rounded down, as
#                                 switches count buffer cells: a probe
#                                 packet or two waiting (62 B in the lab)
#                                 reads 0, not a queue
#   hI-sw.drops N                 packets the root qdisc dropped (its
#                                 children's drops included)
#   hI-sw.ecn_marks N             packets marked CE (fq_codel/codel:
#                                 "ecn_mark", red: "marked")
#   hI-sw.sent_bytes N            bytes the root qdisc sent
# Installed in the VM as /usr/lib/rperf-lab/sw-counters. POSIX sh, one tc
# and one awk: it runs at every interval under emulation (a bash version
# with a tc per port took over 0.5 s there). Exit 1 when the switch
# namespace or a port named is missing (the hook then reports it).
# iproute2's tc by its path: busybox sh (the VM's /bin/sh) runs its own
# applet for a bare `tc`, which knows neither -s nor -n
TC=tc
for t in /usr/sbin/tc /sbin/tc /usr/bin/tc; do [ -x "$t" ] && TC=$t && break; done
want=" "
for h in "$@"; do want="$want$h-sw "; done
"$TC" -s -n sw qdisc show 2> /dev/null | awk -v want="$want" '
	function bytes(s) {
		if (s ~ /Mb$/) return int(s * 1048576)
		if (s ~ /Kb$/) return int(s * 1024)
		return int(s)
	}
	/^qdisc / {
		dev = ""
		for (i = 1; i < NF; i++) if ($i == "dev") dev = $(i + 1)
		root = ($0 ~ / root /)
		keep = (dev ~ /^h[0-9]+-sw$/) && (want == " " || index(want, " " dev " "))
		if (keep && !(dev in seen)) { seen[dev] = 1; order[++n] = dev }
		next
	}
	!keep { next }
	/ Sent / && root { sent[dev] = $2 }
	/dropped/ && root { for (i = 1; i <= NF; i++) if ($i == "(dropped") { d = $(i + 1); sub(/,/, "", d); drops[dev] = d } }
	/^ *backlog / && root { backlog[dev] = bytes($2) }
	/ marked / { for (i = 1; i <= NF; i++) if ($i == "marked") marks[dev] += $(i + 1) }
	/ecn_mark/ { for (i = 1; i <= NF; i++) if ($i == "ecn_mark") marks[dev] += $(i + 1) }
	END {
		if (!n) exit 1
		if (want != " ") {
			m = split(want, w, " ")
			for (i = 1; i <= m; i++) if (!(w[i] in seen)) exit 1
		}
		for (i = 1; i <= n; i++) {
			p = order[i]
			printf "%s.backlog_bytes %d gauge\n", p, backlog[p]
			printf "%s.backlog_kib %d gauge\n", p, int(backlog[p] / 1024)
			printf "%s.drops %d\n", p, drops[p]
			printf "%s.ecn_marks %d\n", p, marks[p]
			printf "%s.sent_bytes %d\n", p, sent[p]
		}
	}'
