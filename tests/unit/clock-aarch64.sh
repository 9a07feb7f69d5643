#!/bin/bash
# SPDX-License-Identifier: BSD-2-Clause
# Cross-build src/clock + tests/unit/clock_arch_test.c for aarch64 (static) and
# run it under qemu-aarch64. Exit 77 (CTest skip) when the tools are missing.
# Usage: clock-aarch64.sh SOURCE_DIR BUILD_DIR
set -eu

src=${1:?usage: clock-aarch64.sh SOURCE_DIR BUILD_DIR}
out=${2:?usage: clock-aarch64.sh SOURCE_DIR BUILD_DIR}
cc=${AARCH64_CC:-aarch64-linux-gnu-gcc}
qemu=${QEMU_AARCH64:-qemu-aarch64}

if ! command -v "$cc" >/dev/null 2>&1; then
	echo "SKIP: $cc not found (apt-get install gcc-aarch64-linux-gnu libc6-dev-arm64-cross)"
	exit 77
fi
if ! command -v "$qemu" >/dev/null 2>&1; then
	echo "SKIP: $qemu not found (apt-get install qemu-user)"
	exit 77
fi

mkdir -p "$out"
bin=$out/clock_arch_test.aarch64
"$cc" -static -std=gnu11 -O2 -Wall -Wextra -Wshadow -Wstrict-prototypes \
	-Wmissing-prototypes -Wformat=2 -Wvla -Werror \
	-I "$src/include" -I "$src/src" \
	-o "$bin" "$src"/src/clock/*.c "$src/tests/unit/clock_arch_test.c" -lm
file_out=$(file -b "$bin" 2>/dev/null || true)
echo "built $bin${file_out:+: $file_out}"
exec "$qemu" "$bin"
