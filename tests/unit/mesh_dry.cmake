# SPDX-License-Identifier: BSD-2-Clause
# rperf mesh against dry-run agents on 127.0.0.1: the JSON contract, the
# rounds, a dead agent's cells failed with the others kept (exit 3).
add_test(NAME unit.mesh_dry COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/mesh-dry.sh
	$<TARGET_FILE:rperf_bin>)
set_tests_properties(unit.mesh_dry PROPERTIES LABELS unit TIMEOUT 120)
