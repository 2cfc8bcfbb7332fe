from __future__ import annotations

import re

from llama_index.core.schema import Document

from dualrag.units import RuleLevel
from indexers.rules import RuleSegmenter, segment, unit_from_node

from .test_readers import make_docx

HEADER = "团队开发手册（测试版）"

ZH_PAGES = [
    ["团队开发手册", "前言", "本手册分为若干章节。"],
    [HEADER, "目录", "一、编程规约 ........................ 1", "(一) 命名风格 ...................... 1",
     "(二) 常量定义 ...................... 2", "1/3"],
    [HEADER, "2/3", "一、编程规约", "(一) 命名风格",
     "1.【强制】类名使用 UpperCamelCase 风格，以下情形例外：DO / DTO。",
     "正例：UserService / OrderDTO",
     "反例：userService / orderDto",
     "2.【推荐】方法名使用 lowerCamelCase 风格，这条规则的说明很长，它会一直写到",
     "说明：跨页继续的说明文字第一行。"],
    [HEADER, "3/3", "跨页继续的说明文字第二行。",
     "3.接口和实现类的命名有两套规则：",
     "1）【强制】Service 接口的实现类用 Impl 后缀。",
     "正例：CacheServiceImpl 实现 CacheService 接口。",
     "2）【推荐】形容能力的接口名取形容词。",
     "(二) 常量定义",
     "1.【参考】常量分为三层：",
     "1）跨应用共享常量。", "2）应用内共享常量。",
     "2.【强制】不允许魔法值。", "3/3"],
]


def flat(text: str) -> str:
    return re.sub(r"\s+", "", text)


def test_chinese_pdf_rules(pdf_factory):
    path = pdf_factory(ZH_PAGES, name="manual.pdf")
    units = segment(path, "team")
    by_id = {u.rule_id: u for u in units}
    assert list(by_id) == ["manual:1.1.1", "manual:1.1.2", "manual:1.1.3.1", "manual:1.1.3.2", "manual:1.2.1", "manual:1.2.2"]

    first = by_id["manual:1.1.1"]
    assert first.level is RuleLevel.MANDATORY
    assert first.title == "类名使用 UpperCamelCase 风格，以下情形例外：DO / DTO。"
    assert first.good_examples == ["UserService / OrderDTO"] and first.bad_examples == ["userService / orderDto"]
    assert first.section == ["一、编程规约", "(一) 命名风格"]
    assert first.source.page == 3 and first.source.file == str(path) and first.source.kb == "team"

    cross = by_id["manual:1.1.2"]  # runs over the page break: one unit, page where it starts
    assert cross.level is RuleLevel.RECOMMENDED and cross.source.page == 3
    assert "说明：跨页继续的说明文字第一行。跨页继续的说明文字第二行。" in cross.text

    sub = by_id["manual:1.1.3.1"]  # a marked sub-item is its own rule, with the lead-in as context
    assert sub.level is RuleLevel.MANDATORY and sub.text.startswith("接口和实现类的命名有两套规则：")
    assert sub.good_examples == ["CacheServiceImpl 实现 CacheService 接口。"] and sub.source.page == 4
    assert by_id["manual:1.1.3.2"].level is RuleLevel.RECOMMENDED and not by_id["manual:1.1.3.2"].good_examples

    layered = by_id["manual:1.2.1"]  # unmarked sub-items stay in their rule
    assert layered.level is RuleLevel.REFERENCE and "应用内共享常量" in layered.text
    assert by_id["manual:1.2.2"].section == ["一、编程规约", "(二) 常量定义"]

    everything = "".join(flat(u.title + u.full_text()) for u in units)
    assert flat(HEADER) not in everything and "3/3" not in everything and "...." not in everything
    assert "前言" not in everything
    # every rule's opening text is in exactly one unit
    for anchor in ["类名使用UpperCamelCase", "方法名使用lowerCamelCase", "Service接口的实现类", "不允许魔法值"]:
        assert sum(anchor in flat(u.title + u.text + "".join(u.good_examples + u.bad_examples)) for u in units) == 1


EN_MD = """# Java Style Guide

## Contents
- [Naming](#naming)
- [Errors](#errors)

## 1 Naming

Text before the first rule is not a rule.

1. [Mandatory] Class names use UpperCamelCase. Abbreviations count as words.
   Positive example: `UserService`
   Counter-example:
   ```java
   class user_service {}
   ```
2. [Recommended] Method names use lowerCamelCase.
   Note: getters start with `get`.

## 2 Errors

Exceptions MUST NOT be swallowed. Log or rethrow them.

Callers SHOULD prefer unchecked exceptions.

A plain paragraph that is context only.
"""


