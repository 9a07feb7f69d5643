# SPDX-License-Identifier: BSD-2-Clause
# Code-quality checks as unit tests (see quality.sh).
set(_q ${CMAKE_CURRENT_SOURCE_DIR}/quality.sh)
add_test(NAME unit.format COMMAND bash ${_q} format ${PROJECT_SOURCE_DIR})
add_test(NAME unit.cppcheck COMMAND bash ${_q} cppcheck ${PROJECT_SOURCE_DIR})
add_test(NAME unit.size COMMAND bash ${_q} size ${PROJECT_SOURCE_DIR})
set_tests_properties(unit.format unit.cppcheck unit.size PROPERTIES
	LABELS unit SKIP_RETURN_CODE 77 TIMEOUT 600)
if(NOT RPERF_SANITIZE)
	add_test(NAME unit.asan COMMAND bash ${_q} asan ${PROJECT_SOURCE_DIR}
		${PROJECT_BINARY_DIR}/asan)
	set_tests_properties(unit.asan PROPERTIES LABELS unit TIMEOUT 1500
		SKIP_RETURN_CODE 77)
endif()

# The binary's contract: exit codes, one-line errors, info JSON keys.
add_test(NAME unit.cli_exit COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/cli-exit.sh
	$<TARGET_FILE:rperf_bin>)
set_tests_properties(unit.cli_exit PROPERTIES LABELS unit TIMEOUT 120)
