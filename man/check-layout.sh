#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# check-layout.sh FILE.md... - Markdown that pandoc (and GitHub) would not
# render as meant: a heading ("# NAME") with no blank line before it is
# read as text of the paragraph above (the man page's "PERFTEST JSON KEYS"
# once did that) or with no blank line after it; an unclosed ``` fence.
# With pandoc present, also renders the man page and checks that every
# top-level heading of the source is a section (.SH) of the result.
set -uo pipefail
bad=0
for md in "$@"; do
	awk -v f="$md" '
		/^```/ { fence = !fence; prev = $0; next }
		!fence && /^#+ / && NR > 1 && prev != "" && prev !~ /^%/ {
			printf "%s:%d: heading without a blank line before it: %s\n", f, NR, $0; bad = 1 }
		!fence && prev ~ /^#+ / && $0 != "" {
			printf "%s:%d: no blank line after the heading %s\n", f, NR - 1, prev; bad = 1 }
		{ prev = $0 }
		END {
			if (fence) { printf "%s: a ``` fence is not closed\n", f; bad = 1 }
			exit bad }' "$md" || bad=1
done
if command -v pandoc > /dev/null; then
	for md in "$@"; do
		case $md in *.1.md) ;; *) continue ;; esac
		sh=$(pandoc -s -t man "$md" | sed -n 's/^\.SH "\{0,1\}\([^"]*\)"\{0,1\}$/\1/p' |
			sed "s/\\\\\[cq\]/'/g; s/\\\\\[aq\]/'/g")
		while read -r h; do
			grep -qxF "$h" <<< "$sh" || { echo "$md: '# $h' is no section of the rendered page"; bad=1; }
		done < <(awk '/^```/ { f = !f } !f && /^# / { sub(/^# /, ""); print }' "$md")
	done
fi
[ "$bad" = 0 ] && echo "layout ok: $*"
exit "$bad"
