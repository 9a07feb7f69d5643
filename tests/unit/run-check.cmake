# SPDX-License-Identifier: BSD-2-Clause
# rperf run --check (issue 24): every example plans with the lab hosts map,
# the error corpus (tests/unit/jobs/bad) fails with FILE:LINE, no socket.
add_test(NAME unit.run_check COMMAND bash
	${CMAKE_CURRENT_SOURCE_DIR}/run-check.sh $<TARGET_FILE:rperf_bin>
	${PROJECT_SOURCE_DIR})
set_tests_properties(unit.run_check PROPERTIES LABELS unit TIMEOUT 120
	SKIP_RETURN_CODE 77)
