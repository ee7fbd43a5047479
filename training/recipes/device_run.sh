#!/usr/bin/env bash
# The GPU session for the zh<->en model: 30 minutes of an H100/H200, prepared to the last command.
#
# BEFORE the session, here on the CPU (minutes, once):
#   bash training/recipes/device_prep.sh          # token cache + wheels in .device/, bundles set aside,
#                                                 # prints what will travel (must be < 64 MiB)
# THE SESSION with 15 minutes of device time (since 2026-11; docs/gpu_run.md "The quarter hour"),
# one call:  R=training/recipes/device_run.sh; bash $R verify s1 --budget 420 && bash $R s2 s1c --budget 100 \
#            && (bash $R export || bash $R weights)        # the bundle, or s2's fp16 weights to export here
# (after `PART=K bash training/recipes/device_prep.sh continue`, add to the first call
#  --init-bundle doctrans/models/zh-en-bidirectional --s1-lr 5e-4 --s1-warmup 200 --s1-schedule cosine
#  --s1-steps 5000: stage 1 continues the shipped model instead of starting from nothing)
# THE SESSION with 30 minutes: four device `run` calls, one right after the other (a warm machine is given back
# after 30 s idle), each with carry [".device"] and timeout_s 600:
#   1. bash training/recipes/device_run.sh verify s1 --budget 520          # ~9 min
#   2. bash training/recipes/device_run.sh s1 --budget 540                 # ~9.5 min, resumes stage 1
#   3. bash training/recipes/device_run.sh s2 s1c --budget 420             # ~7.5 min: memory + control
#   4. bash training/recipes/device_run.sh export score                    # ~4 min: bundle, then scores
# (≈ 30 min with the machine's start; if less device time is left, shorten call 2's budget: the
# budgets are wall-clock seconds from the process start, so a call ends inside its budget.)
# Call 4 packs the int8 bundle into $OUT first, then the scores and logs: the reply's files_at
# folder holds bundle.tgz.partNN, logs.tgz.partNN and their *.parts.json.
# AFTER, here:
#   python -m training.device_parts join /work/.device/<files_at> -o ~/runs/device_result
#   bash training/recipes/device_prep.sh restore  # the bundles back in doctrans/models/
#
# This script is what runs on the device: it installs the carried wheels (sacremoses: the device
# image has no internet) once, then runs training.device_run with the phases and options given,
# appending its output to $DOCTRANS_RUNS/device_run.log. Run locally it works the same on the CPU
# (tests/test_device_rehearsal.py rehearses every phase with the tiny config).
set -euo pipefail
cd "$(dirname "$0")/../.."
RUNS=${DOCTRANS_RUNS:-/tmp/doctrans_runs}
export DOCTRANS_RUNS=$RUNS PYTHONUNBUFFERED=1
mkdir -p "$RUNS"
PY=${PYTHON:-python3}
[ ! -d "$RUNS/site" ] || export PYTHONPATH="$RUNS/site${PYTHONPATH:+:$PYTHONPATH}"
if ! "$PY" -c "import sacremoses, pypinyin" 2>/dev/null; then
    ls .device/wheels/*.whl >/dev/null 2>&1 || { echo "error: sacremoses/pypinyin missing and no .device/wheels" >&2; exit 2; }
    "$PY" -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target "$RUNS/site" \
        .device/wheels/*.whl
    export PYTHONPATH="$RUNS/site${PYTHONPATH:+:$PYTHONPATH}"
fi
"$PY" -m training.device_run "$@" 2>&1 | tee -a "$RUNS/device_run.log"
