#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# check-words.sh ROOT - the words of src/ and include/ (C comments and string
# literals): every file a comment names (foo.c, engine/spec.h, tests/...)
# exists, and nothing says how rperf was developed ("the brief", "issue 14",
# "seed 002", "session note", "integrator"). Each failure is one line with
# the file and line. Exit 0 when clean, 1 when not, 2 on bad usage.
set -uo pipefail
root=${1:?usage: check-words.sh ROOT}
here=$(cd "$(dirname "$0")" && pwd)
cd "$root" || exit 2

# Files of other projects that comments cite by name.
external="perftest_communication.c"
# Known and named, path:phrase separated by '|': text a later change
# removes with its file (none today).
legacy=""

if ! mapfile -t list < <(git ls-files --cached --others --exclude-standard \
	2>/dev/null) || [ ${#list[@]} = 0 ]; then
	mapfile -t list < <(find . -path ./build -prune -o -type f -print |
		sed 's|^\./||')
fi
{
	printf 'F %s\n' "${list[@]}"
	printf '%s\n' "${list[@]}" | grep -E '^(src|include)/.*\.[ch]$' |
		while read -r f; do
			[ -f "$f" ] || continue
			printf '\001C %s\n' "$f"
			cat "$f"
		done
} | awk -v external="$external" -v legacy="$legacy" -f "$here/check-words.awk"
