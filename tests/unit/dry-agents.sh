# SPDX-License-Identifier: BSD-2-Clause
# Sourced by unit scripts: start_dry_agents N WORK ARGS... starts N `rperf
# agent --dry-run --bind 127.0.0.1 -p BASE+i ARGS...` (i = 1..N, logs in
# WORK/agentI.log), appends their pids to pids[] and sets base. Ports are
# below the kernel's ephemeral range (32768-60999), where an outgoing
# connection of any other test can hold one; a port taken anyway (another
# test's listener) gets a new base, up to 4 tries. Needs $rperf.
start_dry_agents() {
	local n=$1 work=$2 try i k up
	shift 2
	for ((try = 0; try < 4; try++)); do
		base=$((20000 + (RANDOM % 1200) * 10))
		local mine=()
		for ((i = 1; i <= n; i++)); do
			"$rperf" agent --dry-run --bind 127.0.0.1 -p $((base + i)) "$@" \
				> "$work/agent$i.log" 2>&1 &
			mine+=($!)
		done
		for ((k = 0; k < 100; k++)); do
			up=$(grep -l 'listening on' "$work"/agent*.log 2> /dev/null | wc -l)
			[ "$up" = "$n" ] && { pids+=("${mine[@]}"); return 0; }
			sleep 0.1
		done
		echo "     $up of $n agents listening on ports $((base + 1))-$((base + n)); another base" >&2
		tail -n 2 "$work"/agent*.log >&2
		kill "${mine[@]}" 2> /dev/null
		wait "${mine[@]}" 2> /dev/null
		rm -f "$work"/agent*.log
	done
	return 1
}

# dry_test_init NAME: $work (a temporary directory, removed at exit unless
# KEEP is set), pids=() (killed at exit), $work/key (600: the agents' and
# the controller's key), fail=0, and t NAME CMD... (an "ok" or "FAIL" line;
# a failure sets fail=1).
dry_test_init() {
	work=$(mktemp -d "/tmp/rperf-$1.XXXXXX")
	pids=()
	trap 'kill "${pids[@]}" 2> /dev/null; wait 2> /dev/null; [ -n "${KEEP:-}" ] || rm -rf "$work"' EXIT
	printf '%s key\n' "$1" > "$work/key"
	chmod 600 "$work/key"
	fail=0
}
t() { # t NAME CMD...
	local n=$1
	shift
	if "$@"; then echo "ok   $n"; else echo "FAIL $n"; fail=1; fi
}
