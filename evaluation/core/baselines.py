"""The plain systems printed beside dualrag's figures, defined once: a figure means something only
next to what the obvious approach gets on the same cases, in the same run.

- `PLAIN`: the plain hybrid of rule retrieval: the embedder on the raw code, BM25 on the raw code
  with identifiers split, fused by reciprocal rank, none of dualrag's further channels;
- `NAIVE_INSTRUCTION`: the naive review: one paragraph of instruction and the bare diff, to the same
  model (evaluation/review/systems.py sends it);
- `WHOLE_BOOK_INSTRUCTIONS`: the review that pastes every rule into the prompt beside the whole diff,
  as rule-hard-coding reviewers do (its prompt size is the token benchmark's baseline).
"""

from __future__ import annotations

from dualrag.config.retrieval import RuleChannels
from dualrag.retrieval.rules import RuleRetriever

CHANNELS = ("constructs", "code_words", "grammar", "examples", "centred")  # the further channels, each a switch
PLAIN = RuleChannels(**dict.fromkeys(CHANNELS, False), relevance_weight=0.0, model_query=False, fusion="rrf")

NAIVE_INSTRUCTION = (
    "You are a code reviewer. Review the following diff of a Java project and report the bugs it "
    "introduces. For each problem give the file path, the line number in the new file, a severity "
    "(critical, warning or suggestion), a category, a short title and a message. If the change is "
    "correct, report nothing."
)
WHOLE_BOOK_INSTRUCTIONS = ("You are a code reviewer. Review the following diff against all the rules below and "
                           "report every problem as JSON findings with path, line, severity and message.\n")


def plain_retriever(store, embedder, sparse, kbs: list[str]) -> RuleRetriever:
    """The plain hybrid over the knowledge bases `kbs` of `store`."""
    return RuleRetriever(store, embedder, sparse, kbs, PLAIN)
