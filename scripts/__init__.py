"""The shell entry points (setup.sh, test.sh, demo.sh, e2e_local_llm.sh, fetch_java_sources.sh) and,
until they move to `evaluation/`, the hostile-input harnesses another branch is still editing
(scripts/eval/{hostile_corpus,injection,injection_eval_set}.py).
Every other evaluation and benchmark lives in `evaluation/` (evaluation/README.md)."""
