#!/usr/bin/env bash
# Review the bundled example merge request with a real local model through llama.cpp.
#   scripts/e2e_local_llm.sh [GGUF]        (default: $DUALRAG_GGUF, else the first models/*.gguf)
# Needs the llama-cpp-python extra; prints the findings, the decision and the usage.
# Without a model file it says so and exits 0 (offline review still works: dualrag review --offline).
set -euo pipefail
cd "$(dirname "$0")/.."
GGUF="${1:-${DUALRAG_GGUF:-$(ls models/*.gguf 2>/dev/null | head -n1 || true)}}"
if [[ -z "${GGUF}" || ! -f "${GGUF}" ]]; then
  echo "e2e_local_llm: no GGUF model given or found (models/*.gguf); skipping" >&2
  exit 0
fi
if ! .venv/bin/python -c "import llama_cpp" 2>/dev/null; then
  echo "e2e_local_llm: llama-cpp-python is not installed (pip install 'dualrag[llamacpp]'); skipping" >&2
  exit 0
fi
DIFF="examples/partner-order-mr/change.diff"
OUT="$(mktemp -d)"
.venv/bin/dualrag review --diff-file "${DIFF}" --llm "llamacpp:${GGUF}" --format json \
  --output "${OUT}/review.json" --telemetry "${OUT}/events.jsonl" --explain "${OUT}/explain"
.venv/bin/python - "${OUT}/review.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
print(f"decision: {r['decision']}  ({'; '.join(r.get('decision_reasons', []))})")
for f in r["findings"]:
    print(f"  {f['path']}:{f['line']} [{f['severity']}] {f['title']} ({f['source']}{':' + f['reviewer'] if f.get('reviewer') else ''})")
print("usage:", json.dumps(r["usage"]))
PY
echo "prompts and events: ${OUT}"
