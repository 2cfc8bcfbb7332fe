"""Bytes of a diff -> FileDiffs, with the noise verdict taken before any hunk is parsed.

One fast pass of unidiff in metadata mode finds every file, its status and its line
counts. The input is read as Latin-1 for that pass (every byte maps to one character,
so nothing is lost and no byte sequence can fail); each file's own bytes are then
decoded with the encoding detected for that file alone, because one merge request can
hold a UTF-8 file next to a GB18030 one.
"""

from __future__ import annotations

import re
from array import array
from collections.abc import Callable, Iterator

from unidiff import PatchedFile, PatchSet
from unidiff.errors import UnidiffParseError

from dualrag.config import LimitsConfig
from dualrag.diff.caps import oversized, sample_long_lines
from dualrag.diff.model import FileDiff, FileStatus
from dualrag.errors import DiffError
from dualrag.source import encoding, paths
from dualrag.source.language import language_of
from dualrag.source.noise import NoiseFilter, Skip
from dualrag.source.skips import binary_certain, lock_change
from dualrag.source.text import has_controls

_COMBINED = re.compile(rb"^diff --(?:cc|combined) ", re.MULTILINE)
_SIMILARITY = re.compile(r"^(?:similarity|dissimilarity) index (\d+)%")
_HUNK_TARGET = re.compile(r"@@ -\d+(?:,\d+)? \+(\d+)")
_HUNK_RANGES = re.compile(r"^@@ -\d+(?:,(\d+))? \+\d+(?:,(\d+))? @@")
_NEEDS_LONGEST_LINE = frozenset({"javascript", "css"})


def parse_files(data: bytes, noise: NoiseFilter | Callable[[set[str]], NoiseFilter],
                limits: LimitsConfig | None = None) -> list[FileDiff]:
    """Every file of the diff, reviewable or skipped (with its reason); `limits` caps one file's
    size and line length (dualrag.diff.caps). `noise` may be made from the paths the change
    writes (a lock file's manifest can come with it)."""
    limits = limits or LimitsConfig()
    combined = _COMBINED.search(data)
    if combined:
        line = data.count(b"\n", 0, combined.start()) + 1
        raise DiffError(
            f"combined diff (merge commit) at line {line} is not supported; "
            "diff the merge against one parent, e.g. 'git diff A...B'"
        )
    text = data.decode("latin-1")
    offsets = array("q")  # where each line starts: 8 bytes a line instead of a str object
    patch = _metadata_pass(text, offsets)
    if not patch:
        raise DiffError("not a unified diff: no file header ('diff --git' or '---'/'+++') found")
    if not isinstance(noise, NoiseFilter):
        noise = noise({p for pf in patch for p in (paths.clean(pf.target_file),) if p})
    starts = [offsets[_section_start(pf)] for pf in patch]
    ends = starts[1:] + [len(text)]
    return [
        _file_diff(pf, text[start:end], noise, limits)
        for pf, start, end in zip(patch, starts, ends, strict=True)
    ]


def _metadata_pass(text: str, offsets: array) -> PatchSet:
    def lines() -> Iterator[str]:
        # Split at "\n" only (str.splitlines would also split at \x85, \x1c... which
        # Latin-1-read UTF-8 is full of); io.StringIO would copy the text at 4 bytes a char.
        pos, size, find = 0, len(text), text.find
        while pos < size:
            end = find("\n", pos) + 1 or size
            offsets.append(pos)
            yield text[pos:end]
            pos = end

    try:
        return PatchSet(lines(), metadata_only=True)
    except UnidiffParseError as exc:
        reason = str(exc).strip().splitlines()[0][:120]
        raise DiffError(f"malformed diff near line {len(offsets)}: {reason}") from None


def _section_start(pf: PatchedFile) -> int:
    """0-based index of the first line that belongs to this file."""
    first_info = pf.patch_info[0] if pf.patch_info else ""
    if first_info.startswith("diff --git") or pf.is_binary_file:
        return pf.diff_line_no - 1
    return pf.diff_line_no - 2  # plain unified: the "---" line before the "+++" line


