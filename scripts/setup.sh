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
