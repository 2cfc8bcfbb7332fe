"""The checks stage (ARCHITECTURE.md, stage 1b): deterministic findings on changed lines, no LLM.

`detectors` runs the `detect` pattern or tree-sitter query of every indexed rule set (the bundled
`knowledge/` and team rule-set files alike); `edi` runs the EDI validators of `dualrag.edi` on
the change's `.flow`/`.dt`/partner files. Both place a finding caused by a removal on the new-file
line now at the removed line's place (`anchoring`). Findings carry `source: "detector"`.
"""
