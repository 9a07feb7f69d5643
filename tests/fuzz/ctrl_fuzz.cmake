# SPDX-License-Identifier: BSD-2-Clause
# libFuzzer target of the control-channel decoders, built by its script with
# clang (CTest skip, code 77, without clang/libFuzzer). Self-contained.
add_test(NAME unit.fuzz_ctrl
	COMMAND bash ${PROJECT_SOURCE_DIR}/tests/fuzz/ctrl-fuzz.sh
		${PROJECT_SOURCE_DIR} ${PROJECT_BINARY_DIR}/fuzz-ctrl 30)
set_tests_properties(unit.fuzz_ctrl PROPERTIES LABELS unit
	SKIP_RETURN_CODE 77 TIMEOUT 300)
# soak label (not in CI's default run): at least 1 M executions
add_test(NAME soak.fuzz_ctrl
	COMMAND bash ${PROJECT_SOURCE_DIR}/tests/fuzz/ctrl-fuzz.sh
		${PROJECT_SOURCE_DIR} ${PROJECT_BINARY_DIR}/fuzz-ctrl-soak runs:1000000)
set_tests_properties(soak.fuzz_ctrl PROPERTIES LABELS soak
	SKIP_RETURN_CODE 77 TIMEOUT 3600)
