"""Review stage: specialist reviewers and the coordinator (ARCHITECTURE.md, stages 5-6)."""
