#!/usr/bin/env bash
# zh->en recipe: joint SentencePiece, stage 1 (sentence level), stage 2 (memory fine-tuning from
# stage 1), dev evaluation of both, export to fp32 and int8 bundles. Every step logs its
# hyper-parameters (train.py writes them into each checkpoint and OUT/log.jsonl).
#
#   CONFIG=small S1_STEPS=3000 S2_STEPS=600 bash training/recipes/tvsub_zh_en.sh
#
# Runs resume where they stopped (re-run the script after an interruption). Defaults are the CPU
# budget used for the built-in provisional model; on a GPU use CONFIG=base, larger batches and
# far more steps (e.g. S1_STEPS=100000 MAX_TOKENS=16000 ROWS=64).
set -euo pipefail
DATA=${DATA:-../shared/data}
RUNS=${RUNS:-$HOME/runs}
CONFIG=${CONFIG:-small}
MAX_DOCS=${MAX_DOCS:-800}          # TVsub documents used (of 2,959). pydocs is in the vocabulary only, so far
S1_STEPS=${S1_STEPS:-3000}
S2_STEPS=${S2_STEPS:-600}
MAX_TOKENS=${MAX_TOKENS:-1500}
ROWS=${ROWS:-16}
THREADS=${THREADS:-2}
TV=$DATA/tvsub-zh-en
PY=$DATA/pydocs-en-zh

resume_flag() { [ -f "$1/last.pt" ] && echo --resume || true; }

[ -f "$RUNS/spm/zh_en.model" ] || python -m training.spm --data "$TV/train.jsonl.xz" "$PY/train.jsonl.xz" \
    --langs zh en --vocab-size 10000 --max-sentences 400000 --out "$RUNS/spm/zh_en"

common=(--src zh --tgt en --spm "$RUNS/spm/zh_en.model" --config "$CONFIG" --max-docs "$MAX_DOCS"
        --dev "$TV/dev.jsonl.xz" --threads "$THREADS" --eval-every 250 --save-every 250 --log-every 25)

python -m training.train --stage sentence "${common[@]}" --data "$TV/train.jsonl.xz" \
    --out "$RUNS/tvsub_s1" --max-tokens "$MAX_TOKENS" --lr 1e-3 --warmup 400 --max-steps "$S1_STEPS" \
    $(resume_flag "$RUNS/tvsub_s1")

python -m training.train --stage document "${common[@]}" --data "$TV/train.jsonl.xz" \
    --init "$RUNS/tvsub_s1/best.pt" --out "$RUNS/tvsub_s2" --rows "$ROWS" --window 4 \
    --lr 6e-5 --lr-new 3e-4 --warmup 100 --max-steps "$S2_STEPS" $(resume_flag "$RUNS/tvsub_s2")

for run in tvsub_s1 tvsub_s2; do
    python -m training.evaluate "$RUNS/$run/best.pt" --data "$TV/dev.jsonl.xz" --src zh --tgt en --beam 5 \
        --out "$RUNS/$run/dev.hyp" --json "$RUNS/$run/dev.scores.json" --threads "$THREADS"
done

doctrans export "$RUNS/tvsub_s2/best.pt" -o "$RUNS/bundle_zh_en_fp32"
doctrans export "$RUNS/tvsub_s2/best.pt" -o "$RUNS/bundle_zh_en_int8" --quantize int8
