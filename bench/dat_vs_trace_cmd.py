#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""The .dat import side by side with `trace-cmd report`, whole process.

    bench/dat_vs_trace_cmd.py [--runs N] [--cli build/release/app/cli/idlescope-cli] [FILE.dat ...]

For each file (default: the repository's tests/data/traces/*.dat) it runs
A = `idlescope-cli trace-stats FILE --format json > /dev/null` and
B = `trace-cmd report FILE > /dev/null` in turn, A B A B ..., after one
warm-up each, and prints the medians of each one's CPU time (user + system of
the process and its children, as wait4 reports them) and wall time, and the
median of the pairwise ratios A/B (pairing keeps the ratio fair when the
machine's speed drifts). The target of docs/traces.md: A/B <= 1.0.
"""
import argparse
import glob
import os
import statistics
import subprocess
import sys
import time


def run(cmd):
    start = time.monotonic()
    with open(os.devnull, "wb") as null:
        proc = subprocess.Popen(cmd, stdout=null, stderr=null)
        _, status, usage = os.wait4(proc.pid, 0)
    wall = time.monotonic() - start
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"failed ({status}): {' '.join(cmd)}")
    return usage.ru_utime + usage.ru_stime, wall


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    src = os.path.dirname(here)
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=15)
    ap.add_argument("--cli", default=os.path.join(src, "build/release/app/cli/idlescope-cli"))
    ap.add_argument("files", nargs="*")
    args = ap.parse_args()
    files = args.files or sorted(glob.glob(os.path.join(src, "tests/data/traces/*.dat")))
    print(f"{'file':34} {'A cpu ms':>9} {'B cpu ms':>9} {'A/B cpu':>8} {'A/B wall':>9}")
    for f in files:
        a_cmd = [args.cli, "trace-stats", f, "--format", "json"]
        b_cmd = ["trace-cmd", "report", f]
        run(a_cmd), run(b_cmd)  # warm the page cache and the loader
        a_cpu, b_cpu, cpu_ratio, wall_ratio = [], [], [], []
        for _ in range(args.runs):
            ac, aw = run(a_cmd)
            bc, bw = run(b_cmd)
            a_cpu.append(ac)
            b_cpu.append(bc)
            cpu_ratio.append(ac / bc)
            wall_ratio.append(aw / bw)
        print(f"{os.path.basename(f):34} {statistics.median(a_cpu) * 1e3:9.1f} {statistics.median(b_cpu) * 1e3:9.1f} "
              f"{statistics.median(cpu_ratio):8.2f} {statistics.median(wall_ratio):9.2f}")


if __name__ == "__main__":
    main()