def test_english_markdown_rules(tmp_path):
    md = tmp_path / "guide.md"
    md.write_text(EN_MD, encoding="utf-8")
    units = segment(md, "java")
    ids = [u.rule_id for u in units]
    assert ids == ["guide:1.1.1", "guide:1.1.2", "guide:1.2.1", "guide:1.2.2"]
    cls = units[0]
    assert cls.level is RuleLevel.MANDATORY and cls.title == "Class names use UpperCamelCase."
    assert cls.good_examples == ["`UserService`"] and "class user_service {}" in cls.bad_examples[0]
    assert cls.section == ["Java Style Guide", "1 Naming"] and cls.source.page is None
    assert units[1].level is RuleLevel.RECOMMENDED and "Note: getters start with `get`." in units[1].text
    assert units[2].level is RuleLevel.MANDATORY and units[2].title == "Exceptions MUST NOT be swallowed."
    assert units[3].level is RuleLevel.RECOMMENDED
    assert all("Contents" not in u.text and "context only" not in u.text for u in units)


def test_english_text_pages_with_footers(tmp_path):
    pages = [
        ("ACME Coding Rules\n1 Security\n1. MUST: Validate all input. Counter-example: none.\n"
        "2. SHOULD: Use prepared statements for every\nPage 1 of 2"),
        "ACME Coding Rules\nquery that takes user input.\n3. MAY: Cache results.\nPage 2 of 2",
    ]
    txt = tmp_path / "rules.txt"
    txt.write_text("\f".join(pages), encoding="utf-8")
    units = segment(txt, "acme")
    assert [(u.rule_id, u.level, u.source.page) for u in units] == [
        ("rules:1.1", RuleLevel.MANDATORY, 1), ("rules:1.2", RuleLevel.RECOMMENDED, 1), ("rules:1.3", RuleLevel.REFERENCE, 2)]
    assert units[1].text == "Use prepared statements for every query that takes user input."
    assert all("ACME" not in u.full_text() and "Page" not in u.full_text() for u in units)


def test_docx_and_html_rules(tmp_path):
    units = segment(make_docx(tmp_path / "rules.docx"), "w")
    assert [(u.rule_id, u.level) for u in units] == [
        ("rules:1.1.1", RuleLevel.MANDATORY), ("rules:1.1.2", RuleLevel.RECOMMENDED), ("rules:1.2.1", RuleLevel.MANDATORY)]
    assert units[0].good_examples == ["UserService / OrderDTO"] and units[1].bad_examples
    assert units[1].section == ["一、编程规约", "(一) 命名风格"]

    html = tmp_path / "r.html"
    html.write_text("<h1>1 Naming</h1><ol><li>[Mandatory] Use camel case.</li><li>[Reference] Prefer short names."
                    "</li></ol><p>Counter-example: x_y</p>", encoding="utf-8")
    hu = segment(html, "h")
    assert [u.rule_id for u in hu] == ["r:1.1", "r:1.2"] and hu[1].bad_examples == ["x_y"]


def test_fallback_to_paragraphs_under_headings(tmp_path):
    md = tmp_path / "notes.md"
    md.write_text("# Reviews\n\nKeep changes small.\nOne topic per change.\n\n"
                  "# Tests\n\nEvery bug fix comes with a test.\n", encoding="utf-8")
    units = segment(md, "n")
    # a leaf section in which nothing starts a rule is one unit under its heading
    assert [(u.rule_id, u.title, u.section) for u in units] == [
        ("notes:1", "Reviews", ["Reviews"]), ("notes:2", "Tests", ["Tests"])]
    assert units[0].text == "Keep changes small. One topic per change."

    flat_text = tmp_path / "plain.txt"
    flat_text.write_text("Keep changes small.\n\nEvery bug fix comes with a test.\n", encoding="utf-8")
    assert [u.rule_id for u in segment(flat_text, "n")] == ["plain:p1"]  # no headings at all: paragraph groups


def test_node_parser_and_llamahub_documents():
    docs = [
        Document(text="一、规约\n1.【强制】甲规则。\n2.【推荐】乙规则。", metadata={"file_name": "x.pdf", "page_label": "7"}),
        Document(text="3.【参考】丙规则。", metadata={"file_name": "x.pdf", "page_label": "8"}),
    ]
    nodes = RuleSegmenter(kb="k").get_nodes_from_documents(docs)
    units = [unit_from_node(n) for n in nodes]
    assert [(u.rule_id, u.source.page) for u in units] == [("x:1.1", 7), ("x:1.2", 7), ("x:1.3", 8)]
    assert nodes[0].node_id == units[0].point_id and nodes[0].metadata["level"] == "mandatory"
    assert segment(docs, "k") == units


def test_segment_is_stable(tmp_path):
    md = tmp_path / "g.md"
    md.write_text(EN_MD, encoding="utf-8")
    assert [u.content_hash for u in segment(md, "j")] == [u.content_hash for u in segment(md, "j")]
