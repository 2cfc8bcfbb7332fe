#!/usr/bin/env python
"""Real Chinese comments of public Java code, for the injection check's false-alarm rate.

    .venv/bin/python -m evaluation.safety.zh_comments --snapshot nacos=/path/to/git-dir@COMMIT ...

Reads every `.java` file of each snapshot at its commit (git cat-file, no work tree), finds its
comments with tree-sitter (line and block comments, Javadoc included) and keeps those with at
least four Chinese characters, each as its lines without the comment markers. Writes them to
`zh_comments.jsonl.gz` beside this file: evaluation data, never shipped, the text its projects'
under their licence (zh_comments_SOURCE.md says which; zh_comments_LICENSE.txt and
zh_comments_NOTICE.txt carry the licence and the projects' notices). One row: repository, commit,
path, line, licence, the comment's lines. At most `--per-repo` comments per repository, chosen by a
fixed seed from the distinct ones.
"""

from __future__ import annotations

import argparse
import gzip
import json
import random
import re
import subprocess
from pathlib import Path

from dualrag.parsing._ts import parse, walk

OUT = Path(__file__).with_name("zh_comments.jsonl.gz")
_CJK = re.compile(r"[\u3400-\u9fff]")
_MARKS = re.compile(r"^\s*(?:/\*\*?|\*/|\*|//+)\s?|\s*\*/\s*$")


def comment_lines(text: str) -> list[str]:
    """A comment's lines without `//`, `/*`, `*` and `*/`, blank ones dropped."""
    return [s for s in (_MARKS.sub("", line).rstrip() for line in text.splitlines()) if s.strip()]


def java_blobs(git_dir: str, commit: str) -> list[tuple[str, bytes]]:
    listing = subprocess.run(["git", "--git-dir", git_dir, "ls-tree", "-r", "-z", commit], check=True,
                             capture_output=True).stdout
    entries = [e.split(b"\t", 1) for e in listing.split(b"\0") if e]
    wanted = [(meta.split()[2].decode(), path.decode()) for meta, path in entries
              if path.endswith(b".java") and meta.split()[1] == b"blob"]
    proc = subprocess.run(["git", "--git-dir", git_dir, "cat-file", "--batch"], check=True, capture_output=True,
                          input=b"".join(f"{sha}\n".encode() for sha, _ in wanted))
    out, pos, data = [], 0, proc.stdout
    for _, path in wanted:
        header_end = data.index(b"\n", pos)
        size = int(data[pos:header_end].split()[2])
        out.append((path, data[header_end + 1:header_end + 1 + size]))
        pos = header_end + 1 + size + 1
    return out


def comments_of(text: str) -> list[tuple[int, list[str]]]:
    root = parse("java", text)
    found = []
    for node in walk(root, lambda n: True):
        if node.type in ("line_comment", "block_comment"):
            body = node.text.decode("utf-8", "replace")
            if len(_CJK.findall(body)) >= 4:
                found.append((node.start_point[0] + 1, comment_lines(body)))
    return found


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--snapshot", action="append", required=True, metavar="NAME=GITDIR@COMMIT")
    ap.add_argument("--licence", default="Apache-2.0", help="the licence the repositories declare (LICENSE)")
    ap.add_argument("--per-repo", type=int, default=2500)
    args = ap.parse_args()
    rows = []
    for spec in args.snapshot:
        name, _, rest = spec.partition("=")
        git_dir, _, commit = rest.rpartition("@")
        seen: dict[str, dict] = {}
        for path, data in java_blobs(git_dir, commit):
            for line, lines in comments_of(data.decode("utf-8", "replace")):
                key = "\n".join(lines)
                if lines and key not in seen:
                    seen[key] = {"repository": name, "commit": commit, "path": path, "line": line,
                                 "licence": args.licence, "lines": lines}
        chosen = sorted(seen.values(), key=lambda r: (r["path"], r["line"]))
        random.Random(20261204).shuffle(chosen)
        rows += chosen[: args.per_repo]
        print(f"{name}@{commit[:10]}: {len(seen)} distinct comments with Chinese text, {min(len(seen), args.per_repo)} kept")
    text = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows).encode()
    OUT.write_bytes(gzip.compress(text, compresslevel=9, mtime=0))  # the same bytes every run
    print(f"wrote {len(rows)} comments to {OUT}")


if __name__ == "__main__":
    main()
