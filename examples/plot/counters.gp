# SPDX-License-Identifier: BSD-2-Clause
# counters.gp - an `rperf run` report's latency and counters on one time
# axis: the first LSG's RTT p99 per interval (left axis) and its
# top-ranked counters (Spearman with the p99; JSON counters.tail), each
# scaled to its own largest value (right axis, 0..1). Called by
# rperf-plot.sh with -e "dat='F'; out='F'; term='T'; div=1e3; unit='us';
# lsg='NAME'; n=K; names='A B C'"; dat: block 0 start_s p99_us, block
# 1..K start_s value/max of counter K.
set datafile missing "NaN"
if (term eq "svg") {
	set terminal svg size 900,440 dynamic font "sans,11"
} else {
	set terminal pngcairo size 900,440 font "sans,10"
}
set output out
set termoption noenhanced # counter names hold underscores
set grid
set key outside bottom center horizontal
set xlabel "time after GO (s)"
set ylabel sprintf("LSG %s RTT p99 (%s)", lsg, unit)
set y2label "counter per interval / its largest"
set ytics nomirror
set y2tics
set yrange [0:*]
set y2range [0:1.05]
set title "LSG p99 and the counters that rose with it"
plot dat index 0 using 1:($2/div) with linespoints pt 7 ps 0.6 lw 2 title "LSG p99", \
     for [i=1:n] dat index i using 1:2 axes x1y2 with steps lw 1.5 lc i+1 title word(names, i)
