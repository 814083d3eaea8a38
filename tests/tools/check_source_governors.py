#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Runs kernel governor source files through idlescope's source-governor path
(replay --governor-source) on the whole conformance kit and counts the
expected files matched row for row.

    tests/tools/check_source_governors.py KERNEL_DIR [--cli build/release/app/cli/idlescope-cli]

KERNEL_DIR holds the kernel's own files, named by the kit variant they are
(menu-latest.c, teo-6.14.c, ladder-latest.c, haltpoll-latest.c, ...; see
tests/data/conformance/VARIANTS.md for the version and blob of each, and
check a copy with `git hash-object`). They are not part of idlescope: fetch
them from a kernel tree, e.g. `git show v7.0:drivers/cpuidle/governors/menu.c`.
Exit status 0 when every file of every variant given matches.
"""
import argparse
import gzip
import os
import pathlib
import subprocess
import sys
import tempfile

HERE = pathlib.Path(__file__).resolve().parent
KIT = HERE.parent / "data" / "conformance"

# The kernel whose cpuidle core and idle loop each variant's expected files
# were recorded with (VARIANTS.md): the poll-time rule changed in v5.11, the
# idle loop in v7.0.
CORE = {
    "menu-5.10": "5.10", "teo-5.13": "5.13", "teo-5.14": "5.14", "teo-6.10": "6.10",
    "menu-6.14": "6.14", "teo-6.14": "6.14", "menu-1": "6.14", "menu-2": "6.14", "menu-3": "6.14",
    "menu-4": "6.14", "menu-5": "6.14", "menu-6.15": "6.15", "menu-6.16": "6.16", "menu-6.17": "6.17",
    "menu-6.18": "6.18", "menu-6.19": "6.19", "teo-6.19": "6.19", "menu-resthresh": "6.17",
    "menu-latest": "7.0", "teo-latest": "7.0", "ladder-latest": "7.0", "haltpoll-latest": "7.0",
}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("kernel_dir")
    ap.add_argument("--cli", default=str(HERE.parent.parent / "build/release/app/cli/idlescope-cli"))
    ap.add_argument("--kit", default=str(KIT))
    a = ap.parse_args()
    kit = pathlib.Path(a.kit)
    total_ok = total = 0
    failed = []
    for src in sorted(pathlib.Path(a.kernel_dir).glob("*.c")):
        variant = src.stem
        if variant not in CORE:
            print(f"{src.name}: not a kit variant name, skipped", file=sys.stderr)
            continue
        ok = n = 0
        for exp in sorted((kit / "expected" / variant).glob("*.csv.gz")):
            stream, table = exp.name[: -len(".csv.gz")].split("__")
            with tempfile.TemporaryDirectory() as tmp:
                out = os.path.join(tmp, "entries.csv")
                r = subprocess.run([a.cli, "replay", "--governor-source", str(src), "--kernel", CORE[variant],
                                    "--table", str(kit / "tables" / f"{table}.json"),
                                    "--stream", str(kit / "streams" / f"{stream}.csv"), "--entries", out],
                                   capture_output=True, text=True)
                n += 1
                if r.returncode != 0:
                    failed.append(f"{variant} {exp.name}: {r.stderr.strip().splitlines()[0] if r.stderr else r.returncode}")
                    continue
                with open(out, "rb") as f, gzip.open(exp, "rb") as g:
                    got, want = f.read().splitlines(), g.read().splitlines()
                if got == want:
                    ok += 1
                else:
                    row = next((i for i, (x, y) in enumerate(zip(got, want)) if x != y), min(len(got), len(want)))
                    failed.append(f"{variant} {exp.name}: first different row {row}")
        print(f"{variant:16} {ok}/{n} files match row for row")
        total_ok += ok
        total += n
    print(f"total            {total_ok}/{total}")
    for f in failed[:40]:
        print("  " + f)
    return 0 if total and total_ok == total else 1


if __name__ == "__main__":
    sys.exit(main())
