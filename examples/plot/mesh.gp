# SPDX-License-Identifier: BSD-2-Clause
# mesh.gp - the port-pair latency matrix of `rperf mesh` as a heatmap: the
# RTT (p50 or p10) of each ordered pair (row = source, column =
# destination), with its value in the cell. Called by rperf-plot.sh with -e
# "dat='F'; out='F'; term='T'; n=8; names='h1 h2 ...'; stat='p50';
# title='...'"; dat: n rows of n values (us, NaN = diagonal or not
# measured).
set datafile missing "NaN"
if (term eq "svg") {
	set terminal svg size 800,640 dynamic font "sans,11"
} else {
	set terminal pngcairo size 800,640 font "sans,10"
}
set output out
set title title
set xlabel "destination"
set ylabel "source"
set cblabel stat . " RTT (us)"
set xrange [-0.5:n-0.5]
set yrange [n-0.5:-0.5]
set xtics ()
set ytics ()
do for [i=1:n] { set xtics add (word(names, i) i-1); set ytics add (word(names, i) i-1) }
set palette defined (0 "#2c7bb6", 0.5 "#ffffbf", 1 "#d7191c")
set tics scale 0
unset key
plot dat matrix with image pixels, \
     dat matrix using 1:2:($3 == $3 ? sprintf("%.0f", $3) : "") with labels font ",9"
