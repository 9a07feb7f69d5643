# SPDX-License-Identifier: BSD-2-Clause
# rperf run --sweep ... --same-qps against dry-run agents on 127.0.0.1: the
# rounds on one connection, the JSON's points, the refusals.
add_test(NAME unit.rounds_dry COMMAND bash
	${CMAKE_CURRENT_SOURCE_DIR}/rounds-dry.sh $<TARGET_FILE:rperf_bin>)
set_tests_properties(unit.rounds_dry PROPERTIES LABELS unit TIMEOUT 120
	SKIP_RETURN_CODE 77)
