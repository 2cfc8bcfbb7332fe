"""Fast token estimate: a calibrated byte-class bigram model evaluated with C-speed primitives.

Why it works: BPE tokenizers first cut text into pieces at character-class boundaries (letter runs,
case changes, digit groups, punctuation runs, whitespace/newline runs) and then merge bytes inside a
piece. So the token count of code is, to a good approximation, a sum of per-position costs that depend
on the class of a byte and the class of the byte before it: "space then letter" usually starts a token,
"lower then lower" rarely does, "digit after digit" does every third time, a CJK lead byte costs
about one token, and so on. Each byte is mapped to one of 15 classes (0 marks start/end of text), so a
position is described by one bigram code `prev << 4 | cur` (one byte). Fitted costs per code
(non-negative least squares on relative error, under-estimates weighted double) are stored below in
1/64-token units, so the estimate is just: the sum of the costs of the text's byte pairs.

No per-character Python: a long text is read as an array of little-endian uint16 that steps one byte
at a time (each byte with the next), each pair indexing a 65,536-entry table of pair costs (numpy
`take` and a sum, about a nanosecond a byte); a short one goes through `bytes.translate` (byte -> class), one big-int
shift/OR (pairs each class with its predecessor's), `bytes.translate` again (code -> cost) and
`zlib.adler32` over 256-byte slices, whose low half is 1 + the byte sum.

The costs know character classes, not vocabulary: rare identifiers, hashes, Chinese product names
or YAML keys hold more (or fewer) tokens per byte than the code they were fitted on, and a fixed
table cannot know which. So when an exact tokenizer is installed (a core dependency) the text
corrects its own estimate from a small exact sample (`Sampling`): about `scale * n ** growth`
characters of an n-character text, more where it has non-ASCII bytes (Chinese and Japanese text
strays furthest from the costs) or long lines, as short windows spread over it that start and end at spaces. The
estimate is that exact count plus the rest's bigram sum scaled by the sample's exact/bigram ratio,
shrunk towards 1 by the sample's size; a sample that finds more tokens than the costs is trusted
sooner than one that finds fewer, since an under-count is the costlier error (it overflows a
budget). A text under `Sampling.exact_below` characters is counted whole. The exact tokenizer reads
at most 3.5% of the characters of the chunker's chunks, short ones included, which keeps the estimate
about ten times faster than counting exactly on chunks (more on whole diffs); without one, the estimate is the bigram sum scaled by (1 + MARGIN), plus ADD.
evaluation/bench/tokens.py measures error, worst under-estimate, speed, and chooses `Sampling`.
"""

from __future__ import annotations

import functools
import math
import zlib
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import NamedTuple

from .base import TokenEstimator, utf8

UNIT = (
    1 / 64
)  # a stored cost of k means k/64 tokens; 8-bit costs cap a bigram at ~4 tokens
MAX_COST = 255
NUMPY_ABOVE = 700  # bytes; below it numpy's per-call overhead outweighs its speed
BLOCK = 1 << 20  # byte pairs per numpy pass; 255 * BLOCK fits the uint32 sum
LONG_LINE = 100  # characters: a text whose lines average more is sampled more (up to 4x)
SLICE = 256  # 256 * 255 < 65521, so adler32's low half is an exact byte sum per slice
UNDER_WEIGHT = 2.0  # relative weight of under-estimated units when fitting
RIDGE = 1e-4  # relative ridge: damps costs of bigrams seen in only a few units

CLASS_NAMES = (
    "edge", "vowel", "consonant", "upper", "digit", "space", "tab", "newline",
    "cr", ".,;()", "{}[]<>\"'", "other-ascii", "utf8-cont", "utf8-lead2", "cjk-lead", "utf8-lead-other",
)  # fmt: skip


def _byte_class(i: int) -> int:
    c = chr(i)
    if "a" <= c <= "z":
        return 1 if c in "aeiou" else 2
    if "A" <= c <= "Z":
        return 3
    if "0" <= c <= "9":
        return 4
    if c == " ":
        return 5
    if c in "\t\v\f":
        return 6
    if c == "\n":
        return 7
    if c == "\r":
        return 8
    if c in ".,;()":
        return 9
    if c in "{}[]<>\"'":
        return 10
    if i < 0x80:
        return 11  # other punctuation and control characters
    if i < 0xC0:
        return 12  # UTF-8 continuation byte
    if i < 0xE0:
        return 13  # lead of a 2-byte character (accented Latin, Cyrillic, Greek, ...)
    if 0xE4 <= i <= 0xE9:
        return 14  # lead of a 3-byte CJK ideograph (U+4000..U+9FFF)
    return 15  # other 3/4-byte leads: kana, CJK punctuation, full-width forms, Hangul, emoji


