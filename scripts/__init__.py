"""The shell entry points (setup.sh, test.sh, demo.sh, e2e_local_llm.sh, fetch_java_sources.sh) and,
until they move to `evaluation/`, a few harnesses other branches are still editing
(scripts/eval/{mined_detectors,hostile_corpus,injection,injection_eval_set}.py, scripts/bench/tokens.py).
Every other evaluation and benchmark lives in `evaluation/` (evaluation/README.md)."""
