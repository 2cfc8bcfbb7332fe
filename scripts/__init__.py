"""The shell entry points (setup.sh, test.sh, demo.sh, e2e_local_llm.sh, fetch_java_sources.sh) and,
until it moves to `evaluation/`, one harness another branch is still editing (scripts/bench/tokens.py).
Every other evaluation and benchmark lives in `evaluation/` (evaluation/README.md)."""
