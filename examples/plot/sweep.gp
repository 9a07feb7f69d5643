# SPDX-License-Identifier: BSD-2-Clause
# sweep.gp - an `rperf run --sweep` as the RPerf paper's Fig 7: (a) the LSG's
# RTT (p50 and p99.9) and (b) the BSGs' total bandwidth against the swept
# value. Called by rperf-plot.sh with -e "dat='F'; out='F'; term='T';
# key='bsg.load.count'; div=1e3; unit='us'; lsg=1; bsg=1; solid=0; hollow=4"; dat columns (tab-separated): x, p50_ns, p999_ns,
# bsg_gbps, value-as-given, 1 when the samples support p99.9 (else its
# point is drawn hollow, as the table's '*'), then the 95 % interval half
# widths of p50, p99.9 and Gb/s (NaN without --repeat); bars=1 (rperf run
# --repeat N > 1: the figures are means) draws them as error bars.
set datafile separator "\t"
set datafile missing "NaN"
if (term eq "svg") {
	set terminal svg size 900,380 dynamic font "sans,11"
} else {
	set terminal pngcairo size 900,380 font "sans,10"
}
set output out
# lsg=0 (no LSG in the sweep, e.g. a one-to-one bandwidth curve): panel (b)
# alone; bsg=0: panel (a) alone; solid / hollow: how many p99.9 points the
# samples do / do not support. The plot command is built from the elements
# that have points (gnuplot warns about an element with none).
set multiplot layout 1,((lsg && bsg) ? 2 : 1)
set grid
set key top left
set xlabel key
if (lsg) {
	set ylabel sprintf("LSG RTT (%s)", unit)
	set title "(a) LSG round-trip time"
	set yrange [0:*]
	p99 = 'dat using 1:($3/div) with lines lw 2 lc 2 title "p99.9 (hollow: < 10,000 samples)"'
	if (bars) {
		cmd = 'plot dat using 1:($2/div):xticlabels(5) with linespoints pt 7 lw 2 title "p50 (mean, 95 % interval)", dat using 1:($2/div):($7/div) with yerrorbars lc 1 pt 7 notitle'
		if (solid + hollow > 0) {
			cmd = cmd . ', ' . p99 . ', dat using 1:($3/div):($8/div) with yerrorbars lc 2 pt 5 notitle'
		}
	} else {
		cmd = 'plot dat using 1:($2/div):xticlabels(5) with linespoints pt 7 lw 2 title "p50"'
		if (solid + hollow > 0) {
			cmd = cmd . ', ' . p99
		}
		if (solid > 0) {
			cmd = cmd . ', dat using 1:($6 > 0 ? $3/div : NaN) with points pt 5 ps 1.2 lc 2 notitle'
		}
	}
	if (hollow > 0) {
		cmd = cmd . ', dat using 1:($6 > 0 ? NaN : $3/div) with points pt 4 ps 1.2 lc 2 notitle'
	}
	eval cmd
}
if (bsg || !lsg) {
	set ylabel "BSG total (Gb/s, payload sent)"
	set title (lsg ? "(b) BSG bandwidth" : "BSG bandwidth (no LSG in this sweep)")
	set yrange [0:*]
	if (bars) {
		plot dat using 1:4:xticlabels(5) with linespoints pt 7 lw 2 title "all BSGs (mean, 95 % interval)", \
		     dat using 1:4:9 with yerrorbars lc 1 pt 7 notitle
	} else {
		plot dat using 1:4:xticlabels(5) with linespoints pt 7 lw 2 title "all BSGs"
	}
}
unset multiplot
