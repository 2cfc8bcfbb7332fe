"""Nothing lost in a move of documentation: every sentence of the README at a base commit (prose split
at sentence ends and semicolons, each table cell, each line of a code block) is looked for in today's
README.md, docs/ and examples/dualrag.toml, compared without Markdown markup, link targets or line
breaks. Prints the count found and every sentence that is not, with the section it came from.

    .venv/bin/python -m evaluation.tools.docs_coverage [--base c7e994f]

Exit 1 when a sentence is missing, so a reason can be given for each (deliberate trimming of
duplication, a path that moved with its code).
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys

from evaluation import ROOT

TARGETS = ("README.md", "docs", "examples/dualrag.toml")
SHORTEST = 12  # characters: shorter pieces (a bare `;`-clause, a table's "—") say nothing on their own


def normal(text: str) -> str:
    """Markdown reduced to its words: links to their text, markup and line breaks gone, spaces single."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)
    text = re.sub(r"[*`]|<!--.*?-->", "", text)
    return " ".join(text.split())


def units(markdown: str) -> list[tuple[str, str]]:
    """(section, piece) for every sentence, table cell and code line of `markdown`."""
    out: list[tuple[str, str]] = []
    section, fence, paragraph = "(top)", False, []

    def flush() -> None:
        text = normal(" ".join(paragraph))
        out.extend((section, p.strip()) for p in re.split(r"(?<=[.;:!?])\s+(?=[^a-z0-9])|;\s+", text))
        paragraph.clear()

    for line in markdown.split("\n"):
        if line.startswith("```"):
            flush()
            fence = not fence
        elif fence:
            out.append((section, " ".join(line.split())))
        elif line.startswith("#"):
            flush()
            section = line.lstrip("# ").strip()
        elif line.startswith("|"):
            flush()
            if not set(line) <= set("|-: "):
                out.extend((section, normal(cell)) for cell in line.strip().strip("|").split(" | "))
        elif not line.strip():
            flush()
        else:
            paragraph.append(line)
    flush()
    return [(s, u) for s, u in out if len(u) >= SHORTEST]


def corpus() -> str:
    texts = []
    for target in TARGETS:
        path = ROOT / target
        files = sorted(path.rglob("*.md")) if path.is_dir() else [path]
        texts += [f.read_text(encoding="utf-8") for f in files]
    flat = []
    for text in texts:
        for section, piece in units(text):
            flat.append(piece)
        flat.append(normal(text))  # pieces re-wrapped across lines or cells are found in the whole text
    return "\n".join(flat)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base", default="c7e994f", help="the commit whose README is looked for")
    args = parser.parse_args(argv)
    old = subprocess.run(["git", "-C", str(ROOT), "show", f"{args.base}:README.md"], capture_output=True,
                         text=True, check=True).stdout
    pieces = units(old)
    everything = corpus()
    missing = [(section, piece) for section, piece in pieces if piece not in everything]
    print(f"{len(pieces) - len(missing)} of {len(pieces)} pieces of the README of {args.base} are in "
          f"{', '.join(TARGETS)}; {len(missing)} are not")
    for section, piece in missing:
        print(f"  [{section}] {piece}")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
