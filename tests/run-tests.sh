#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# tests/run-tests.sh - the README's test command: installs what it needs,
# builds with -Werror and runs the tests through CTest (labels unit, lab,
# bench; the long label soak only when asked: `ctest -L soak`).
# CTest's summary is the last thing printed.
#   RPERF_TEST_BUILD=DIR   build directory (default build-test)
#   RPERF_CTEST_ARGS=...   extra ctest arguments (e.g. "-L unit");
#                          "-LE soak|unstable" is added unless they name the
#                          soak or unstable label (unstable: a suite
#                          out of the run until it is made stable)
#   RPERF_MPI=ON|OFF       rperf run --mpi (default: ON when mpicc is here)
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top"
bash tests/install-deps.sh
build=${RPERF_TEST_BUILD:-build-test}
start=$(date +%s)
# rperf run --mpi when Open MPI is here (install-deps.sh installs it), so
# that lab.mpi runs; RPERF_MPI=OFF builds without
mpi=${RPERF_MPI:-$(command -v mpicc > /dev/null && echo ON || echo OFF)}
cmake -S . -B "$build" -DRPERF_WERROR=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo \
	-DRPERF_MPI="$mpi"
cmake --build "$build" -j"$(nproc)"
echo "run-tests: configured and built in $(($(date +%s) - start)) s"
cd "$build"
args=${RPERF_CTEST_ARGS:-}
case " $args " in
*soak* | *unstable*) ;;
*) args="-LE soak|unstable $args" ;;
esac
# shellcheck disable=SC2086
exec ctest --output-on-failure $args
