#!/usr/bin/env bash
# Teach the built-in bundles to copy the verbatim placeholders (issue 14), on a CPU, in minutes:
#
#   bash training/recipes/placeholder_finetune.sh zh-en     # then the same with en-zh
#
# The shipped bundles' vocabulary has no ⦅1⦆…⦅16⦆, so the engine cannot mask the numbers, codes and
# URLs of a sentence for them. This continues each shipped model instead of training a new one:
#
#   init   the bundle's weights read back, its SentencePiece model grown by the 16 placeholder
#          pieces (training.from_bundle), the sentence-level model
#   ph     sentence level, masked training pairs (training.verbatim_pairs: half the pairs with spans
#          shared by both sides), TVsub + pydocs + django                           (STEPS steps)
#   plain  the same, same steps and data, nothing masked: the control that says what placeholder
#          training costs or gains in dev BLEU
#   s2     memory (both sides) on TVsub from ph, as every built-in model gets it   <- exported
#          (S2_DATA=all: on TVsub + pydocs + django document streams)
#
# Run again on the bundles it produced, it continues them (their vocabulary has the placeholders
# already, from_bundle adds none): the second round (2026-11-24) ran, both directions side by side
# and the zh-en control on a third process,
#
#   RUNS=~/runs/r2 STEPS=1000 SCHEDULE=cosine SKIP_CONTROL=1 S2_DATA=all bash ... zh-en   (and en-zh)
#   RUNS=~/runs/r2 STEPS=1000 SCHEDULE=cosine CONTROL_ONLY=1 bash ... zh-en
#
# The token caches (one masked, one plain, both tokenized with the grown SentencePiece model) are
# built once by training.prepare_data. Every stage resumes where it stopped. Runs go to
# $RUNS/ph/<direction>; the int8 bundle to $RUNS/ph/bundle_<direction>.
set -euo pipefail
DIRECTION=${1:?usage: placeholder_finetune.sh zh-en|en-zh}
SRC=${DIRECTION%-*}
TGT=${DIRECTION#*-}
cd "$(dirname "$0")/../.."
PY=${PYTHON:-python}
[ -x .venv/bin/python ] && PY=${PYTHON:-.venv/bin/python}
DATA=${DATA:-../shared/data}
RUNS=${RUNS:-$HOME/runs}
W=$RUNS/ph
R=$W/$DIRECTION
STEPS=${STEPS:-800}
S2_STEPS=${S2_STEPS:-300}
THREADS=${THREADS:-1}
SKIP_CONTROL=${SKIP_CONTROL:-0}
# inv_sqrt as the first fine-tune ran; cosine (to zero at STEPS) for a fixed-budget continuation.
SCHEDULE=${SCHEDULE:-inv_sqrt}

mkdir -p "$R"
[ -f "$R/init.pt" ] || "$PY" -m training.from_bundle "doctrans/models/$DIRECTION" --out "$R/init.pt" --spm-out "$W/spm.model"
# CONTROL_ONLY=1: only the plain control (beside a bundle run on another core, same init and steps).
CONTROL_ONLY=${CONTROL_ONLY:-0}
kinds=(masked)
[ "$SKIP_CONTROL" = 1 ] || kinds+=(plain)  # the plain cache serves only the control
for kind in "${kinds[@]}"; do
    extra=()
    [ "$kind" = plain ] && extra=(--mask-fraction 0)
    [ -f "$W/cache_$kind/manifest.json" ] || "$PY" -m training.prepare_data --data "$DATA" --spm "$W/spm.model" \
        --out "$W/cache_$kind" --threads 2 "${extra[@]}"
done

resume_flag() { [ -f "$1/last.pt" ] && echo --resume || true; }
common=(--src "$SRC" --tgt "$TGT" --spm "$W/spm.model" --threads "$THREADS" --log-every 25)
sentence() {  # OUT CACHE
    local out=$1 c=$2
    "$PY" -m training.train --stage sentence "${common[@]}" --init "$R/init.pt" --out "$out" \
        --data "$c/tvsub-zh-en.train.npz:1" "$c/pydocs-en-zh.train.npz:3" "$c/django-en-zh.train.npz:3" \
        --dev "$c/tvsub-zh-en.dev.npz" "$c/pydocs-en-zh.dev.npz" "$c/django-en-zh.dev.npz" \
        --max-tokens 1500 --lr 3e-4 --warmup 100 --schedule "$SCHEDULE" --max-steps "$STEPS" --dropout 0.1 \
        --eval-every 200 --save-every 200 --patience 100 $(resume_flag "$out")
}
if [ "$CONTROL_ONLY" = 1 ]; then
    sentence "$R/plain" "$W/cache_plain"
    echo "done: $R/plain"
    exit 0
fi
sentence "$R/ph" "$W/cache_masked"

# Stage 2 as the built-in recipe (training/recipes/default_models.sh) runs it: document streams.
C=$W/cache_masked
# S2_DATA=all: the memory stage reads the documentation corpora too (TVsub alone made the first
# fine-tune forget pydocs after 100 steps); the default is TVsub alone, as the first fine-tune ran.
s2_data=("$C/tvsub-zh-en.train.npz")
[ "${S2_DATA:-tvsub}" = all ] && s2_data=("$C/tvsub-zh-en.train.npz:1" "$C/pydocs-en-zh.train.npz:3" "$C/django-en-zh.train.npz:3")
"$PY" -m training.train --stage document "${common[@]}" --init "$R/ph/best.pt" --out "$R/s2" \
    --data "${s2_data[@]}" --dev "$C/tvsub-zh-en.dev.npz" "$C/pydocs-en-zh.dev.npz" \
    --rows 24 --window 4 --lr 5e-5 --lr-new 5e-4 --warmup 100 --max-steps "$S2_STEPS" \
    --eval-every 100 --save-every 100 --patience 100 $(resume_flag "$R/s2")
# The decoding defaults the built-in bundles carry (tuned on dev, see their MODEL_CARDs).
# The CLI beside the Python that trains (PYTHON may name another checkout's venv, not on PATH).
DT=doctrans
[ -x .venv/bin/doctrans ] && DT=.venv/bin/doctrans
[ -x "$(dirname "$PY")/doctrans" ] && DT=$(dirname "$PY")/doctrans
[ -f "$W/bundle_$DIRECTION/model.json" ] || "$DT" export "$R/s2/best.pt" -o "$W/bundle_$DIRECTION" --quantize int8 \
    --no-repeat-ngram 4 --length-penalty 1.3 --max-repeat-run 2
# The control last: the bundle above does not wait for it.
[ "$SKIP_CONTROL" = 1 ] || sentence "$R/plain" "$W/cache_plain"
echo "done: $W/bundle_$DIRECTION"
