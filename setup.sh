#!/usr/bin/env bash
# One-step set-up on a fresh machine: a virtual environment in .venv with doctrans, the
# training/export tools and the test tools. Then: . .venv/bin/activate
set -euo pipefail
cd "$(dirname "$0")"
python3 -m venv .venv
. .venv/bin/activate
python -m pip install -q --upgrade pip
# Pinned: 2.13.0 is the CPU wheel; an unpinned torch would pull several GB of CUDA packages.
python -m pip install -q torch==2.13.0
python -m pip install -q -e ".[train,dev]"
echo "doctrans is installed in .venv: run '. .venv/bin/activate' first"
