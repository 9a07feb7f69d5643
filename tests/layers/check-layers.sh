#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# check-layers.sh ROOT [TABLE] - check that the includes of ROOT/src and
# ROOT/include/rperf follow the layer table (default ROOT/src/layers.txt):
#   - no include points up or sideways to a peer on the same layer;
#   - no include cycle between folders;
#   - no folder includes another folder's private header;
#   - every folder of src/ is in the table, every exception is still used.
# Each failure is one line naming the file, the line and the two folders.
# Exit 0 when the tree follows the table, 1 when it does not, 2 on bad usage.
set -uo pipefail
root=${1:?usage: check-layers.sh ROOT [TABLE]}
here=$(cd "$(dirname "$0")" && pwd)
table=$(realpath -m "${2:-$root/src/layers.txt}")
cd "$root" || exit 2
[ -f "$table" ] || { echo "check-layers: no table $table" >&2; exit 2; }
[ -d src ] || { echo "check-layers: no src/ in $root" >&2; exit 2; }

mapfile -t files < <(find src include/rperf -type f \( -name '*.c' \
	-o -name '*.h' -o -name '*.in' \) 2>/dev/null | sort)
mapfile -t cfiles < <(printf '%s\n' "${files[@]}" | grep -E '\.[ch]$')
{
	printf 'F %s\n' "${files[@]}"
	find src -mindepth 1 -maxdepth 1 -type d | sort | sed 's/^/D /'
	grep -nH -E '^[[:space:]]*#[[:space:]]*include[[:space:]]*["<]' \
		"${cfiles[@]}" | sed 's/^/I /'
} | awk -v table="$table" -f "$here/check-layers.awk"
