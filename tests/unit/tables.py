#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause
"""unit.tables: rperf lat's and bw's text tables as a perftest user's
script reads them (render_tables prints reports of known figures).

- Every row splits on whitespace into as many fields as the header has
  columns; every field of a numeric column goes through float() (no '*'
  or unit glued to a number); the words allowed are the method, figure
  and verb columns', "n/a" in the receiver's columns of a WRITE and
  "-" in the wire/loop columns of a pingpong row and in line% where the
  port's rate is unknown (--wide).
- perftest's columns come first, by position: lat #bytes #iterations
  t_min t_max t_typical t_avg t_stdev 99% 99.9% (CPU_Util[%] tenth with
  --cpu_util), bw #bytes #iterations BW peak, BW average, MsgRate.
- The default tables (and their legends) fit in 120 columns; --wide may
  be wider, and so may a table with the user's own --percentiles. The
  percentiles with too few samples are named under the table.
- --half-rtt halves the RTT columns and says RTT/2 in the figure column.
"""
import subprocess
import sys

RENDER = sys.argv[1]
WORDS = {"rperf", "pingpong", "postpoll", "RTT", "RTT/2", "send", "write",
         "write_imm", "read", "atomic"}
LAT_WIDE = ["#bytes", "#iterations", "t_min[usec]", "t_max[usec]",
            "t_typical[usec]", "t_avg[usec]", "t_stdev[usec]",
            "99% percentile[usec]", "99.9% percentile[usec]"]
LAT_BRIEF = ["#bytes", "#iterations", "t_min", "t_max", "t_typical",
             "t_avg", "t_stdev", "99%", "99.9%"]
failures = []


def fail(msg):
    failures.append(msg)
    print("FAIL:", msg)


def render(mode):
    return subprocess.run([RENDER, mode], check=True, capture_output=True,
                          text=True).stdout


def table(out):
    """(header line, [row field lists]) of the first table."""
    lines = out.splitlines()
    i = next(k for k, l in enumerate(lines) if l.split()[:1] == ["#bytes"])
    rows = []
    for l in lines[i + 1:]:
        if not l.strip():
            break
        rows.append(l.split())
    return lines[i], rows


def header_names(hdr, wide_names):
    """Column names; the full perftest names hold spaces."""
    for n in wide_names:
        hdr = hdr.replace(n, n.replace(" ", "_"))
    return hdr.split()


def check_numbers(mode, names, rows):
    for r in rows:
        if len(r) != len(names):
            fail(f"{mode}: row {r} has {len(r)} fields, header {len(names)}")
            continue
        for name, v in zip(names, r):
            if v in WORDS and name in ("method", "figure", "verb"):
                continue
            if v == "n/a" and name.startswith("rx_") and "write" in r:
                continue
            if v == "-" and name.startswith(("wire_", "loop_")) and \
                    "pingpong" in r:
                continue  # --wide: no wire/loop times for pingpong
            if v == "-" and name == "line%" and "write" in r:
                continue  # --wide: that row's port rate is unknown
            try:
                float(v)
            except ValueError:
                fail(f"{mode}: column {name}: float({v!r}) fails in {r}")


def check_width(mode, out):
    for l in out.splitlines():
        if len(l) > 120:
            fail(f"{mode}: {len(l)} columns: {l[:60]}...")


def lat_mode(mode, first, wide):
    out = render(mode)
    hdr, rows = table(out)
    names = header_names(hdr, LAT_WIDE)
    if names[:9] != [n.replace(" ", "_") for n in first]:
        fail(f"{mode}: perftest's columns {names[:9]}")
    check_numbers(mode, names, rows)
    if not wide:
        check_width(mode, out)
    if "too few samples for p99.9 (it needs 10000): 2 B rperf, " \
            "8388608 B rperf\n" not in out:
        fail(f"{mode}: no note naming the rows with too few samples")
    print(f"{mode}: {len(rows)} rows, {len(names)} columns, "
          f"{max(len(l) for l in out.splitlines())} wide")
    return out, names, rows


def main():
    out, names, rows = lat_mode("lat", LAT_BRIEF, False)
    if names[9:] != ["method", "figure"]:
        fail(f"lat: extras {names[9:]}")
    full = {r[0]: r for r in rows}
    _, _, hrows = lat_mode("lat-half", LAT_BRIEF, False)
    for r in hrows:
        f = full[r[0]]
        if r[-1] != "RTT/2" or f[-1] != "RTT":
            fail(f"lat-half: figure {f[-1]} -> {r[-1]}")
        for k in range(2, 9):
            if abs(float(r[k]) - float(f[k]) / 2) > 0.0015:
                fail(f"lat-half: column {k + 1}: {r[k]} != {f[k]} / 2")
    # --cpu_util adds perftest's 10th column: no width promised
    _, names, _ = lat_mode("lat-cpu", LAT_BRIEF, True)
    if names[9] != "CPU_Util[%]":
        fail(f"lat-cpu: column 10 is {names[9]}")
    # the user's own --percentiles add columns: no width promised
    _, names, _ = lat_mode("lat-pcts", LAT_BRIEF, True)
    if "p90[usec]" not in names:
        fail("lat-pcts: --percentiles 90 has no column")
    _, names, _ = lat_mode("lat-wide", LAT_WIDE, True)
    for n in ("p99.99[usec]", "wire_p50[usec]", "loop_p99.9[usec]"):
        if n not in names:
            fail(f"lat-wide: no {n}")
    for mode in ("bw", "bw-wide", "bw-cpu"):
        out = render(mode)
        hdr, rows = table(out)
        names = header_names(hdr, ["BW peak[MB/sec]", "BW average[MB/sec]"])
        if names[:5] != ["#bytes", "#iterations", "BW_peak[MB/sec]",
                         "BW_average[MB/sec]", "MsgRate[Mpps]"]:
            fail(f"{mode}: perftest's columns {names[:5]}")
        if mode == "bw-cpu" and names[5] != "CPU_Util[%]":
            fail(f"bw-cpu: column 6 is {names[5]}")
        check_numbers(mode, names, rows)
        if mode != "bw-wide":
            check_width(mode, out)
        elif "line%" not in names:
            fail("bw-wide: no line% column")
        print(f"{mode}: {len(rows)} rows, {len(names)} columns, "
              f"{max(len(l) for l in out.splitlines())} wide")
    if failures:
        sys.exit(1)
    print("ok")


main()
