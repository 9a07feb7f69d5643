#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# planted-test.sh ROOT - the layer checker must fail where it should: on a copy
# of ROOT's src/ and include/rperf/ it plants, one at a time,
#   1. an include that points up (util -> cli) and closes a cycle (cli -> util),
#   2. an include of a peer on the same layer (clock -> hist), no cycle,
#   3. an include of another folder's private header,
#   4. a folder on no layer, and an exception that matches nothing,
# and checks that check-layers.sh exits 1 naming the file, line and folders.
# The unmodified copy must pass, so a failure is the planted one.
set -uo pipefail
root=$(cd "${1:?usage: planted-test.sh ROOT}" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
bad=0

fresh() {
	rm -rf "$tmp/tree"
	mkdir -p "$tmp/tree/include"
	cp -r "$root/src" "$tmp/tree/src"
	cp -r "$root/include/rperf" "$tmp/tree/include/rperf"
}

# expect RC PATTERN...: run the checker on the copy, want exit RC and each
# pattern (a fixed string) in its output
expect() {
	local want=$1 out rc p
	shift
	out=$(bash "$here/check-layers.sh" "$tmp/tree" 2>&1)
	rc=$?
	if [ "$rc" != "$want" ]; then
		echo "FAIL ($case): exit $rc, want $want; output:"
		echo "$out"
		bad=1
		return
	fi
	for p in "$@"; do
		if ! grep -qF -- "$p" <<<"$out"; then
			echo "FAIL ($case): no '$p' in:"
			echo "$out"
			bad=1
			return
		fi
	done
	echo "ok ($case): exit $rc"
	[ "$want" = 0 ] || echo "$out" | grep -v '^exception:' | sed 's/^/    /'
}

case="the tree as it is"
fresh
expect 0 "layers: "

case="planted upward include"
fresh
printf '%s\n' '/* SPDX-License-Identifier: BSD-2-Clause */' \
	'#include "util/units.h"' '#include "cli/cli.h"' \
	> "$tmp/tree/src/util/planted.c"
expect 1 'src/util/planted.c:3: util -> cli: "cli/cli.h" points up' \
	'include cycle between folders: ' 'util -> cli (src/util/planted.c:3)'

case="planted peer include"
fresh
printf '%s\n' '/* SPDX-License-Identifier: BSD-2-Clause */' \
	'#include <rperf/hist.h>' > "$tmp/tree/src/clock/planted.c"
expect 1 'src/clock/planted.c:2: clock -> hist: "rperf/hist.h" includes a peer'
if grep -q 'include cycle' <<<"$(bash "$here/check-layers.sh" "$tmp/tree")"; then
	echo "FAIL ($case): a cycle reported where there is none"; bad=1
fi

case="planted private header"
fresh
printf '%s\n' '/* SPDX-License-Identifier: BSD-2-Clause */' \
	'#include "clock/clock_priv.h"' > "$tmp/tree/src/gen/planted.c"
expect 1 'src/gen/planted.c:2: gen -> clock: "clock/clock_priv.h" is private to clock'

case="folder on no layer, stale exception"
fresh
mkdir "$tmp/tree/src/newfolder"
echo 'except util/units.c cli/cli.h why not' >> "$tmp/tree/src/layers.txt"
expect 1 'src/newfolder: the folder is on no layer' \
	'the exception for src/util/units.c including "cli/cli.h" matches no include'

exit $bad
