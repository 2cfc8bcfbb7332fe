#!/usr/bin/env bash
# Set up and run the test suite. Extra arguments go to pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
# Real services from Debian's packages, installed when missing and apt is at hand: the review
# service's tests start redis-server on a loopback port (and fail saying so without it); the HTML
# report's tests open it in chromium (they skip, saying why, without it).
need=()
command -v redis-server >/dev/null || need+=(redis-server)
command -v chromium >/dev/null || need+=(chromium)
if [ ${#need[@]} -gt 0 ] && command -v apt-get >/dev/null && [ "$(id -u)" = 0 ]; then
  apt-get update -qq
  for pkg in "${need[@]}"; do
    apt-get install -y -qq "$pkg" >/dev/null || echo "test.sh: could not install $pkg" >&2
  done
fi
scripts/setup.sh dev
exec .venv/bin/python -m pytest "$@"
