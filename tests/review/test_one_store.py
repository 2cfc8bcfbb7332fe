"""One store per run: a team base's detectors, rule retrieval, code context and the feedback of
earlier merge requests all read Qdrant through one `StoreSession`, so a review makes one client
(an embedded Qdrant takes a file lock: each further open was one more wait for a busy store)."""

from __future__ import annotations

from pathlib import Path

import pytest

from dualrag.cli.main import main
from dualrag.config import load_settings
from dualrag.diff import ingest
from dualrag.embedding import get_embedder
from dualrag.feedback import FeedbackRecord, FeedbackScope, Outcome
from dualrag.pipeline import Conversation, review_changes
from dualrag.source.review_source import ReviewSource
from dualrag.store import StoreLockedError, StoreSession, open_store, qdrant
from dualrag.store.feedback import open_feedback_store

from .conftest import PATH

TEAM = """# Team rules

---
id: TEAM-EXIT-001
title: Never call System.exit in service code
level: mandatory
severity: critical
project_types: [java]
languages: [java]
detect:
  kind: regex
  pattern: 'System\\.exit\\('
  message: System.exit stops the whole service.
---
A service must not stop the JVM; throw an exception and let the container decide.
"""
OLD = "class Totals {\n  int sum(int a, int b) {\n    return a + b;\n  }\n}\n"
NEW = "class Totals {\n  int sum(int a, int b) {\n    System.exit(1);\n    return a + b;\n  }\n}\n"
REPO = "shop"


@pytest.fixture
def clients(monkeypatch) -> list[object]:
    """Every Qdrant client made, counted where the one constructor call sits (store/qdrant.py)."""
    made: list[object] = []
    real = qdrant.QdrantClient

    def counted(*args, **kw):
        made.append(kw.get("path") or kw.get("url"))
        return real(*args, **kw)

    monkeypatch.setattr(qdrant, "QdrantClient", counted)
    return made


def _store_with_team_rules_and_feedback(tmp_path: Path, capsys) -> Path:
    store = tmp_path / "store"
    (tmp_path / "team.md").write_text(TEAM, encoding="utf-8")
    with pytest.raises(SystemExit) as done:
        main(["index", "rules", str(tmp_path / "team.md"), "--kb", "team", "--store", str(store)])
    assert done.value.code == 0, capsys.readouterr().err
    settings = load_settings(None, store=str(store))
    dismissal = FeedbackRecord(repository=REPO, fingerprint="f" * 20, outcome=Outcome.WONT_FIX, rule_id="TEAM-EXIT-001",
                               category="rule", title="Never call System.exit", message="It stops the service.",
                               mr="!1", code="System.exit(1);")
    with open_feedback_store(store, settings.qdrant) as fs:
        fs.record(REPO, [dismissal], get_embedder(config=settings.embedding))
    return store


def test_a_review_opens_the_store_once(tmp_path, make_git_file, clients, capsys):
    store = _store_with_team_rules_and_feedback(tmp_path, capsys)
    checkout = tmp_path / "checkout"
    (checkout / Path(PATH).parent).mkdir(parents=True)
    (checkout / PATH).write_text(NEW, encoding="utf-8")
    settings = load_settings(None, store=str(store))
    diff = make_git_file(PATH, OLD.encode(), NEW.encode())
    source = ReviewSource(diff, read_file=lambda p: (checkout / p).read_bytes(), repo_root=checkout)
    clients.clear()

    review = review_changes(ingest(diff, settings), source, settings,
                            conversation=Conversation(feedback=FeedbackScope(REPO, "!2")))

    assert len(clients) == 1, clients  # detectors, rules, code context and feedback: one client
    assert "TEAM-EXIT-001" in {f.rule_id for f in review.findings}  # the team base's detector ran
    assert any("code context from the checkout" in n for n in review.notes)  # the code side asked the store
    assert review.chunks and review.chunks[0].context is not None  # retrieval ran on the same client


def test_a_session_opens_at_most_once_and_remembers_why_it_could_not(tmp_path, clients):
    path = tmp_path / "store"
    with StoreSession(path) as session:
        assert not session.exists() and not path.exists()  # looking creates nothing
        assert session.rules() is session.rules()
        session.code(), session.feedback()
        assert session.opens == 1 and len(clients) == 1
    from dualrag.config.store import StoreConfig

    with open_store(path), StoreSession(path, StoreConfig(lock_timeout=0)) as busy:  # another process holds it
        for _ in range(3):
            with pytest.raises(StoreLockedError):
                busy.rules()
        assert busy.opens == 1  # one wait for the lock, not one per stage
