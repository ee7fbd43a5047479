#!/usr/bin/env bash
# The zh<->en model on the CPU, in the background of development sessions, while no GPU comes:
# the same data and bidirectional training as the device run (training/recipes/device_run.sh),
# the `small` config, one thread at the lowest priority (THREADS=2 when the machine is otherwise idle),
# resumed from ~/runs at every start.
#
#   bash training/recipes/cpu_bidir.sh        # starts stage 1, or resumes it; returns at once
#   tail -f ~/runs/cpu_bidir/s1.out           # progress (dev loss per direction every 500 steps)
#
# The token cache is kept in ~/runs/cache (the checkout is laid anew each session; ~/runs usually
# survives): built once from ../shared/data by training.prepare_data if missing.
set -euo pipefail
cd "$(dirname "$0")/../.."
RUNS=${RUNS:-$HOME/runs}
C=$RUNS/cache
OUT=$RUNS/cpu_bidir/s1
if pgrep -f -- "--out $OUT" >/dev/null; then
    echo "already running: $OUT"
    exit 0
fi
# The project's virtual environment (setup.sh) when there is one: a bare `python` may lack torch.
PY=${PYTHON:-python}
[ -x .venv/bin/python ] && PY=${PYTHON:-.venv/bin/python}
[ -f "$C/manifest.json" ] || "$PY" -m training.prepare_data --data "${DATA:-../shared/data}" --out "$C" --threads 1
resume=()
[ -f "$OUT/last.pt" ] && resume=(--resume)
mkdir -p "$OUT"
nohup nice -n 19 "$PY" -m training.train --stage sentence --config small --src zh --tgt en --bidirectional \
    --data "$C/tvsub-zh-en.train.npz:1" "$C/pydocs-en-zh.train.npz:3" "$C/django-en-zh.train.npz:3" \
    --dev "$C/tvsub-zh-en.dev.npz" "$C/pydocs-en-zh.dev.npz" "$C/django-en-zh.dev.npz" --spm "$C/spm.model" \
    --out "$OUT" --max-tokens 4000 --lr 1e-3 --warmup 1000 --max-steps 200000 --threads "${THREADS:-1}" \
    --eval-every 500 --save-every 250 --log-every 25 --patience 1000 "${resume[@]}" >>"$RUNS/cpu_bidir/s1.out" 2>&1 &
echo "started (pid $!): $OUT, log $RUNS/cpu_bidir/s1.out"
