"""Build the `pmd` rule book (PMD's Java rules, BSD-style licence) from a snapshot of pmd/pmd.

    .venv/bin/python -m evaluation.books.pmd.build PATH   # bare git dir or checkout

A rule is a non-deprecated Java rule of `pmd-java/src/main/resources/category/java/*.xml` with an
example; SOURCE.md (written from NOTES) says how each field and label is made.
"""

from __future__ import annotations

import re
import sys
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path

from evaluation.books.builder import run
from evaluation.books.snapshot import Snapshot
from evaluation.books.text import dedent, humanise, prose_paragraphs, split_markdown
from evaluation.books.verdicts import comment_verdicts

BOOK, LANGUAGE = "pmd", "java"
PMD_DIR = "pmd-java/src/main/resources/category/java"
_PMD_NS = "{http://pmd.sourceforge.net/ruleset/2.0.0}"


def _pmd_prose(description: str) -> list[str]:
    text = dedent(description)
    text = re.sub(r"\{%\s*rule\s+\"?(?:[\w/]+/)?(\w+)\"?\s*%\}", r"\1", text)
    text = re.sub(r"\{%\s*jdoc(?:_package)?\s+(?:\w+::)?(?:[\w]+\.)*([\w#]+)\s*%\}", r"\1", text)
    text = text.replace("${pmd.website.baseurl}/", "")
    return prose_paragraphs("\n".join(piece for kind, piece, _ in split_markdown(text) if kind == "text"))


def build(snapshot: Snapshot) -> tuple[list[dict], dict]:
    """Every non-deprecated Java rule with an example; an example is compliant when its marker
    comments are all "good" ones (`// ok`, `// good`, `// preferred`...), violating otherwise
    (including examples that show both: they hold the violating code)."""
    rules, stats = [], Counter()
    for path in snapshot.files(PMD_DIR):
        if not path.endswith(".xml"):
            continue
        root = ET.fromstring(snapshot.read(path))
        category = root.get("name", Path(path).stem)
        for rule in root.iter(f"{_PMD_NS}rule"):
            stats["rules_in_source"] += 1
            if rule.get("deprecated") == "true" or rule.get("ref"):
                stats["deprecated"] += 1
                continue
            name = rule.get("name")
            description = rule.findtext(f"{_PMD_NS}description") or ""
            violating, compliant = [], []
            for example in rule.findall(f"{_PMD_NS}example"):
                code = dedent(example.text or "")
                if not code.strip():
                    continue
                verdicts = comment_verdicts(code)
                if verdicts["good"] and not verdicts["bad"]:
                    compliant.append(code)
                else:
                    stats["mixed_examples"] += bool(verdicts["good"] and verdicts["bad"])
                    violating.append(code)
            if not violating:
                stats["dropped_no_violating"] += 1
                continue
            prose = _pmd_prose(description)
            if not prose:
                stats["dropped_no_prose"] += 1
                continue
            priority = rule.findtext(f"{_PMD_NS}priority")
            rules.append({
                "id": name,
                "title": humanise(name),
                "prose": "\n\n".join(prose),
                "level": f"Priority {priority.strip()}" if priority else None,
                "category": category,
                "message": rule.get("message"),
                "violating": violating,
                "compliant": compliant,
                "source": path,
            })
    return rules, dict(stats)



NOTES = {
    "paths": f"`{PMD_DIR}/*.xml` (one `<rule>` each: name, message, `<description>`, `<priority>`, `<example>`)",
    "licence": "BSD-style (\"PMD's BSD-style license\", LICENSE at the repository root). Key line: "
               "\"Redistribution and use in source and binary forms, with or without modification, are "
               "permitted provided that ... Redistributions of source code must retain the above copyright "
               "notice, this list of conditions and the following disclaimer.\" Copyright (c) 2003-2009, "
               "InfoEther, LLC and the PMD contributors. The licence asks end-user documentation of a "
               "redistribution to include: \"This product includes software developed in part by support "
               "from the Defense Advanced Research Project Agency (DARPA)\".",
    "fields": "id = rule name; title = the name split into words; prose = `<description>` with "
              "fenced/indented code removed and `{% rule X %}` tags replaced by the rule name; level = "
              "\"Priority N\" from `<priority>` (1 high - 5 low); category = the ruleset name (Best "
              "Practices, Code Style, Design, ...); message = the rule's violation message.",
    "classification": "Each `<example>` CDATA block is one example. PMD examples show the code the rule "
                      "reports, often with inline comments. An example whose marker comments are all \"good\" "
                      "ones (`// ok`, `// good`, `// preferred`, `// better`, `// correct`...) and none \"bad\" "
                      "(`// bad`, `// wrong`, `// not ok`, `// violation`, `// avoid`, `// unsafe`...) is "
                      "compliant; every other example is violating, including examples that show the bad and "
                      "the good form side by side (counted as mixed below: they hold the violating code, "
                      "as a real change would). Deprecated rules and rule references are skipped; rules "
                      "without a violating example are dropped.",
}


if __name__ == "__main__":
    sys.exit(run(sys.argv[1:], BOOK, LANGUAGE, build, NOTES, sampled=True))
