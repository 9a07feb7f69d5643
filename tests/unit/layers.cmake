# SPDX-License-Identifier: BSD-2-Clause
# The layers of src/ (src/layers.txt): unit.layers checks the tree,
# unit.words checks the comments and strings of src/ (check-words.sh),
# unit.layers_planted that both checkers fail on planted violations.
set(_l ${PROJECT_SOURCE_DIR}/tests/layers)
add_test(NAME unit.layers COMMAND bash ${_l}/check-layers.sh ${PROJECT_SOURCE_DIR})
add_test(NAME unit.layers_planted COMMAND bash ${_l}/planted-test.sh
	${PROJECT_SOURCE_DIR})
set_tests_properties(unit.layers unit.layers_planted PROPERTIES LABELS unit
	TIMEOUT 120)
add_test(NAME unit.words COMMAND bash ${_l}/check-words.sh ${PROJECT_SOURCE_DIR})
set_tests_properties(unit.words PROPERTIES LABELS unit TIMEOUT 120)
