#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Small .dat seeds for fuzz_trace_dat, cut from the real traces of shared/data/traces.

The real .dat files are 1.4-3.4 MB, nearly all of it kallsyms, the formats of
event systems the trace never uses, and page padding: libFuzzer then runs a few
dozen inputs a minute. This keeps a trace-cmd v6 file's structure and its first
pages of events but drops kallsyms and every event system except power, sched,
timer, irq and ipi (the ones the importer reads); `trace-cmd report` gives the
same text for the kept pages. v7 seeds are made from these with Debian's trace-cmd:
  trace-cmd convert -i IN.dat -o OUT.dat --file-version 7 --compression none|any
(a v7 input is first turned into v6 with --file-version 6). The seeds are
committed gzip'd in tests/fuzz/seeds/fuzz_trace_dat/; run_fuzz.sh unpacks them.

usage: make_dat_seeds.py IN_V6.dat OUT.dat MAX_PAGES_PER_CPU
"""
import struct
import sys

KEEP_SYSTEMS = {b'power', b'sched', b'timer', b'irq', b'ipi'}


def u32(b, o):
    return struct.unpack_from('<I', b, o)[0]


def u64(b, o):
    return struct.unpack_from('<Q', b, o)[0]


def shrink(src, dst, max_pages):
    b = open(src, 'rb').read()
    if b[0:10] != b'\x17\x08\x44tracing' or b[10:12] != b'6\0':
        sys.exit(f'{src}: not a little-endian trace-cmd v6 file')
    page = u32(b, 14)
    o = 18
    for name in (b'header_page\0', b'header_event\0'):
        if b[o:o + len(name)] != name:
            sys.exit(f'{src}: no {name!r} at {o}')
        o += len(name)
        o += 8 + u64(b, o)
    n = u32(b, o)               # ftrace event formats
    o += 4
    for _ in range(n):
        o += 8 + u64(b, o)
    out = bytearray(b[:o])
    nsys = u32(b, o)            # event systems: name, count, formats
    o += 4
    kept = []
    for _ in range(nsys):
        start = o
        end_name = b.index(b'\0', o)
        name = b[o:end_name]
        o = end_name + 1
        count = u32(b, o)
        o += 4
        for _ in range(count):
            o += 8 + u64(b, o)
        if name in KEEP_SYSTEMS:
            kept.append(b[start:o])
    out += struct.pack('<I', len(kept)) + b''.join(kept)
    o += 4 + u32(b, o)          # kallsyms: left out
    out += struct.pack('<I', 0)
    start = o
    o += 4 + u32(b, o)          # printk formats
    o += 8 + u64(b, o)          # cmdlines
    cpus = u32(b, o)
    o += 4
    if b[o:o + 10] == b'options  \0':
        o += 10
        while True:
            oid = struct.unpack_from('<H', b, o)[0]
            o += 2
            if oid == 0:
                break
            o += 4 + u32(b, o)
    out += b[start:o]
    if b[o:o + 10] != b'flyrecord\0':
        sys.exit(f'{src}: not a flyrecord trace')
    out += b[o:o + 10]
    o += 10
    table = len(out)
    out += bytes(16 * cpus)
    out += bytes(-len(out) % page)   # the per-CPU data is page aligned
    for cpu in range(cpus):
        off, size = struct.unpack_from('<QQ', b, o + 16 * cpu)
        size = min(size, max_pages * page)
        struct.pack_into('<QQ', out, table + 16 * cpu, len(out), size)
        out += b[off:off + size]
    open(dst, 'wb').write(out)


if __name__ == '__main__':
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    shrink(sys.argv[1], sys.argv[2], int(sys.argv[3]))
