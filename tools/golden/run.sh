#!/usr/bin/env bash
# Regenerates every golden fixture in test/golden/ from a local PyTorch 2.13 CPU wheel.
# PYTHON defaults to .venv-golden/bin/python, a venv with the wheel installed (tools/golden/README.md):
#   python3 -m venv --system-site-packages .venv-golden && .venv-golden/bin/pip install --no-deps torch-2.13.0+cpu-*.whl
set -euo pipefail
cd "$(dirname "$0")/../.."
PYTHON=${PYTHON:-.venv-golden/bin/python}
for script in tools/golden/gen_*.py; do
  echo "== $script"
  "$PYTHON" "$script"
done
