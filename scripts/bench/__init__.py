"""The token-estimator bench, waiting to move to `evaluation/bench/` (it imports `evaluation.ROOT`)."""
