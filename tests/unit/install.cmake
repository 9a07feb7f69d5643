# SPDX-License-Identifier: BSD-2-Clause
# The newcomer's install path: a fresh build of rperf_bin only (as
# `rxe-lab demo`), cmake --install --prefix, rperf.pc through pkg-config,
# a program linked against the installed librperf (install.sh).
add_test(NAME unit.install COMMAND bash
	${CMAKE_CURRENT_SOURCE_DIR}/install.sh ${PROJECT_SOURCE_DIR}
	${PROJECT_BINARY_DIR}/install-test)
set_tests_properties(unit.install PROPERTIES LABELS unit TIMEOUT 900)
