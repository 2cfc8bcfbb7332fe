"""Paired rule-application cases and their measurement (issue 25, item 6): see scripts/eval/rule_checks.py."""