def _file_diff(pf: PatchedFile, section: str, noise: NoiseFilter, limits: LimitsConfig) -> FileDiff:
    old, new = paths.clean(pf.source_file), paths.clean(pf.target_file)
    info = pf.patch_info or []
    git_style = bool(info) and info[0].startswith("diff --git")
    if not git_style and old is not None and new is not None:
        old = new  # plain `diff -u a.orig a` names two versions of one file, not a rename
    status = _status(pf, old, new, info)
    path = new or old or ""
    language = language_of(path, section if not pf.is_binary_file else None)
    unsafe = next(filter(None, (paths.unsafe_reason(p) for p in (new, old) if p is not None)), None)
    noise_skip = None
    doubt: str | None = None  # why a skip is not certain (source/skips.py)
    if unsafe:
        skipped, doubt = f"unsafe path: {unsafe}", "an unsafe path is never opened"
    elif pf.is_binary_file:
        skipped = "binary file"
        if not binary_certain(path):
            doubt = f"a {language} file shown as binary" if language != "other" else "not a media, font or document type"
    else:
        head = _head(section) if status is not FileStatus.DELETED else []
        longest = (
            max((len(s) - 1 - s.endswith("\r") for s in section.split("\n") if s.startswith("+")), default=0)
            if language in _NEEDS_LONGEST_LINE
            else 0
        )
        noise_skip = noise.verdict(path, language, head, longest, added=lambda: added_lines(section))
        skipped = noise_skip.reason if noise_skip else oversized(len(section), limits)
        if noise_skip is not None:
            doubt = noise_doubt(noise_skip, section) or moved_in(noise_skip, noise, status, old, path)
        elif skipped is not None:
            doubt = "too large to review"

    has_text = not pf.is_binary_file and len(pf) > 0
    if has_text:
        _check_no_stray_lines(section, pf, path)
    text, enc = encoding.decode(section.encode("latin-1")) if has_text else ("", None)
    sampled = longest_cut = 0
    if skipped is None and has_text:
        text, sampled, longest_cut = sample_long_lines(text, limits.max_line_chars)
    return FileDiff(
        path=path,
        old_path=old if status in (FileStatus.RENAMED, FileStatus.COPIED, FileStatus.DELETED) else None,
        status=status,
        language=language,
        added=pf.added,
        removed=pf.removed,
        binary=pf.is_binary_file,
        similarity=_similarity(info),
        old_mode=pf.source_mode,
        new_mode=pf.target_mode,
        encoding=enc,
        newline=_newline(text) if has_text else None,
        skipped_reason=skipped,
        # A skip is never a pass: a skipped file blocks approval unless its skip is certain
        # (source/skips.py); a vendored one may still be confirmed against the target (diff.ingest).
        skip_certain=bool(skipped) and doubt is None,
        skip_doubt=doubt if skipped else None,
        unread=bool(skipped) and doubt is not None,
        sampled_lines=sampled,
        longest_line=longest_cut,
        hidden_chars=skipped is None and has_controls(text),
        section=text if skipped is None else "",
    )


def noise_doubt(skip: Skip, section: str) -> str | None:
    """Why a noise skip is not certain, or None when it is: the noise filter says so for every
    kind but lock files, whose changed lines decide (source/skips.py)."""
    if skip.kind == "lock":
        certain, why = lock_change(section)
        return None if certain else why
    return skip.doubt


# Skips decided by where a file is: a file moved there from a reviewed path is held.
_BY_PLACE = frozenset({"vendored", "pattern", "attribute"})


