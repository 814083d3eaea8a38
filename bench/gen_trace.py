#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Writes a large synthetic ftrace text trace for the import benchmarks.

It repeats a real recording (default: the 2-vCPU pipe ping-pong of
shared/data/traces) back to back until SIZE_MB are written, shifting every
timestamp and the hrtimer now=/expires=/softexpires= fields of each copy by
the copy's start, so the result reads as one long, consistent trace.

    bench/gen_trace.py /tmp/big.trace.txt 1024 [SOURCE.txt[.gz]]

The file is for timing only: do not commit it.
"""
import gzip
import os
import re
import sys

TS = re.compile(rb'(\] [^ ]* +)(\d+)\.(\d{6}):')
NS_FIELDS = re.compile(rb'\b(now|expires|softexpires)=(\d+)')


def main():
    out_path = sys.argv[1]
    size = int(sys.argv[2]) * 1024 * 1024
    here = os.path.dirname(os.path.abspath(__file__))
    src = sys.argv[3] if len(sys.argv) > 3 else os.path.join(
        here, '..', '..', 'shared', 'data', 'traces', 'vm-amd-2cpu-pipe100us.ftrace.txt.gz')
    opener = gzip.open if src.endswith('.gz') else open
    with opener(src, 'rb') as f:
        lines = [l for l in f.read().split(b'\n') if l and not l.startswith(b'#')]
    first = last = None
    for l in lines:
        m = TS.search(l)
        if m:
            t = int(m.group(2)) * 1000000 + int(m.group(3))
            first = t if first is None else first
            last = t
    period_us = last - first + 1000
    written = 0
    copy = 0
    with open(out_path, 'wb') as out:
        out.write(b'# tracer: nop\n#\n')
        while written < size:
            shift_us = copy * period_us

            def ts(m):
                t = int(m.group(2)) * 1000000 + int(m.group(3)) + shift_us
                return b'%s%d.%06d:' % (m.group(1), t // 1000000, t % 1000000)

            def ns(m):
                return b'%s=%d' % (m.group(1), int(m.group(2)) + shift_us * 1000)

            chunk = b'\n'.join(NS_FIELDS.sub(ns, TS.sub(ts, l, count=1)) for l in lines) + b'\n'
            out.write(chunk)
            written += len(chunk)
            copy += 1
    print('%s: %d bytes, %d copies of %s' % (out_path, written, copy, src))


if __name__ == '__main__':
    main()
