# SPDX-License-Identifier: BSD-2-Clause
# examples/plot/rperf-plot.sh (gnuplot, jq) on recorded lab results.
add_test(NAME unit.plot COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/plot.sh
	${PROJECT_SOURCE_DIR} ${CMAKE_CURRENT_BINARY_DIR}/plot)
set_tests_properties(unit.plot PROPERTIES LABELS unit TIMEOUT 120)
