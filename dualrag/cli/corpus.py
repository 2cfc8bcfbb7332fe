"""`dualrag corpus build|stats`: the clean corpus mined detectors are verified on, from Debian's
source packages (indexers/corpus). Only ever run when a person asks: it contacts Debian's mirror."""

from __future__ import annotations

import time
from pathlib import Path

import click

from dualrag.cli.options import debug_option
from dualrag.errors import UserError

DEFAULT_LANGUAGES = ("java", "python", "kotlin", "sql")


def _names(values: tuple[str, ...]) -> list[str]:
    """`--x a,b --x c` as [a, b, c], each once, in order."""
    return list(dict.fromkeys(v.strip() for value in values for v in value.split(",") if v.strip()))


def _root(folder: str | None) -> Path:
    from indexers.corpus import default_corpus_dir

    return Path(folder).expanduser() if folder else default_corpus_dir()


def _shown(path: Path) -> str:
    from indexers.corpus.manifest import shown_path

    return shown_path(path)


@click.group()
def corpus() -> None:
    """A clean corpus of well-kept open-source code, from Debian's source packages."""


@corpus.command("build")
@click.option("--language", "languages", multiple=True, metavar="LANG[,LANG]",
              help=f"Languages to build (default: {','.join(DEFAULT_LANGUAGES)}).")
@click.option("--dir", "folder", metavar="DIR", help="Corpus folder (default: ~/.cache/dualrag/corpus).")
@click.option("--packages", multiple=True, metavar="PKG[,PKG]",
              help="Debian source (or binary) packages instead of the curated set; needs one --language.")
@click.option("--refresh", is_flag=True, help="Fetch Debian's source index anew first (newer versions replace "
                                              "older ones; otherwise packages already there are kept).")
@click.option("--mirror", metavar="URL", help="A Debian mirror (default: http://deb.debian.org/debian).")
@click.option("--suite", metavar="SUITE", help="Debian suite (default: bookworm).")
@click.option("--keyring", metavar="FILE", type=click.Path(exists=True, dir_okay=False),
              help="Keyring the mirror's index must be signed with (default: Debian's archive keyring).")
@debug_option
def build(languages: tuple[str, ...], folder: str | None, packages: tuple[str, ...], refresh: bool,
          mirror: str | None, suite: str | None, keyring: str | None) -> None:
    """Fetch a curated set of Debian source packages per language into DIR/<language>/<package>/,
    keeping only that language's source files, and write DIR/manifest.json.

    apt runs with a private configuration under DIR (the machine's apt sources are not touched),
    contacting only the mirror. Re-running fetches only what is missing or changed."""
    from indexers.corpus import CURATED, DEBIAN_MIRROR, DEBIAN_SUITE, Pick, PrivateApt, build_corpus, source_suffixes

    chosen = _names(languages) or list(DEFAULT_LANGUAGES)
    for language in chosen:
        source_suffixes(language)  # an unknown language: its error, before anything else
    names = _names(packages)
    if names and len(chosen) != 1:
        raise UserError("--packages needs exactly one --language (the language of those packages' files)")
    uncurated = [language for language in chosen if not names and language not in CURATED]
    if uncurated:
        raise UserError(f"no curated packages for {', '.join(uncurated)}: name them with --packages "
                        f"(curated: {', '.join(CURATED)})")
    wanted = [(chosen[0], Pick(name)) for name in names] if names else \
        [(language, pick) for language in chosen for pick in CURATED[language]]
    root = _root(folder)
    suite = suite or DEBIAN_SUITE
    apt = PrivateApt(root / f".apt-{suite}", mirror=mirror or DEBIAN_MIRROR, suite=suite,
                     keyring=Path(keyring) if keyring else None)
    start = time.perf_counter()
    outcomes = build_corpus(root, wanted, apt, refresh=refresh, say=lambda line: click.echo(line, err=True))
    click.echo(f"{_shown(root)}: {_totals(root)}, {time.perf_counter() - start:.1f}s")
    failed = [o for o in outcomes if o.status == "failed"]
    if failed:
        raise UserError(f"{len(failed)} of {len(outcomes)} package(s) not fetched: "
                        f"{', '.join(f'{o.language}/{o.package}' for o in failed)} (the rest is in place)")


@corpus.command("stats")
@click.option("--dir", "folder", metavar="DIR", help="Corpus folder (default: ~/.cache/dualrag/corpus).")
@debug_option
def stats(folder: str | None) -> None:
    """What a built corpus holds: packages, files and lines per language."""
    from indexers.corpus import read_manifest
    from indexers.corpus.manifest import package_folder

    root = _root(folder)
    manifest = read_manifest(root) if root.is_dir() else None
    if manifest is None:
        raise UserError(f"no corpus at {_shown(root)}: build one with `dualrag corpus build`")
    click.echo(f"{_shown(root)}: Debian {manifest.suite} from {manifest.mirror}, updated {manifest.updated}")
    for language, totals in manifest.languages.items():
        click.echo(f"{language}: {totals.lines:,} lines in {totals.files:,} files of {totals.packages} package(s)")
        for e in (e for e in manifest.packages if e.language == language):
            there = "" if package_folder(root, language, e.package).is_dir() else "  MISSING (rebuild)"
            click.echo(f"  {e.package:<32} {e.source} {e.version}: {e.lines:,} lines, {e.files:,} files{there}")


def _totals(root: Path) -> str:
    from indexers.corpus import read_manifest

    manifest = read_manifest(root)
    parts = [f"{language} {t.lines:,} lines" for language, t in (manifest.languages.items() if manifest else ())]
    return ", ".join(parts) or "empty"
