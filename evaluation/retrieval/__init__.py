"""Rule retrieval, scored book by book (`rules`: cases, configs, runner, rules_report, fusion_folds),
on our own rule book (`rules_own`, `make_rule_eval_set`, `rule_eval_set/`), by its parts (`centred`,
`embedders`, `embedder_candidates`, `model_examples`), the relevance floor (`calibrate_rule_floor`)
and the code context (`code_context`)."""
