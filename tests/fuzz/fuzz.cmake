# SPDX-License-Identifier: BSD-2-Clause
# libFuzzer targets, built by their scripts with clang (skipped without it).
# Included from tests/CMakeLists.txt; self-contained.
add_test(NAME unit.fuzz_hist
	COMMAND sh ${PROJECT_SOURCE_DIR}/tests/fuzz/hist-fuzz.sh 30)
set_tests_properties(unit.fuzz_hist PROPERTIES LABELS unit
	SKIP_RETURN_CODE 77 TIMEOUT 300)
