#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Regenerate (or --check) the option list of man/rperf.1.md from rperf's
# option table: update-options.sh [--check] PATH/TO/rperf
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
if [ -n "$check" ]; then
	if diff -u "$md" "$new"; then
		echo "man/rperf.1.md options match the option table"
	else
		echo "man/rperf.1.md is out of date: run man/update-options.sh $rperf" >&2
		exit 1
	fi
else
	cp "$new" "$md"
fi
