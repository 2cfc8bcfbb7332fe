"""Reviews with a real model and what they keep: bug/fix pairs (`bugs`), rule application on rule-book
pairs (`rule_checks`, and the prompt chosen outside its sample: `tune_rule_check`,
`rule_check_yesno`), learning from feedback across merge requests (`feedback`), and the CLI contract
on awkward real diffs (`check_diffs`). `systems` holds the systems under test, dualrag and the naive
baseline, both harnesses share."""
