"""The default packages per language: widely used, well-kept libraries whose code a team's rules
would not object to, by Debian source (or binary) name. Tests are kept (clean code too), except
SQL's: regression inputs run failing statements on purpose. Why these and their sizes:
docs/mining.md, "A clean corpus from Debian's packages"."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Pick:
    package: str
    only: tuple[str, ...] = ()  # folders of the upstream tree to keep (empty: all of it)


CURATED: dict[str, tuple[Pick, ...]] = {
    # Apache Commons: the corpus the mining evaluation has always used.
    "java": (Pick("libcommons-lang3-java"), Pick("libcommons-io-java"), Pick("libcommons-collections4-java")),
    # Pallets, toolz, h11, toml, mccabe, Rich and Hypothesis (pip and pylint were left out: pip vendors
    # 20 libraries, data tables included; pylint's functional tests are wrong code on purpose).
    "python": tuple(Pick(p) for p in ("jinja2", "markupsafe", "toolz", "python-h11", "python-toml", "python-mccabe",
                                      "rich", "python-hypothesis")),
    # kotlinx libraries, the Gradle Kotlin DSL, and the Kotlin standard library out of the compiler's tree.
    "kotlin": (Pick("kotlinx-coroutines"), Pick("kotlinx-atomicfu"), Pick("gradle-kotlin-dsl"),
               Pick("kotlin", only=("libraries/stdlib",))),
    # PostgreSQL's own SQL (catalog views, contrib extension scripts), PostGIS, pglogical, pgpool-II.
    "sql": (Pick("postgresql-15"), Pick("postgis"), Pick("pglogical"), Pick("pgpool2")),
}

SKIP_TESTS = frozenset({"sql"})  # languages whose test code is not clean code
