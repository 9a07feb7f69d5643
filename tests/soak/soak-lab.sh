#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# soak-lab.sh BUILD OUT CLIENTS SECONDS TIMEOUT - the soak test (soak-vm.sh)
# in one lab VM with 2 hosts: copies BUILD's soak_client helper into OUT/bin
# (the VM sees OUT as /out) and boots the lab with BUILD's rperf.
#   ctest -L soak -R soak.servers   1,000 clients over 15 minutes
#   ctest -R lab.soak               300 clients, CI's short version
# Exit status: the lab's (0 all checks passed, 77 lab unavailable).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=$1 out=$2 clients=$3 secs=$4 tmo=$5
# RPERF_SOAK_CLIENT: the helper from another build (e.g. to soak a build
# configured without the tests)
client=${RPERF_SOAK_CLIENT:-$build/tests/soak/soak_client}
mkdir -p "$out/bin"
if [ ! -x "$client" ]; then
	echo "soak: $client is not built (cmake --build $build)"
	exit 2
fi
cp "$client" "$out/bin/soak_client"
exec "$here/../lab/rxe-lab" --build "$build" run --hosts 2 --timeout "$tmo" \
	--out "$out" "$here/soak-vm.sh" "$clients" "$secs"
