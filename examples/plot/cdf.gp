# SPDX-License-Identifier: BSD-2-Clause
# cdf.gp - the RTT CDF of `rperf lat --hist FILE`: one curve per message
# size (and --repeat). Called by rperf-plot.sh with -e "dat='F'; out='F';
# term='T'; titles='64B 4096B'; xlo=1; xhi=100; logx=1" (us; logx=1: log
# scale from the smallest positive RTT at or above p0.1 to the largest
# p99.9 of the curves, so that a far tail does not squash the body; logx=0
# when that spans less than a decade: linear, where a log axis would have
# no tick, from p0.1 whatever its sign); dat: blocks (two blank lines apart) of
# "value_ns fraction", one per curve, in the order of titles.
if (term eq "svg") {
	set terminal svg size 640,420 dynamic font "sans,11"
} else {
	set terminal pngcairo size 640,420 font "sans,10"
}
set output out
set grid
set key bottom right
set xlabel "RTT (us)"
set ylabel "fraction of samples <= RTT"
set yrange [0:1.02]
set xrange [xlo:xhi]
if (logx) {
	set logscale x
	set title "RTT CDF (rperf lat --hist; log x up to p99.9; y counts every sample)"
} else {
	set title "RTT CDF (rperf lat --hist; x from p0.1 to p99.9; y counts every sample)"
}
n = words(titles)
plot for [i = 1:n] dat index (i - 1) using ($1/1000):2 with steps lw 2 title word(titles, i)
