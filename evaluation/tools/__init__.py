"""Maintenance tools: those that write the artefacts dualrag ships (`embed_bundled_rules`,
`code_centroid`, `train_fusion`) and those that look at the checkout (`import_graph`,
`docs_coverage`, `inspect_rules`). They may use any room of evaluation/; no room imports them."""
