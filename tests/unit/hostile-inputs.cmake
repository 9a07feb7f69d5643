# SPDX-License-Identifier: BSD-2-Clause
# FIFO and directory inputs refused without blocking; SIGHUP stops run and
# agent like SIGTERM (issue 19). Loopback only (dry-run agents).
add_test(NAME unit.hostile_inputs COMMAND bash
	${CMAKE_CURRENT_SOURCE_DIR}/hostile-inputs.sh $<TARGET_FILE:rperf_bin>)
set_tests_properties(unit.hostile_inputs PROPERTIES LABELS unit TIMEOUT 120)