CLASS_TABLE = bytes(_byte_class(i) for i in range(256))


def bigram_codes(text: str) -> bytes:
    """One byte per position of the UTF-8 text plus one for the end: `prev_class << 4 | class`."""
    data = utf8(text)
    x = int.from_bytes(data.translate(CLASS_TABLE), "little")
    # little-endian: shifting by 12 bits moves each byte's class into the high nibble of the next byte
    return (x | (x << 12)).to_bytes(len(data) + 1, "little")


def _byte_sum(data: bytes) -> int:
    view, adler = memoryview(data), zlib.adler32
    sums = [adler(view[i : i + SLICE]) & 0xFFFF for i in range(0, len(data), SLICE)]
    return sum(sums) - len(sums)


@functools.lru_cache(maxsize=4)
def _pair_costs(table: bytes):
    """numpy array of the cost of every byte pair (first byte low, as a little-endian uint16 reads)."""
    import numpy as np

    pair = np.arange(1 << 16)
    classes = np.frombuffer(CLASS_TABLE, np.uint8).astype(np.intp)
    return np.frombuffer(table, np.uint8)[classes[pair & 0xFF] << 4 | classes[pair >> 8]]


def bigram_units(data: bytes, table: bytes) -> int:
    """The bigram cost sum of UTF-8 `data`, in UNIT steps. Short data: big-int shifts and
    `bytes.translate`; longer data: every byte pair read as one uint16 (a view that steps one byte at
    a time) indexing a table of pair costs, in blocks that bound the memory of numpy's index copy."""
    n = len(data)
    if n < NUMPY_ABOVE:
        x = int.from_bytes(data.translate(CLASS_TABLE), "little")
        return _byte_sum((x | (x << 12)).to_bytes(n + 1, "little").translate(table))
    import numpy as np

    pairs, total = _pair_costs(table), 0
    for start in range(0, n - 1, BLOCK):  # the pairs that begin in [start, start + BLOCK)
        view = np.ndarray((min(BLOCK, n - 1 - start),), "<u2", data, start, (1,))
        total += int(pairs.take(view).sum(dtype=np.uint32))
    return total + table[CLASS_TABLE[data[0]]] + table[CLASS_TABLE[data[-1]] << 4]  # the two edges


class Sample(NamedTuple):
    """What a text's exact sample found: its exact count, its bigram estimate and the bigram
    estimate of the rest of the text."""

    exact: int
    guess: float
    rest: float


@dataclass(frozen=True)
class Sampling:
    """How much of a text `FastEstimator` tokenises exactly, and how far the sample moves the bigram
    estimate. `python -m evaluation.bench.tokens --choose` picks them on one set of diffs and scores them
    on the other, both ways; the shipped ones are the choice on the language packs' diffs."""

    exact_below: int = 1500  # characters: a shorter text is counted whole
    scale: float = 3.0  # the sample is scale * n ** growth characters of an n-character text ...
    growth: float = 0.4
    minimum: int = 60  # ... at least this many ...
    non_ascii: float = 10.0  # ... times 1 + this * the text's share of non-ASCII bytes
    window: int = 60  # characters per window
    shrink_up: int = 50  # tokens: a sample this size moves the estimate halfway up to its own ratio
    shrink_down: int = 200  # ... and halfway down
    margin: float = 0.0  # a sampled estimate is scaled by 1 + margin

    def size(self, text: str, nbytes: int) -> float | None:
        """Characters of `text` (`nbytes` in UTF-8) to sample; None: count the text whole."""
        chars = len(text)
        if chars < self.exact_below:
            return None
        size = max(self.scale * chars**self.growth, self.minimum) * (1.0 + self.non_ascii * (nbytes - chars) / chars)
        rows = _row_length(text)  # long rows (seed data, minified code) mix more content per line
        if rows > LONG_LINE:
            size *= min(rows / LONG_LINE, 4.0)
        return None if 2 * size >= chars else size

    def estimate(self, sample: Sample) -> int:
        ratio = sample.exact / max(sample.guess, 1.0)
        shrink = self.shrink_up if ratio > 1.0 else self.shrink_down
        factor = 1.0 + (ratio - 1.0) * sample.exact / (sample.exact + shrink)
        return math.ceil((sample.exact + sample.rest * factor) * (1.0 + self.margin))


