#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
#
# Bounded fuzz run of every input kind, one command:
#   tests/fuzz/run_fuzz.sh [SECONDS_PER_TARGET]      (default 60)
# Configures build/fuzz with clang, builds only the libFuzzer targets (the trace
# sources, the engine and file-format sources, with ASan/UBSan), seeds their corpora
# (text traces of tests/data/traces cut into small pieces; small cuts of its .dat
# files from tests/fuzz/seeds; the repository's tables, cpupower texts, streams,
# workload specs, --set lines, sysfs trees, session files, shard files, power data,
# machine and closed-loop specs) and runs `ctest -L fuzz`. IDLESCOPE_FUZZ_SEED sets
# libFuzzer's -seed (CI: 1). Any crash, leak, UBSan report or per-input timeout fails
# the run: the script exits non-zero and leaves the input in
# build/fuzz/tests/fuzz/crash-<target>-{crash,leak,timeout,oom}-*; copy it into tests/fuzz/regressions/<target>/
# (tst_trace_fuzz_regressions replays that folder in the ordinary test run) and fix
# the importer. ("slow-unit-*" files are notices, not failures.)
set -eu
SECONDS_PER_TARGET=${1:-60}
SRC=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${IDLESCOPE_FUZZ_BUILD:-$SRC/build/fuzz}
TRACES=$SRC/tests/data/traces

CC=clang CXX=clang++ cmake -S "$SRC" -B "$BUILD" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DIDLESCOPE_BUILD_FUZZERS=ON -DIDLESCOPE_BUILD_GUI=OFF -DIDLESCOPE_BUILD_BENCH=OFF \
    -DIDLESCOPE_FUZZ_SECONDS="$SECONDS_PER_TARGET" -DIDLESCOPE_FUZZ_SEED="${IDLESCOPE_FUZZ_SEED:-0}" >/dev/null
ENGINE_TARGETS="fuzz_table_json fuzz_cpupower fuzz_sysfs fuzz_stream_csv fuzz_workload_spec fuzz_settings fuzz_session_json
    fuzz_compare_shard fuzz_power fuzz_machine_spec fuzz_closed_loop_spec"
cmake --build "$BUILD" --target fuzz_trace_text fuzz_trace_dat fuzz_dat_reader $ENGINE_TARGETS -j2

CORPUS=$BUILD/tests/fuzz/corpus
mkdir -p "$CORPUS/fuzz_trace_text" "$CORPUS/fuzz_trace_dat"
# Text seeds: the head and a middle piece of every text trace (small inputs fuzz fast).
for f in "$TRACES"/*.txt "$TRACES"/*.txt.gz; do
    [ -e "$f" ] || continue
    name=$(basename "$f")
    case "$f" in *.gz) cat_cmd="gzip -dc" ;; *) cat_cmd="cat" ;; esac
    $cat_cmd "$f" | head -n 120 > "$CORPUS/fuzz_trace_text/seed-head-$name"
    $cat_cmd "$f" | sed -n '2000,2120p' > "$CORPUS/fuzz_trace_text/seed-mid-$name"
done
# .dat seeds: the real .dat files cut small (tests/fuzz/make_dat_seeds.py; v6, v7, v7 with
# zstd). Whole, they are 1.4-3.4 MB of mostly kallsyms and padding: a few dozen runs a minute.
rm -f "$CORPUS"/fuzz_trace_dat/seed-*
for f in "$SRC"/tests/fuzz/seeds/fuzz_trace_dat/*.dat.gz; do
    gzip -dc "$f" > "$CORPUS/fuzz_trace_dat/seed-$(basename "$f" .gz)"
done
# Engine seeds: the files of each kind the repository holds, the ones of tests/fuzz/seeds
# (sysfs trees as PATH=CONTENT lines, workload specs, --set lines, sessions, shards, power data,
# machine and closed-loop specs) and, for streams, the
# first 40 rows of each conformance stream.
for t in $ENGINE_TARGETS; do
    mkdir -p "$CORPUS/$t"
    rm -f "$CORPUS/$t"/seed-*
    for f in "$SRC"/tests/fuzz/seeds/$t/*; do
        [ -e "$f" ] && cp "$f" "$CORPUS/$t/seed-$(basename "$f")"
    done
done
for f in "$SRC"/resources/targets/*.json "$SRC"/tests/data/conformance/tables/*.json "$SRC"/tests/data/reliability/table-*.json; do
    [ -e "$f" ] && cp "$f" "$CORPUS/fuzz_table_json/seed-$(basename "$f")"
done
for f in "$SRC"/tests/data/reliability/cpupower-*.txt; do
    [ -e "$f" ] && cp "$f" "$CORPUS/fuzz_cpupower/seed-$(basename "$f")"
done
for f in "$SRC"/tests/data/conformance/streams/*.csv; do
    [ -e "$f" ] && head -n 40 "$f" > "$CORPUS/fuzz_stream_csv/seed-$(basename "$f")"
done
for f in "$SRC"/tests/data/reliability/stream-*; do
    [ -e "$f" ] && cp "$f" "$CORPUS/fuzz_stream_csv/seed-$(basename "$f")"
done
# Each target's temporary files (fuzz_sysfs's trees) in a folder of the run's own, which must be
# empty again afterwards: a target that left files would fill /tmp one CI run after another.
FUZZ_TMP=$BUILD/tests/fuzz/tmp
rm -rf "$FUZZ_TMP"
mkdir -p "$FUZZ_TMP"
cd "$BUILD" && TMPDIR=$FUZZ_TMP ctest -L fuzz --output-on-failure
if [ -n "$(ls -A "$FUZZ_TMP")" ]; then
    echo "run_fuzz.sh: a fuzz target left files in its temporary folder $FUZZ_TMP:" >&2
    ls -A "$FUZZ_TMP" >&2
    exit 1
fi
