"""Fast token estimate: a calibrated byte-class bigram model evaluated with C-speed primitives.

Why it works: BPE tokenizers first cut text into pieces at character-class boundaries (letter runs,
case changes, digit groups, punctuation runs, whitespace/newline runs) and then merge bytes inside a
piece. So the token count of code is, to a good approximation, a sum of per-position costs that depend
on the class of a byte and the class of the byte before it: "space then letter" usually starts a token,
"lower then lower" rarely does, "digit after digit" does every third time, a CJK lead byte costs
about one token, and so on. Each byte is mapped to one of 15 classes (0 marks start/end of text), so a
position is described by one bigram code `prev << 4 | cur` (one byte). Fitted costs per code
(non-negative least squares on relative error, under-estimates weighted double) are stored below in
1/64-token units, so the estimate is just: the sum of a translated byte string.

Everything runs inside C loops, no per-character Python: `str.encode`, `bytes.translate` (byte ->
class), `int.from_bytes` and one big-int shift/OR (pairs each byte's class with its predecessor's),
`int.to_bytes`, `bytes.translate` again (code -> cost) and `zlib.adler32` over 256-byte slices, whose
low half is 1 + the byte sum (exact while the slice sum stays below 65521).

The costs know character classes, not vocabulary: rare identifiers, hashes, Chinese product names
or YAML keys hold more (or fewer) tokens per byte than the code they were fitted on, and a fixed
table cannot know which. So when an exact tokenizer is installed (a core dependency) the text
corrects its own estimate: a `Sampling.share` of its characters (at least `Sampling.minimum`), as
short windows spread over it and cut at whitespace, is tokenised exactly; the estimate is that
exact count plus the rest's bigram sum scaled by the sample's exact/bigram ratio (shrunk towards 1
for small samples). A text under twice the minimum is simply counted exactly: the tokenizer costs
microseconds there. Sampled estimates are scaled by (1 + Sampling.margin); without an exact
tokenizer the estimate is the bigram sum scaled by (1 + MARGIN), plus ADD. Both err on the safe
side; scripts/bench/tokens.py measures error, worst under-estimate and speed.
"""

from __future__ import annotations

import math
import re
import zlib
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .base import TokenEstimator, utf8

UNIT = (
    1 / 64
)  # a stored cost of k means k/64 tokens; 8-bit costs cap a bigram at ~4 tokens
MAX_COST = 255
NUMPY_ABOVE = 4096  # characters; below it numpy's per-call overhead outweighs its speed
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


def _numpy_units(text: str, costs) -> int:
    """The same sum as bigram_codes + translate + _byte_sum, with numpy: a bincount of the
    bigram codes weighted by their costs (faster than big-int shifts on long texts)."""
    import numpy as np

    classes = np.frombuffer(utf8(text).translate(CLASS_TABLE), dtype=np.uint8)
    codes = np.empty(len(classes) + 1, dtype=np.uint8)
    codes[0] = classes[0] if len(classes) else 0  # the start edge: class 0 before the first byte
    codes[1:-1] = (classes[:-1] << 4) | classes[1:]
    codes[-1] = classes[-1] << 4 if len(classes) else 0  # the end edge after the last byte
    return int(np.bincount(codes, minlength=256) @ costs)


@dataclass(frozen=True)
class Sampling:
    """How much of a text `FastEstimator` tokenises exactly to correct its bigram estimate, and
    the safety scale. Chosen on the language packs' diffs, scored on the shared awkward diffs
    (`python -m scripts.bench.tokens --choose` makes the choice on each set and scores the other)."""

    share: float = 1 / 20  # of the text's characters
    minimum: int = 1200  # characters: a smaller sample is too noisy; a text under twice this is counted whole
    window: int = 100  # characters per window: many short windows follow a mixed text best
    shrink: int = 300  # tokens: a sample this size moves the estimate halfway to its own ratio
    margin: float = 0.03  # a sampled estimate is scaled by 1 + margin: budgets err on the safe side


_SPACE = re.compile(r"\s")
_GOLDEN = 0.6180339887498949


def _windows(text: str, size: float, window: int) -> str:
    """About `size` characters of `text`: windows of `window` characters spread over it, starting
    and ending at whitespace where one is near (a cut word costs extra tokens)."""
    n, count = len(text), max(1, round(size / window))
    out = []
    for i in range(count):
        # one window per stratum, at a golden-ratio offset inside it: evenly spaced windows would
        # alias with a text's own period (generated code repeats blocks of one length)
        start = max(0, int((i + (i * _GOLDEN + 0.5) % 1.0) * n / count) - window // 2)
        if start:
            space = _SPACE.search(text, start, start + window // 4)
            start = space.start() if space else start
        stop = min(n, start + window)
        space = _SPACE.search(text, stop, stop + window // 4)
        out.append(text[start : space.start() if space else stop])
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
        self._cost_array = None

    def _units(self, text: str) -> int:
        """The bigram sum, in UNIT steps."""
        if len(text) < NUMPY_ABOVE:
            return _byte_sum(bigram_codes(text).translate(self._table))
        return _numpy_units(text, self._costs())

    def _costs(self):
        if self._cost_array is None:
            import numpy as np

            self._cost_array = np.frombuffer(self._table, dtype=np.uint8).astype(np.int64)
        return self._cost_array

    def count(self, text: str) -> int:
        if not text:
            return 0
        if self._reference is None:
            return math.ceil(self._units(text) * UNIT * (1.0 + self._margin)) + self._add
        s, size = self._sampling, self.sample_size(text)
        if size is None:
            return self._reference.count(text)
        sample = _windows(text, size, s.window)
        exact = self._reference.count(sample)
        guess = self._units(sample) * UNIT
        factor = 1.0 + (exact / max(guess, 1.0) - 1.0) * exact / (exact + s.shrink)
        rest = max(self._units(text) * UNIT - guess, 0.0)  # what the sample did not count exactly
        return math.ceil((exact + rest * factor) * (1.0 + s.margin))

    def sample_size(self, text: str) -> float | None:
        """Characters of `text` the exact tokenizer reads; None: the text is counted whole."""
        size = max(len(text) * self._sampling.share, self._sampling.minimum)
        return None if 2 * size >= len(text) else size

    def count_many(self, texts: Iterable[str]) -> list[int]:
        return [self.count(t) for t in texts]


# --- calibration (used by scripts/bench/tokens.py --calibrate; pure Python, no numpy) -------------


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
# Produced by `python -m scripts.bench.tokens --calibrate --write ../shared/eval/diffs
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
