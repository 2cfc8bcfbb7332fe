"""Mined detectors, measured on code they were not mined from (issue 42):

    nice -n 10 .venv/bin/python -m evaluation.mining.detectors [--books dev,pmd,...] [--json OUT]

`detectors` is the harness; `books` where everything it reads lives, `heldout` the leave-examples-out
folds, `scoring` the independent files of every rule book (`independent/`, code the books never
showed), `dev_checks` the dev set's bug pairs, `choices` the options chosen leaving each book out and
`full` a whole-book mining run. The 200-page timing is `evaluation.bench.index_rules_mined`."""
