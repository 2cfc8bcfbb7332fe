"""Tools the evaluations and the package build share: the rule books built from public rule
documentation and their renderings, the shipped rule vectors, a stand-in reranker, log readers."""
