"""What the author of a change cannot steer: the hostile corpus run through the CLI with an obedient
stand-in model (`hostile_corpus`, its cases in `hostile_cases`, `hostile_trust`, `hostile_output`,
`hostile_forged` and their shared parts in `hostile_kit`), the forged-marker corpus of skip reasons
(`skip_corpus`), the injection check on held-out paraphrases (`injection`, `injection_eval_set`) and
in Chinese without cue words (`injection_zh`, on real Chinese Java comments written by
`zh_comments`). docs/safety.md gives the figures."""
