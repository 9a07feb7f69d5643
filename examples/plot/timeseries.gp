# SPDX-License-Identifier: BSD-2-Clause
# timeseries.gp - an `rperf run` report's time series (intervals[]) on one
# figure: the LSG's RTT p50 and p99 per interval (left axis) and the BSGs'
# Gb/s sent and received per interval (right axis) against the time after
# GO. Called by rperf-plot.sh with -e "dat='F'; out='F'; term='T';
# div=1e3; unit='us'; lsg='NAME'; rx=0|1"; dat: block 0 (LSG) start_s
# p50_us p99_us samples, block 1 (BSG total) start_s gbps received_gbps
# (NaN: not known); an interval without samples has NaN RTTs; rx=1: some
# received rate is known (drawn).
set datafile missing "NaN"
if (term eq "svg") {
	set terminal svg size 900,420 dynamic font "sans,11"
} else {
	set terminal pngcairo size 900,420 font "sans,10"
}
set output out
set grid
set key outside bottom center horizontal
set xlabel "time after GO (s)"
set ylabel sprintf("LSG %s RTT (%s)", lsg, unit)
set y2label rx ? "BSG total (Mb/s, payload sent, received)" : "BSG total (Mb/s, payload sent)"
set ytics nomirror
set y2tics
set yrange [0:*]
set y2range [0:*]
set title "LSG RTT per interval and BSG rate over time"
if (rx) {
plot dat index 0 using 1:($2/div) with linespoints pt 7 ps 0.6 lw 2 title "LSG p50", \
     dat index 0 using 1:($3/div) with linespoints pt 5 ps 0.6 lw 1 lc 2 title "LSG p99", \
     dat index 1 using 1:($2*1e3) axes x1y2 with steps lw 2 lc 3 title "BSG Mb/s sent", \
     dat index 1 using 1:($3*1e3) axes x1y2 with steps lw 1 dt 2 lc 4 title "BSG Mb/s received"
} else {
plot dat index 0 using 1:($2/div) with linespoints pt 7 ps 0.6 lw 2 title "LSG p50", \
     dat index 0 using 1:($3/div) with linespoints pt 5 ps 0.6 lw 1 lc 2 title "LSG p99", \
     dat index 1 using 1:($2*1e3) axes x1y2 with steps lw 2 lc 3 title "BSG Mb/s"
}
