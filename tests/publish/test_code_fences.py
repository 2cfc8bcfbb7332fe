"""The info string of a code block comes from the file's language pack (`LanguagePack.fence`), so a
pack registered by a third party fences its code too; languages without a pack keep a small table."""

from __future__ import annotations

import pytest

from dualrag import languages
from dualrag.languages import LanguagePack
from dualrag.publish.blocks import code_language


@pytest.mark.parametrize(("path", "fence"), [
    ("src/A.java", "java"),
    ("flows/in.flow", "xml"),  # EDI flows and transforms are XML to a highlighter
    ("maps/po.dt", "xml"),
    ("pom.xml", "xml"),
    ("src/main/resources/application-prod.yml", "yaml"),  # the Spring pack's language is spring-yaml
    ("src/main/resources/application.properties", "properties"),
    ("src/main/kotlin/Quote.kt", "kotlin"),
    ("db/V7__cleanup.sql", "sql"),
    ("msg/po.x12", ""),  # a pack without a fence
    ("bin/deploy.sh", "bash"),  # no pack: the table
    ("LICENSE", ""),
])
def test_code_blocks_are_fenced_as_the_pack_says(path, fence):
    assert code_language(path) == fence


def test_a_pack_registered_at_run_time_fences_its_files():
    try:
        languages.register(LanguagePack(name="cobol", extensions=(".cbl",), fence="cobol"))
        assert code_language("src/PAYROLL.cbl") == "cobol"
    finally:
        languages.reload()
    assert code_language("src/PAYROLL.cbl") == ""
