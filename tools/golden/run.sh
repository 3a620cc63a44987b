#!/usr/bin/env bash
# Regenerates every golden fixture in test/golden/ from a local PyTorch 2.13 CPU wheel.
# PYTHON defaults to a venv at /tmp/tv with the wheel installed:
#   python3 -m venv --system-site-packages /tmp/tv && /tmp/tv/bin/pip install --no-deps /opt/wheels/torch-2.13.0+cpu-*.whl
set -euo pipefail
cd "$(dirname "$0")/../.."
PYTHON=${PYTHON:-/tmp/tv/bin/python}
for script in tools/golden/gen_*.py; do
  echo "== $script"
  "$PYTHON" "$script"
done
