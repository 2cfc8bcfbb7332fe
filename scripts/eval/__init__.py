"""Evaluations: quality figures on labelled data (rule retrieval, reviews with a model, detectors,
language packs, injection, hostile input), their data sets and helper packages
(`.venv/bin/python -m scripts.eval.<name> --help`)."""
