#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Runs kernel governor source files through idlescope's source-governor path
(replay --governor-source) on the whole conformance kit and counts the
expected files matched: the entries row for row and the summary (usage, time,
above and below per state, entries, end time) field for field. On each kit
stream that has no expected file for a variant (irq-in-idle for most), it
checks with diff-governors, on every kit table, that the kernel's file and
the built-in variant decide alike; each such pair counts as one file.

    tests/tools/check_source_governors.py KERNEL_DIR [--cli build/release/app/cli/idlescope-cli]

KERNEL_DIR holds the kernel's own files, named by the kit variant they are
(menu-latest.c, teo-6.14.c, ladder-latest.c, haltpoll-latest.c, ...; see
tests/data/conformance/VARIANTS.md for the version and blob of each, and
check a copy with `git hash-object`; each file's line says whether it is that
blob). They are not part of idlescope: fetch them from a kernel tree, e.g.
`git show v7.0:drivers/cpuidle/governors/menu.c`.
Exit status 0 when every file of every variant given matches.
"""
import argparse
import gzip
import hashlib
import json
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
    # v7.1's two patches touch menu.c, teo.c and gov.h only: the core and idle loop are v7.0's.
    "menu-7.1": "7.0", "teo-7.1": "7.0",
}

# The git blob id of the kernel's own file of each variant (VARIANTS.md): a
# file whose `git hash-object` differs is not that file (a rebuilt copy, a
# corrupted mirror), so its count says nothing about the kernel's file.
BLOB = {
    "menu-5.10": "b0a7ad566081a2f3d9b51f3a3d52ae9263064b33",
    "teo-5.13": "ac4bb27d69b0ed9d2cd7f25d32590f3b7d5c781c",
    "teo-5.14": "d9262db79cae53c0b1d277513d014d3e91a0f879",
    "teo-6.10": "7244f71c59c5dd4a4b64141af307ef76ee2fcc77",
    "menu-6.14": "28363bfa3e4c9feb8827d97d407d53ffd6035d1c",
    "teo-6.14": "8fe5e1b47ef9082d69584edea1b479023c822009",
    "menu-1": "b19406502b569ae1ceb68ce08b4241dbda9991f6",
    "menu-2": "ec472af38de6a8d6d64d38ee9cfc7bb3fe864737",
    "menu-3": "680ff20e5528f458838eeb684942f04e0e20e157",
    "menu-4": "48ebbde750e54addaac0ea25143e732d7d262313",
    "menu-5": "30ffb1f69056dccf1b8e659afa3523d761d480a1",
    "menu-6.15": "39aa0aea61c662f9a5d8a159c73a6344f706c5d1",
    "menu-6.16": "52d5d26fc7c6433e56f337986b018f8bcc2b7c45",
    "menu-6.17": "b2e3d0b0a116dcadde8d15db08e1ae1c4d260aa1",
    "menu-6.18": "23239b0c04f95b05845e97c97116800fe0c89125",
    "menu-6.19": "64d6f7a1c7766325da05248b5e210a7dab4509d3",
    "teo-6.19": "81ac5fd58a1c6955be7ad1a1a6e44fb6c7626715",
    "menu-resthresh": "d25b04539109ed28601e5786d13e2ea06bdc48e6",
    "menu-latest": "899ff16ff1fe2c4ba918958fceb1801a842e1546",
    "teo-latest": "bec0142377b8f6df77e501aa3ec65e42be965b1d",
    "menu-7.1": "544a5d59300778675d77475f1d88e36e199e5092",
    "teo-7.1": "ac43b9b013b3fc842c7d05226fb4c20551ba3be6",
    "ladder-latest": "6617eb494a110c0642b1899163574d2f47223fa4",
    "haltpoll-latest": "b367d10279c840e269e7f10662139f3ff3f9e9fa",
}


def git_blob_id(path):
    """What `git hash-object` prints for the file."""
    data = pathlib.Path(path).read_bytes()
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


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
                summary = os.path.join(tmp, "summary.json")
                # A label of its own (a variant's id is refused as one); the
                # summaries are compared without their "variant" field.
                r = subprocess.run([a.cli, "replay", "--governor-source", str(src), "--kernel", CORE[variant],
                                    "--name", f"kernel-{variant}", "--table", str(kit / "tables" / f"{table}.json"),
                                    "--stream", str(kit / "streams" / f"{stream}.csv"), "--entries", out,
                                    "--summary", summary],
                                   capture_output=True, text=True)
                n += 1
                if r.returncode != 0:
                    failed.append(f"{variant} {exp.name}: {r.stderr.strip().splitlines()[0] if r.stderr else r.returncode}")
                    continue
                with open(out, "rb") as f, gzip.open(exp, "rb") as g:
                    got, want = f.read().splitlines(), g.read().splitlines()
                if got != want:
                    row = next((i for i, (x, y) in enumerate(zip(got, want)) if x != y), min(len(got), len(want)))
                    failed.append(f"{variant} {exp.name}: first different row {row}")
                    continue
                want_summary = exp.with_name(exp.name[: -len(".csv.gz")] + ".summary.json")
                with open(summary) as f, open(want_summary) as g:
                    got_s, want_s = json.load(f), json.load(g)
                got_s.pop("variant", None)
                want_s.pop("variant", None)
                if got_s == want_s:
                    ok += 1
                else:
                    key = next((k for k in sorted(set(got_s) | set(want_s)) if got_s.get(k) != want_s.get(k)), "?")
                    failed.append(f"{variant} {want_summary.name}: field '{key}' differs")
        # Streams whose expected files this variant lacks (irq-in-idle for most):
        # the built-in variant and the kernel's file must decide alike there too.
        for stream in sorted((kit / "streams").glob("*.csv")):
            if any((kit / "expected" / variant).glob(f"{stream.stem}__*.csv.gz")):
                continue
            for table in sorted((kit / "tables").glob("*.json")):
                r = subprocess.run([a.cli, "diff-governors", "--table", str(table), "--stream", str(stream),
                                    "--governor", variant, "--governor-source", str(src), "--kernel",
                                    CORE[variant]], capture_output=True, text=True)
                n += 1
                if r.returncode == 0 and "decide alike" in r.stdout:
                    ok += 1
                else:
                    first = (r.stdout + r.stderr).strip().splitlines()
                    failed.append(f"{variant} {stream.stem} on {table.stem} against the built-in variant: "
                                  f"{first[0] if first else r.returncode}")
        blob = git_blob_id(src)
        which = "= VARIANTS.md" if blob == BLOB[variant] else f"!= VARIANTS.md {BLOB[variant][:12]}: not the kernel's file"
        print(f"{variant:16} {ok}/{n} files match  blob {blob[:12]} {which}")
        total_ok += ok
        total += n
    print(f"total            {total_ok}/{total}")
    for f in failed[:40]:
        print("  " + f)
    return 0 if total and total_ok == total else 1


if __name__ == "__main__":
    sys.exit(main())
