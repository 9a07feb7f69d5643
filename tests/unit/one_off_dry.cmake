# SPDX-License-Identifier: BSD-2-Clause
# rperf agent --one-off: one controller served, then the agent exits 0.
add_test(NAME unit.one_off_dry COMMAND bash
	${CMAKE_CURRENT_SOURCE_DIR}/one-off-dry.sh $<TARGET_FILE:rperf_bin>)
set_tests_properties(unit.one_off_dry PROPERTIES LABELS unit TIMEOUT 120
	SKIP_RETURN_CODE 77)
