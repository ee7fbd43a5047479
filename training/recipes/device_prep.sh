#!/usr/bin/env bash
# Before a device session (training/recipes/device_run.sh): everything the GPU run needs, in
# .device/ (git-ignored; the device calls carry it), within the 64 MiB that may travel.
#
#   bash training/recipes/device_prep.sh            # cache + wheel, bundles set aside, sizes checked
#   PART=K bash training/recipes/device_prep.sh continue
#                                                   # to continue the shipped model (device_run.sh
#                                                   # --init-bundle): it travels, so the cache keeps
#                                                   # TVsub part K of 3 (training.cache_slice)
#   bash training/recipes/device_prep.sh restore    # after the session: the bundles back in place
#
# The tracked bundles in doctrans/models/ (38 MB) would travel with the working tree and, with the
# 48 MiB token cache, pass the limit; the GPU run does not need them, so they wait in $ASIDE.
set -euo pipefail
cd "$(dirname "$0")/../.."
ASIDE=${ASIDE:-$HOME/.doctrans-models-aside}
LIMIT=$((64 * 1024 * 1024))

if [ "${1:-}" = restore ]; then
    if [ -d "$ASIDE/models" ]; then
        rm -rf doctrans/models
        mv "$ASIDE/models" doctrans/models
    fi
    git status --short doctrans/models
    echo "bundles restored in doctrans/models"
    exit 0
fi

# The background CPU run's cache (training/recipes/cpu_bidir.sh) is the same build: start from it, and
# prepare_data only rebuilds what differs (another tokenizer or masking setting).
if [ ! -f .device/cache/manifest.json ] && [ -f "${RUNS:-$HOME/runs}/cache/manifest.json" ]; then
    mkdir -p .device/cache
    cp -p "${RUNS:-$HOME/runs}"/cache/* .device/cache/
fi
MODE=${1:-}
SHIPPED=doctrans/models/zh-en-bidirectional
SPM=()
[ "$MODE" = continue ] && SPM=(--spm "$SHIPPED/spm.model")  # the continued model's vocabulary
python -m training.prepare_data --data "${DATA:-../shared/data}" --out .device/cache --threads "${THREADS:-2}" \
    "${SPM[@]}"
if [ "$MODE" = continue ]; then
    # The bundle (~36 MiB) travels with the tree: a third of TVsub's episodes fit beside it. Each
    # continuation takes the next part (PART=0, 1, 2: say which in the session's note).
    python -m training.cache_slice .device/cache tvsub-zh-en --parts 3 --part "${PART:-0}"
fi
python -m training.prepare_data --out .device/cache --verify
# The device image has no internet and lacks two pure-Python packages the phases import:
# sacremoses (evaluate's Moses handling of the TVsub references) and pypinyin (the engine's
# person names, imported by the exporter's parity checks: stop 36's export died on it). Their
# wheels travel; training.device_run's verify phase imports every phase's modules to catch another.
mkdir -p .device/wheels
for pkg in sacremoses pypinyin; do
    ls .device/wheels/$pkg-*.whl >/dev/null 2>&1 || python -m pip download -q --no-deps --only-binary=:all: \
        -d .device/wheels "$pkg==$(python -c "import importlib.metadata as m; print(m.version('$pkg'))")"
done
rm -f .device/cache/*.vocab  # SentencePiece's readable vocabulary: not needed there

if [ "$MODE" != continue ] && [ -d doctrans/models ] && [ -n "$(ls doctrans/models)" ]; then
    mkdir -p "$ASIDE"
    rm -rf "$ASIDE/models"
    mv doctrans/models "$ASIDE/models"
    echo "bundles set aside in $ASIDE/models (restore: bash $0 restore)"
fi

# What travels: tracked and untracked-not-ignored files that exist, plus the carried .device.
total=$(python - <<'PY'
import os, subprocess
names = subprocess.run(["git", "ls-files", "-co", "--exclude-standard", "-z"], capture_output=True,
                       check=True).stdout.decode().split("\0")
tree = sum(os.path.getsize(n) for n in names if n and os.path.isfile(n))
carried = sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(".device") for f in fs)
print(f"travels: tree {tree / 2**20:.1f} MiB + .device {carried / 2**20:.1f} MiB = "
      f"{(tree + carried) / 2**20:.1f} MiB (limit 64 MiB)", file=__import__("sys").stderr)
print(tree + carried)
PY
)
if [ "$total" -gt "$LIMIT" ]; then
    echo "error: over the 64 MiB the device accepts" >&2
    exit 2
fi
