"""Caps at ingest: file size, line length (a sample, not hundreds of chunks), review size; the
risk tier reads size and content, not only line counts."""

from __future__ import annotations

from dualrag.config import LimitsConfig, load_settings
from dualrag.diff import RiskTier, ingest


def added(path: str, text: str) -> bytes:
    lines = text.split("\n")
    body = "".join(f"+{line}\n" for line in lines)
    return (f"diff --git a/{path} b/{path}\nnew file mode 100644\n--- /dev/null\n+++ b/{path}\n"
            f"@@ -0,0 +1,{len(lines)} @@\n{body}").encode()


def settings(**limits):
    return load_settings(None).model_copy(update={"limits": LimitsConfig(**limits)})


def test_a_file_above_max_file_bytes_is_skipped_with_its_reason():
    changes = ingest(added("data/big.txt", "x" * 5_000), settings(max_file_bytes=1_000))
    (f,) = changes.files
    assert not f.reviewable and "limits.max_file_bytes" in f.skipped_reason
    assert f.section == ""


def test_a_long_line_is_reviewed_as_a_sample_and_the_tier_is_full():
    changes = ingest(added("data/seed.sql", "short\n" + "v," * 1_000 + "\nend"), settings(max_line_chars=100))
    (f,) = changes.files
    assert f.reviewable and f.sampled_lines == 1 and f.longest_line == 2_000
    line = f.hunks[0].lines[1]
    assert line.new_no == 2 and line.text.startswith("v," * 50) and "limits.max_line_chars" in line.text
    assert len(line.text) < 200 and f.hunks[0].lines[2].text == "end"  # numbering does not move
    assert changes.risk_tier is RiskTier.FULL and "sample" in changes.tier_reasons[0]
    assert any("reviewed as a sample" in n for n in changes.notes)


def test_files_past_the_review_budget_are_skipped_in_diff_order():
    diff = b"".join(added(f"src/f{i}.txt", "y" * 300) for i in range(4))
    changes = ingest(diff, settings(max_review_bytes=1_000))
    assert [f.reviewable for f in changes.files] == [True, True, False, False]
    assert "limits.max_review_bytes" in changes.files[2].skipped_reason
    assert any("2 file(s) not reviewed" in n for n in changes.notes)


def test_size_raises_the_tier_not_only_line_counts():
    wide = "\n".join("z" * 900 for _ in range(5))  # 5 lines: trivial by lines, not by size
    assert ingest(added("src/a.txt", wide), load_settings(None)).risk_tier is RiskTier.LITE
    wider = "\n".join("z" * 3_000 for _ in range(20))  # lite by lines
    changes = ingest(added("src/a.txt", wider), load_settings(None))
    assert changes.risk_tier is RiskTier.FULL and "characters of diff text" in changes.tier_reasons[0]


def test_control_characters_in_a_change_make_it_full():
    changes = ingest(added("src/a.py", "ok = 1  # \u202e } \u2066"), load_settings(None))
    assert changes.risk_tier is RiskTier.FULL
    assert any("control or bidirectional" in r for r in changes.tier_reasons)
