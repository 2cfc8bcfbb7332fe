"""No approval of code nobody read: a file left out by a size cap keeps the decision at no_verdict,
even when the model answers "no findings" for everything it did read (issue #16, item 1)."""

from __future__ import annotations

from dualrag.pipeline import run_review
from dualrag.review.model import Decision

from .conftest import JAVA_NEW, JAVA_OLD, PATH, answer


def test_a_file_over_the_size_cap_blocks_approval(oai, llm_settings, make_git_file):
    oai.responder = lambda req: oai.chat(answer())  # nothing to say about what it read
    small = make_git_file(PATH, JAVA_OLD.encode(), JAVA_NEW.encode())
    big = make_git_file("src/main/java/com/acme/Big.java", b"", ("class Big {\n" + "  int x;\n" * 4000 + "}\n").encode())
    settings = llm_settings()
    settings = settings.model_copy(update={"limits": settings.limits.model_copy(update={"max_file_bytes": 20_000})})
    assert run_review(small, settings).decision is Decision.APPROVED
    review = run_review(small + big, settings)
    skipped = [f for f in review.files if f.skipped_reason]
    assert [f.path for f in skipped] == ["src/main/java/com/acme/Big.java"] and "too large" in skipped[0].skipped_reason
    assert review.decision is Decision.NO_VERDICT
    assert any("Big.java" in r and "not reviewed" in r for r in review.decision_reasons)


def test_certain_noise_does_not_block_approval_but_uncertain_noise_does(oai, llm_settings, make_git_file):
    """A skip is never a pass (issue #23): a lock file whose versions only go up is certainly noise;
    one that gains an entry is not, and holds the decision."""
    oai.responder = lambda req: oai.chat(answer())
    java = make_git_file(PATH, JAVA_OLD.encode(), JAVA_NEW.encode())
    bump = make_git_file("package-lock.json", b'{\n  "version": "1.0.0"\n}\n', b'{\n  "version": "1.0.1"\n}\n')
    review = run_review(java + bump, llm_settings())
    assert any(f.skipped_reason == "lock file" and f.skip_certain for f in review.files)
    assert review.decision is Decision.APPROVED
    entry = make_git_file("package-lock.json", b'{\n  "version": "1.0.0"\n}\n',
                          b'{\n  "version": "1.0.0",\n  "lockfileVersion": 3\n}\n')
    review = run_review(java + entry, llm_settings())
    lock = next(f for f in review.files if f.path == "package-lock.json")
    assert lock.skip_certain is False and "not certain" in lock.skip_text()
    assert review.decision is Decision.NO_VERDICT