def moved_in(skip: Skip, noise: NoiseFilter, status: FileStatus, old: str | None, path: str) -> str | None:
    """A renamed or copied file whose old path would be reviewed is not noise for certain: moving
    code into a skipped folder would otherwise hide it."""
    if skip.kind not in _BY_PLACE or status not in (FileStatus.RENAMED, FileStatus.COPIED) or not old or old == path:
        return None
    if noise.verdict(old, language_of(old)) is None:
        return f"moved here from {old}, which is reviewed"
    return None


def added_lines(section: str) -> list[str]:
    """The lines the diff adds to the file (after the first hunk header)."""
    at = section.find("\n@@")
    return [line[1:].rstrip("\r") for line in section[at + 1:].split("\n") if line[:1] == "+"] if at >= 0 else []


def _check_no_stray_lines(section: str, pf: PatchedFile, path: str) -> None:
    """Refuse a hunk that holds more lines than its header says.

    unidiff stops reading a hunk at its declared length and takes what follows for
    header text, so extra changed lines would silently vanish from the review.
    """
    added = section.count("\n+") - 1  # minus the "+++" header line
    removed = section.count("\n-") - 1 - section.count("\n-- \n")  # minus "---" and a mail signature
    if added > pf.added or removed > pf.removed:
        raise DiffError(
            f"malformed diff: a hunk of {path} holds more changed lines than its '@@' header "
            f"declares ({added} '+' / {removed} '-' lines, header says {pf.added} / {pf.removed})"
        )


def _status(pf: PatchedFile, old: str | None, new: str | None, info: list[str]) -> FileStatus:
    if old is None:
        return FileStatus.ADDED
    if new is None:
        return FileStatus.DELETED
    if any(line.startswith("copy from ") for line in info):
        return FileStatus.COPIED
    if old != new:
        return FileStatus.RENAMED
    if not len(pf) and not pf.is_binary_file and pf.source_mode != pf.target_mode:
        return FileStatus.MODE_CHANGED
    return FileStatus.MODIFIED


def _similarity(info: list[str]) -> int | None:
    for line in info:
        m = _SIMILARITY.match(line)
        if m:
            return int(m.group(1))
    return None


def _head(section: str, most: int = 10) -> list[str]:
    """The first lines of the new file, as far as the first hunk shows them."""
    at = section.find("\n@@") + 1
    match = _HUNK_TARGET.match(section, at) if at else None
    if not match or int(match.group(1)) > 1:
        return []
    head: list[str] = []
    pos = section.find("\n", at) + 1
    while 0 < pos < len(section) and len(head) < most:
        end = section.find("\n", pos)
        end = len(section) if end < 0 else end
        line, pos = section[pos:end], end + 1
        if line[:1] in ("+", " "):
            head.append(line[1:])
        elif line[:1] != "-":
            break
    return head


def _newline(text: str) -> str:
    """"lf", "crlf" or "mixed", judged from the file lines inside the hunks only.

    Hunk headers, "\\ No newline" markers (and the line end the tool adds before one) and
    anything after the last hunk (a format-patch signature, a `diff -u` command line) are
    written by the diff tool, not the file.
    """
    if "\r\n" not in text:
        return "lf"
    crlf = lf = old_left = new_left = 0
    last: bool | None = None  # did the previous counted file line end in CRLF?
    for piece in text.split("\n"):
        header = _HUNK_RANGES.match(piece)
        if header:
            old_left = int(header[1]) if header[1] is not None else 1
            new_left = int(header[2]) if header[2] is not None else 1
            last = None
            continue
        if piece.startswith("\\") and last is not None:
            crlf, lf = (crlf - 1, lf) if last else (crlf, lf - 1)
            last = None
            continue
        if old_left <= 0 and new_left <= 0:
            last = None
            continue
        kind = piece[:1]
        old_left -= kind != "+"
        new_left -= kind != "-"
        last = piece.endswith("\r")
        crlf, lf = (crlf + 1, lf) if last else (crlf, lf + 1)
    if not crlf:
        return "lf"
    return "crlf" if lf <= 0 else "mixed"
