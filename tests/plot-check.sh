# SPDX-License-Identifier: BSD-2-Clause
# plot-check.sh - sourced by the tests that draw plots (tests/unit/plot.sh,
# tests/lab/fig7-plot.sh).
# plot_nontrivial PREFIX CURVES SEGMENTS: PREFIX.png is a PNG (signature) of
# more than 5000 bytes; PREFIX.svg holds at least CURVES plotted curves
# (gnuplot's <g id="gnuplot_plot_..."> groups) each drawn with at least
# SEGMENTS line segments (L commands of its <path d=...>; the key's sample
# line is one): data were plotted, not an empty frame. Prints what it found.
plot_nontrivial() {
	local png=$1.png svg=$1.svg curves=$2 segs=$3 sig got
	sig=$(head -c 8 "$png" 2> /dev/null | od -An -tx1 | tr -d ' \n')
	if [ ! -s "$png" ] || [ "$(stat -c %s "$png")" -le 5000 ] || [ "$sig" != 89504e470d0a1a0a ]; then
		echo "     $png: $(stat -c %s "$png" 2> /dev/null || echo missing) bytes, signature '$sig'"
		return 1
	fi
	[ -s "$svg" ] || { echo "     $svg: missing or empty"; return 1; }
	# per curve (a path stroked in a plot colour, not the black frame or the
	# gray grid): the number of L commands in its d attribute
	got=$(awk 'BEGIN { RS = "<path" } NR > 1 && /^[^>]*stroke=.rgb\(/ {
		sub(/\/>.*/, ""); print gsub(/ L[0-9-]/, "&") }' "$svg" | tr '\n' ' ')
	echo "     $png $(stat -c %s "$png") bytes, $svg $(stat -c %s "$svg") bytes, segments per curve: ${got:-none}"
	echo "$got" | awk -v c="$curves" -v s="$segs" '{ for (i = 1; i <= NF; i++) if ($i >= s) k++ }
		END { exit !(k >= c) }'
}
