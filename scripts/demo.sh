#!/usr/bin/env bash
# Set up and review the bundled example merge request on the embedded defaults
# (no API key, no network): a Java service change and an EDI config change.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh dev
.venv/bin/dualrag review --diff-file examples/partner-order-mr/change.diff "$@"
echo; echo "== EDI project merge request (examples/edi-project/change.diff) =="
exec .venv/bin/dualrag review --diff-file examples/edi-project/change.diff "$@"
