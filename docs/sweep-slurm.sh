#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# One shard of an idlescope comparison per Slurm array task (docs/sweeps.md):
#   jobs=$(sbatch --parsable --array=1-64 docs/sweep-slurm.sh)
#   sbatch --dependency=afterok:$jobs --wrap 'idlescope-cli merge results/shard-*-of-64.json > results/all.json'
#SBATCH --job-name=idlescope-sweep
#SBATCH --cpus-per-task=2
#SBATCH --time=01:00:00
#SBATCH --output=results/slurm-%A_%a.log
set -euo pipefail

SHARDS=${SHARDS:-64}              # the --array size: 1-$SHARDS
K=${SLURM_ARRAY_TASK_ID:?run as an array task: sbatch --array=1-$SHARDS $0}
mkdir -p results

idlescope-cli compare \
    --table intel-skx \
    --governors menu-6.14,teo-6.14,menu-latest \
    --workload 'sweep:kind=pipe' \
    --spans 100000 --iterations 10 --seed 1 \
    --threads "${SLURM_CPUS_PER_TASK:-1}" \
    --shard "$K/$SHARDS" \
    --output "results/shard-$K-of-$SHARDS.json"
