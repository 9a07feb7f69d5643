# SPDX-License-Identifier: BSD-2-Clause
# Cross-build the clock module for aarch64 and run its plain-C test under
# qemu-aarch64 (skipped with exit 77 when the toolchain or qemu is missing).
add_test(NAME unit.clock_aarch64
	COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/clock-aarch64.sh
		${PROJECT_SOURCE_DIR} ${CMAKE_CURRENT_BINARY_DIR})
set_tests_properties(unit.clock_aarch64 PROPERTIES LABELS unit
	SKIP_RETURN_CODE 77 TIMEOUT 300)
