#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Regenerate (or --check) the option list of man/rperf.1.md from rperf's
# key table: update-options.sh [--check] PATH/TO/rperf. --check also checks
# that the JOB FILE section names every job-file key of the table.
set -euo pipefail
check=
[ "${1:-}" = --check ] && { check=1; shift; }
rperf=${1:?usage: update-options.sh [--check] PATH/TO/rperf}
md=$(dirname "$0")/rperf.1.md
new=$(mktemp)
trap 'rm -f "$new"' EXIT
{
	sed -n '1,/<!-- BEGIN GENERATED OPTIONS/p' "$md"
	"$rperf" --help-markdown
	sed -n '/<!-- END GENERATED OPTIONS/,$p' "$md"
} > "$new"
# Every job-file key of the key table ('rperf run --help' lists them) must
# be described in the JOB FILE section, as **key**.
job_keys_check() {
	local jobfile missing=
	jobfile=$(sed -n '/^# JOB FILE/,/^# [A-Z]/p' "$md")
	for k in $("$rperf" run --help | sed -n '/^Job-file keys/,/^$/p' | sed 1d |
		sed 's/^ *\[[a-z]*\]//; s/,/ /g'); do
		grep -qF "**$k**" <<< "$jobfile" || missing="$missing $k"
	done
	[ -z "$missing" ] && return 0
	echo "man/rperf.1.md: JOB FILE does not describe the job-file key(s)$missing" >&2
	return 1
}
if [ -n "$check" ]; then
	if diff -u "$md" "$new"; then
		echo "man/rperf.1.md options match the option table"
	else
		echo "man/rperf.1.md is out of date: run man/update-options.sh $rperf" >&2
		exit 1
	fi
	job_keys_check || exit 1
	echo "man/rperf.1.md describes every job-file key"
else
	cp "$new" "$md"
fi
