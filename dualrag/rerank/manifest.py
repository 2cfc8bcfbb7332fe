"""The model manifest (`models/manifest.toml`) and `verify`, the health check of a model folder."""

from __future__ import annotations

import hashlib
import math
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from dualrag._bundled import model_manifest
from dualrag.rerank.base import ModelError
from dualrag.rerank.folder import INT8_MODEL_FILE, MODEL_FILE, TOKENIZER_FILE, _first_line


class ManifestEntry(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str
    kind: Literal["reranker", "embedder"]
    source: str = Field(description="Hugging Face repository id, for the user to download")
    licence: str
    architecture: str
    params: str | None = None
    max_length: int = Field(gt=0)
    inputs: list[str]
    outputs: str
    files: list[str]
    sha256: dict[str, str | None] = Field(default_factory=dict)
    notes: str = ""


def load_manifest(path: str | Path | None = None) -> list[ManifestEntry]:
    path = Path(path) if path is not None else model_manifest()
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ModelError(f"model manifest not found: {path} (pass --manifest FILE)") from None
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ModelError(f"{path}: not a readable TOML manifest: {exc}") from None
    entries = raw.get("model", [])
    if not isinstance(entries, list):
        raise ModelError(f"{path}: expected [[model]] tables")
    out = []
    for number, entry in enumerate(entries, 1):
        try:
            out.append(ManifestEntry.model_validate(entry))
        except ValidationError as exc:
            err = exc.errors()[0]
            raise ModelError(f"{path}: model #{number}: {'.'.join(map(str, err['loc']))}: {err['msg'].lower()}") from None
    return out


@dataclass
class Check:
    name: str
    ok: bool
    detail: str = ""


@dataclass
class VerifyReport:
    folder: Path
    entry: ManifestEntry | None
    checks: list[Check] = field(default_factory=list)
    digests: dict[str, str] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return all(c.ok for c in self.checks)

    def add(self, name: str, ok: bool, detail: str = "") -> bool:
        self.checks.append(Check(name, ok, detail))
        return ok


def sha256_file(path: Path, chunk: int = 1 << 20) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        while block := handle.read(chunk):
            digest.update(block)
    return digest.hexdigest()


def verify_folder(folder: str | Path, entries: list[ManifestEntry], name: str | None = None,
                  hash_all: bool = False) -> VerifyReport:
    """Check a model folder: files, ONNX load, tokenizer load, signature, a test run, sha256.

    The manifest entry is `name`, or the folder's own name when it matches one. Digests are
    computed for files whose sha256 the manifest knows (and for all files with `hash_all`).
    """
    folder = Path(folder)
    by_name = {e.name: e for e in entries}
    if name is not None and name not in by_name:
        raise ModelError(f"unknown model name '{name}' (see: dualrag models list)")
    entry = by_name.get(name or folder.name)
    report = VerifyReport(folder, entry)
    if not report.add("folder", folder.is_dir(), str(folder) if folder.is_dir() else f"not a directory: {folder}"):
        return report
    expected = entry.files if entry else [MODEL_FILE, TOKENIZER_FILE]
    int8_only = not (folder / MODEL_FILE).is_file() and (folder / INT8_MODEL_FILE).is_file()
    if int8_only:
        expected = [INT8_MODEL_FILE if f == MODEL_FILE else f for f in expected]
    missing = [f for f in expected if not (folder / f).is_file()]
    required_missing = [f for f in missing if f in (MODEL_FILE, INT8_MODEL_FILE, TOKENIZER_FILE)]
    optional = [f for f in missing if f not in required_missing]
    detail = "; ".join(filter(None, [
        "missing " + ", ".join(required_missing) if required_missing else "",
        "optional missing " + ", ".join(optional) if optional else "",
    ])) or "all of " + ", ".join(expected)
    report.add("files", not required_missing, detail)
    if required_missing:
        return report
    kind = entry.kind if entry else None
    session = None if int8_only else _check_onnx(report, folder / MODEL_FILE, MODEL_FILE)
    if (folder / INT8_MODEL_FILE).is_file():
        session8 = _check_onnx(report, folder / INT8_MODEL_FILE, INT8_MODEL_FILE)
        session = session or session8
    tokenizer_ok = _check_tokenizer(report, folder / TOKENIZER_FILE)
    if session is not None:
        kind = _check_signature(report, session, entry, kind)
    if session is not None and tokenizer_ok and kind == "reranker":
        _check_run(report, folder, int8_only)
    _check_digests(report, folder, entry, hash_all)
    return report


def _check_onnx(report: VerifyReport, path: Path, label: str):
    import onnxruntime as ort

    try:
        session = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    except Exception as exc:
        report.add(label, False, f"not a loadable ONNX model: {_first_line(exc)}")
        return None
    report.add(label, True, f"loads ({path.stat().st_size / 1e6:.1f} MB)")
    return session


def _check_tokenizer(report: VerifyReport, path: Path) -> bool:
    from tokenizers import Tokenizer

    try:
        tok = Tokenizer.from_file(str(path))
        pair = tok.encode("query", "candidate")
    except Exception as exc:
        return report.add("tokenizer.json", False, f"not a loadable tokenizer: {_first_line(exc)}")
    return report.add("tokenizer.json", bool(pair.ids),
                      f"vocabulary {tok.get_vocab_size()}, pair template gives {len(pair.ids)} tokens")


def _check_signature(report: VerifyReport, session, entry: ManifestEntry | None, kind: str | None) -> str | None:
    names = [i.name for i in session.get_inputs()]
    known = {"input_ids", "attention_mask", "token_type_ids"}
    ok = {"input_ids", "attention_mask"} <= set(names) and set(names) <= known
    detail = ", ".join(names)
    if ok and entry is not None and set(names) != set(entry.inputs):
        ok, detail = False, f"{detail} (manifest says {', '.join(entry.inputs)})"
    report.add("inputs", ok, detail)
    outputs = session.get_outputs()
    out = next((o for o in outputs if o.name == "logits"), outputs[0])
    shape = list(out.shape)
    looks = "reranker" if len(shape) in (1, 2) and (len(shape) == 1 or shape[1] in (1, 2)) else (
        "embedder" if len(shape) in (2, 3) else None)
    kind = kind or looks
    if kind == "reranker":
        ok = looks == "reranker"
        report.add("outputs", ok, f"{out.name} {shape}" + ("" if ok else " (expected (batch, 1) or (batch, 2) logits)"))
    else:
        ok = looks is not None
        report.add("outputs", ok, f"{out.name} {shape}" + ("" if ok else " (expected an embedding output)"))
    return kind


def _check_run(report: VerifyReport, folder: Path, int8: bool) -> None:
    from dualrag.rerank.cross_encoder import OnnxCrossEncoder

    try:
        scores = OnnxCrossEncoder(folder, int8=int8, threads=1).score(
            "null check before dereference", ["check the value for null first", "unrelated text about invoices"])
    except ModelError as exc:
        report.add("test run", False, str(exc))
        return
    ok = all(math.isfinite(s) for s in scores)
    report.add("test run", ok, "scores " + ", ".join(f"{s:.4f}" for s in scores))


def _check_digests(report: VerifyReport, folder: Path, entry: ManifestEntry | None, hash_all: bool) -> None:
    known = {f: d for f, d in (entry.sha256 if entry else {}).items() if d}
    names = sorted({*known, *(p.name for p in folder.iterdir() if p.is_file())} if hash_all else known)
    for file_name in names:
        path = folder / file_name
        if path.is_file():
            report.digests[file_name] = sha256_file(path)
    for file_name, digest in known.items():
        seen = report.digests.get(file_name)
        if seen is None:
            report.add(f"sha256 {file_name}", False, "file missing")
        else:
            report.add(f"sha256 {file_name}", seen == digest.lower(),
                       "matches the manifest" if seen == digest.lower() else f"is {seen}, manifest says {digest}")
    if entry is not None and not known:
        report.add("sha256", True, "no digest known in the manifest (use --hash to print this folder's)")
