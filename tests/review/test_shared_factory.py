"""A factory shared by several runs (a benchmark warms one up) is never re-pointed at a run: each
run's clients report to that run's tally, so its usage and telemetry hold its own requests only."""

from __future__ import annotations

from dualrag.llm import ListSink, LLMFactory
from dualrag.pipeline import RunHooks, run_review

from .conftest import answer


def _requests(sink: ListSink) -> list[dict]:
    return [e for e in sink.events if e["event"] == "llm_request"]


def test_a_shared_factory_reports_each_run_to_its_own_sink(oai, llm_settings, java_diff):
    oai.responder = lambda req: oai.chat(answer())
    settings = llm_settings()
    own = ListSink()
    factory = LLMFactory(settings.llm, sink=own)
    first, second = ListSink(), ListSink()
    one = run_review(java_diff, settings, hooks=RunHooks(llm_factory=factory, telemetry=first))
    two = run_review(java_diff, settings, hooks=RunHooks(llm_factory=factory, telemetry=second))
    assert factory.sink is own and not _requests(own)  # the factory's own sink saw no run's request
    assert len(_requests(first)) == one.usage.calls == len(_requests(second)) == two.usage.calls >= 1
    assert {e["run"] for e in _requests(first)}.isdisjoint({e["run"] for e in _requests(second)})
    assert len(oai.requests) == one.usage.calls + two.usage.calls