_GOLDEN = 0.6180339887498949
_SPAN = 512  # characters: a long text's rows are measured in four slices of this length


def _row_length(text: str) -> float:
    """Average characters per line, measured in four slices spread over a long text."""
    n = len(text)
    if n <= 4 * _SPAN:
        return n / (text.count("\n") + 1)
    a, b, c, count = n // 4, n // 2, 3 * n // 4, text.count
    lines = count("\n", 0, _SPAN) + count("\n", a, a + _SPAN) + count("\n", b, b + _SPAN) + count("\n", c, c + _SPAN)
    return 4 * _SPAN / (lines + 1)


def _windows(text: str, size: float, window: int) -> str:
    """About `size` characters of `text`: windows of `window` characters spread over it, each
    starting after a space and ending before one where one is near (a cut word costs extra tokens)."""
    n, count, near = len(text), max(1, round(size / window)), window // 4
    find, out = text.find, []
    for i in range(count):
        # one window per stratum, at a golden-ratio offset inside it: evenly spaced windows would
        # alias with a text's own period (generated code repeats blocks of one length)
        start = max(0, int((i + (i * _GOLDEN + 0.5) % 1.0) * n / count) - window // 2)
        if start and (space := find(" ", start, start + near)) >= 0:
            start = space + 1
        stop = start + window
        space = find(" ", stop, stop + near)
        out.append(text[start : space if space >= 0 else stop])
    return "\n".join(out)


class FastEstimator:
    """Bigram-cost estimate calibrated against an exact tokenizer (o200k_base by default),
    corrected by an exact sample of the text when `reference` (that tokenizer) is given."""

    def __init__(self, family: str = "o200k", reference: TokenEstimator | None = None,
                 sampling: Sampling = Sampling()) -> None:
        if family not in CALIBRATIONS:
            raise ValueError(
                f"no fast calibration for {family!r}; known: {sorted(CALIBRATIONS)}"
            )
        costs, margin, add = CALIBRATIONS[family]
        self.name = f"fast-{family}" + ("+sampled" if reference is not None else "")
        self._table = bytes(costs)
        self._margin = margin
        self._add = add
        self._reference = reference
        self._sampling = sampling

    def count(self, text: str) -> int:
        if not text:
            return 0
        if self._reference is None:
            units = bigram_units(utf8(text), self._table)
            return math.ceil(units * UNIT * (1.0 + self._margin)) + self._add
        sample = self.sample(text)
        return self._reference.count(text) if sample is None else self._sampling.estimate(sample)

    def sample(self, text: str) -> Sample | None:
        """The exact sample of `text` (the reference reads it); None: `text` is to be counted whole."""
        data = utf8(text)
        size = self._sampling.size(text, len(data))
        if size is None or self._reference is None:
            return None
        sample = _windows(text, size, self._sampling.window)
        guess = bigram_units(utf8(sample), self._table) * UNIT
        rest = max(bigram_units(data, self._table) * UNIT - guess, 0.0)
        return Sample(self._reference.count(sample), guess, rest)

    def count_many(self, texts: Iterable[str]) -> list[int]:
        return [self.count(t) for t in texts]


# --- calibration (used by evaluation/bench/tokens.py --calibrate; pure Python, no numpy) -------------


def _solve_spd(a: list[list[float]], b: list[float]) -> list[float]:
    """Solve a symmetric positive-definite system by Cholesky decomposition."""
    n = len(b)
    low = [[0.0] * n for _ in range(n)]
    for i in range(n):
        row_i = low[i]
        for j in range(i + 1):
            row_j = low[j]
            s = a[i][j] - sum(row_i[k] * row_j[k] for k in range(j))
            row_i[j] = math.sqrt(max(s, 1e-12)) if i == j else s / row_j[j]
    z = [0.0] * n
    for i in range(n):
        z[i] = (b[i] - sum(low[i][k] * z[k] for k in range(i))) / low[i][i]
    x = [0.0] * n
    for i in reversed(range(n)):
        x[i] = (z[i] - sum(low[k][i] * x[k] for k in range(i + 1, n))) / low[i][i]
    return x


def _bounded_lsq(gram: list[list[float]], rhs: list[float], hi: float) -> list[float]:
    """min |Aw - b|^2 with 0 <= w <= hi (given A'A and A'b): an active-set pass pins variables that
    leave the box, then projected coordinate descent polishes (and may release pinned ones)."""
    n = len(rhs)
    pinned: dict[int, float] = {}
    w = [0.0] * n
    for _ in range(n):
        free = [i for i in range(n) if i not in pinned]
        sub = [[gram[i][j] for j in free] for i in free]
        r = [rhs[i] - sum(gram[i][j] * v for j, v in pinned.items()) for i in free]
        w = [pinned.get(i, 0.0) for i in range(n)]
        for i, v in zip(free, _solve_spd(sub, r)):
            w[i] = v
        out = [i for i in free if w[i] < 0 or w[i] > hi]
        if not out:
            break
        for i in out:
            pinned[i] = 0.0 if w[i] < 0 else hi
    w = [min(max(v, 0.0), hi) for v in w]
    for _ in range(500):
        change = 0.0
        for i in range(n):
            g = gram[i]
            new = (rhs[i] - sum(g[j] * w[j] for j in range(n)) + g[i] * w[i]) / g[i]
            new = min(max(new, 0.0), hi)
            change = max(change, abs(new - w[i]))
            w[i] = new
        if change < 1e-6:
            break
    return w


def fit_weights(
    texts: Sequence[str], targets: Sequence[int], rounds: int = 4
) -> list[float]:
    """Fitted token cost per bigram code (256 floats, in tokens), minimising squared relative error
    with under-estimates weighted UNDER_WEIGHT times; codes never seen get 0."""
    rows = [Counter(bigram_codes(t)) for t in texts]
    codes = sorted({c for r in rows for c in r})
    col = {c: i for i, c in enumerate(codes)}
    sparse = [[(col[c], n / y) for c, n in r.items()] for r, y in zip(rows, targets)]
    unit_weight = [1.0] * len(rows)
    n = len(codes)
    w: list[float] = [0.0] * n
    for _ in range(rounds):
        gram = [[0.0] * n for _ in range(n)]
        rhs = [0.0] * n
        for vec, uw in zip(sparse, unit_weight):
            for i, xi in vec:
                rhs[i] += uw * xi
                g = gram[i]
                for j, xj in vec:
                    g[j] += uw * xi * xj
        for i in range(
            n
        ):  # tiny ridge keeps codes seen in one unit from being unidentifiable
            gram[i][i] += RIDGE * (gram[i][i] + 1.0)
        w = _bounded_lsq(gram, rhs, MAX_COST * UNIT)
        unit_weight = [
            UNDER_WEIGHT if sum(w[i] * x for i, x in vec) < 1.0 else 1.0
            for vec in sparse
        ]
    full = [0.0] * 256
    for c, i in col.items():
        full[c] = w[i]
    return full


def format_weights(weights: Sequence[float], family: str = "o200k") -> str:
    """Python source for a 16x16 cost table in UNIT steps (rows: previous class, columns: class)."""
    units = [min(MAX_COST, max(0, round(v / UNIT))) for v in weights]
    lines = [
        "# fmt: off",
        f"{family.upper()}_COSTS = (  # row = previous byte class, column = byte class",
    ]
    for r in range(16):
        cells = ", ".join(f"{u:3d}" for u in units[r * 16 : (r + 1) * 16])
        lines.append(f"    {cells},  # {CLASS_NAMES[r]}")
    lines += [")", "# fmt: on"]
    return "\n".join(lines)


# --- calibrated constants -------------------------------------------------------------------------
# Produced by `python -m evaluation.bench.tokens --calibrate --write ../shared/eval/diffs
# ../shared/eval/bugs/dev.jsonl ../shared/eval/p3c/dev.jsonl ../shared/eval/kb` (pypdf installed) as
# it was at 4dda089: fitted on the content-hash-even half of the units (the calibrate mode then also
# fitted concatenations of consecutive diff sections; today's fits the sections, rows and pages) against
# exact o200k_base / cl100k_base counts. MARGIN and ADD (the bigram-only estimate: no exact tokenizer)
# were then chosen by hand (mean bias about +2%). The language-pack diffs are not in the fit.

# fmt: off
O200K_COSTS = (  # row = previous byte class, column = byte class
      0,   0,  82,   1,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,  56,   0,  # edge
      0,   0,   8,  42,  17,  38,  26,  28,   0,  49,   0,  37,   0,   0,   0,   0,  # vowel
      0,   3,   7,  43,  15,   0,   0,  63, 182,  39,  17,  44,   0,  28,  96, 149,  # consonant
      0,   3,   0,   8, 137,  11,   5,  65,   0,  41,  20,   8,   0,   0,  50,   5,  # upper
      0, 107,  94, 143,  14,   0,  14, 120,  46,  95,  15,  93,   0,  23,   6, 212,  # digit
     59,  37,  25,  34,  52,   1,   5,  10,   0,  35,   0,  43,   0,  25,  96,   0,  # space
      0,   0,  75, 155,   0,  50,   4,  24,  63, 109,  54,  62,   0,   0,   0,   0,  # tab
     20,   0, 122,   0,   0,  82,  25,  36,   0,   0,  39,  76,   0,   0,  88,  42,  # newline
      0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,  # cr
      0,   9,  15,  49,  32,  42,   0,  10,   2,   4,   4,   0,   0,   0, 244,   0,  # .,;()
      0,  58, 125,  63,  67,  31, 255,  57,  49,   0,   0,  58,   0,   0, 116,   0,  # {}[]<>"'
      0,  16,  38,  73,  53,  54,  37,   0,   0, 166,  13,   3,   0,   0,   0,  66,  # other-ascii
      0,   0,   0,   0,   0,   0,   0, 131, 139,   0,   0, 255,   0,   0,   1,  37,  # utf8-cont
      0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,  70,   0,   0,   0,  # utf8-lead2
      0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,  44,   0,   0,   0,  # cjk-lead
      0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,  # utf8-lead-other
)
# fmt: on
# fmt: off
CL100K_COSTS = (  # row = previous byte class, column = byte class
      0,   0, 167,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,  66,   0,  # edge
      0,   0,   6,  30,   4,  46,  15,   0,   0,  16,   0,  21,   0,   0,   1,   0,  # vowel
      0,   7,   7,  27,   7,   0,   0,  71, 182,  16,   4,  31,   0,  56,   0, 219,  # consonant
      0,  10,   4,  11, 166,   1,  13,  33,   0,  43,   5,   0,   0,   0,   0,   0,  # upper
      0, 124, 105, 161,  16,   0,  47, 104,  87,  86,   9,  36,   0,  44,   0, 202,  # digit
      0,  36,  24,  20,  42,   1,  16,  40, 111,   8,   0,  23,   0,   0,  18,   0,  # space
      0,   0,  83, 196,   0,  49,   1,   0,  55, 235,  59, 120,   0,   0,   0,   0,  # tab
      0,   0,  85,   0,   0,  81,  12,  17,   0,   0,   0,  67,   0,   0,  84, 110,  # newline
      0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,  # cr
      0,  44,  31,  80,  41,  61,   0,  21,   0,   0,   0,   0,   0,   0, 214,   0,  # .,;()
      0,  68, 115,  35,  68,  56, 255,  52,  50,   0,   0,  64,   0,   0,  47,   0,  # {}[]<>"'
      0,  27,  47,  70,  53,  71,  45,  18,   0, 144,  19,   0,   0,   0,   0, 168,  # other-ascii
     31,   0,   0,   0,   0,   0,   0, 197, 225,   0,   0, 255,   0,   0,   4,  60,  # utf8-cont
      0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,  63,   0,   0,   0,  # utf8-lead2
      0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,  62,   0,   0,   0,  # cjk-lead
      0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,  # utf8-lead-other
)
# fmt: on
MARGIN = 0.005
ADD = 1

CALIBRATIONS: dict[str, tuple[tuple[int, ...], float, int]] = {
    "o200k": (O200K_COSTS, MARGIN, ADD),
    "cl100k": (CL100K_COSTS, MARGIN, ADD),
}
