"""`dualrag models`: the model manifest, folder checks, export and quantisation of rerankers."""

from __future__ import annotations

import json

import click

from dualrag.cli.options import debug_option
from dualrag.errors import UserError


@click.group()
def models() -> None:
    """Local models: list the manifest, verify a folder, export or quantise a reranker."""


@models.command("list")
@click.option("--manifest", "manifest_file", metavar="FILE", help="Manifest to read (default: the bundled models/manifest.toml).")
@click.option("--kind", type=click.Choice(["reranker", "embedder"]), help="Only this kind of model.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True)
@debug_option
def list_models(manifest_file: str | None, kind: str | None, fmt: str) -> None:
    """The models dualrag supports, where to get them and under which licence."""
    from dualrag.rerank.manifest import load_manifest

    entries = [e for e in load_manifest(manifest_file) if kind is None or e.kind == kind]
    if fmt == "json":
        click.echo(json.dumps([e.model_dump() for e in entries], indent=2, ensure_ascii=False))
        return
    rows = [("NAME", "KIND", "SOURCE", "LICENCE", "MAX LEN", "INPUTS")]
    rows += [(e.name, e.kind, e.source, e.licence, str(e.max_length), ",".join(
        "tt" if i == "token_type_ids" else i.replace("input_ids", "ids").replace("attention_mask", "mask")
        for i in e.inputs)) for e in entries]
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    for row in rows:
        click.echo("  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip())
    click.echo("\nNothing is downloaded: fetch `source` yourself, then `dualrag models export-reranker`.")


@models.command()
@click.argument("folder", metavar="DIR")
@click.option("--name", metavar="NAME", help="Manifest entry to check against (default: the folder's name).")
@click.option("--manifest", "manifest_file", metavar="FILE", help="Manifest to read (default: the bundled models/manifest.toml).")
@click.option("--hash", "hash_all", is_flag=True, help="Print the sha256 of every file in the folder.")
@debug_option
def verify(folder: str, name: str | None, manifest_file: str | None, hash_all: bool) -> None:
    """Check a model folder: files, ONNX and tokenizer load, inputs/outputs, a test run, sha256."""
    from dualrag.rerank.manifest import load_manifest, verify_folder

    report = verify_folder(folder, load_manifest(manifest_file), name=name, hash_all=hash_all)
    entry = f" as {report.entry.name} ({report.entry.kind})" if report.entry else " (not in the manifest)"
    click.echo(f"{folder}{entry}")
    for check in report.checks:
        click.echo(f"  {'ok  ' if check.ok else 'FAIL'}  {check.name}: {check.detail}")
    for file_name, digest in sorted(report.digests.items()):
        click.echo(f"  sha256  {digest}  {file_name}")
    failed = [c.name for c in report.checks if not c.ok]
    if failed:
        raise UserError(f"model folder {folder} failed {len(failed)} check(s): {', '.join(failed)}")


@models.command("export-reranker")
@click.option("--from", "hf_dir", required=True, metavar="HF_DIR", help="A local Hugging Face checkpoint folder.")
@click.option("--to", "out_dir", required=True, metavar="DIR", help="The ONNX folder to write.")
@click.option("--int8", is_flag=True, help="Also write model_int8.onnx (dynamic int8 quantisation).")
@click.option("--opset", type=click.IntRange(14, 21), default=17, show_default=True)
@debug_option
def export_reranker(hf_dir: str, out_dir: str, int8: bool, opset: int) -> None:
    """Export a cross-encoder checkpoint to model.onnx + tokenizer.json (needs 'dualrag[export]')."""
    from dualrag.rerank.export import export_reranker as run

    result = run(hf_dir, out_dir, int8=int8, opset=opset)
    click.echo(f"wrote {result.folder / 'model.onnx'} (inputs {', '.join(result.inputs)}; "
               f"{result.n_logits} logit(s); max |onnx - torch| = {result.max_abs_diff:.2e})")
    if result.int8_file:
        click.echo(f"wrote {result.int8_file} (use it with rerank.int8 = true)")


@models.command()
@click.argument("folder", metavar="DIR")
@click.option("--to", "out_dir", metavar="DIR", help="Write model_int8.onnx and the tokenizer files here (default: DIR).")
@click.option("--per-tensor", is_flag=True, help="One weight scale per tensor instead of per output channel (less accurate).")
@click.option("--check", type=click.IntRange(0, 1000), default=12, show_default=True, metavar="N",
              help="Compare int8 with fp32 rankings on N bundled rule cases (0 = skip).")
@debug_option
def quantize(folder: str, out_dir: str | None, per_tensor: bool, check: int) -> None:
    """Write model_int8.onnx next to model.onnx and report how well its ranking agrees with fp32."""
    from dualrag.rerank import OnnxCrossEncoder, top_k_overlap
    from dualrag.rerank import quantize as run
    from dualrag.rerank.calibration import bundled_cases

    written = run(folder, out_dir, per_channel=not per_tensor)
    click.echo(f"wrote {written}")
    if not check:
        return
    fp32 = OnnxCrossEncoder(folder)
    int8 = OnnxCrossEncoder(written.parent, int8=True)
    cases = bundled_cases()
    cases = cases[:: max(1, len(cases) // check)][:check]
    overlaps = []
    for case in cases:
        texts = [*case.relevant, *case.irrelevant]
        overlaps.append(top_k_overlap(fp32.score(case.query, texts), int8.score(case.query, texts), 10))
    click.echo(f"top-10 agreement of int8 with fp32 on {len(cases)} bundled rule cases: "
               f"mean {sum(overlaps) / len(overlaps):.2f}, min {min(overlaps):.2f}")


@models.command()
@click.argument("folder", metavar="DIR")
@click.option("--int8", is_flag=True, help="Calibrate model_int8.onnx instead of model.onnx.")
@click.option("--cases", "cases_file", metavar="FILE",
              help='JSON Lines {"query", "relevant": [...], "irrelevant": [...]} (default: the bundled rules).')
@click.option("--target-recall", type=click.FloatRange(0.5, 1.0), default=0.95, show_default=True,
              help="Share of relevant texts the threshold must keep.")
@debug_option
def calibrate(folder: str, int8: bool, cases_file: str | None, target_recall: float) -> None:
    """Choose the pruning threshold for a model file and record it in DIR/calibration.json."""
    from dualrag.rerank import OnnxCrossEncoder
    from dualrag.rerank import calibration as cal

    reranker = OnnxCrossEncoder(folder, int8=int8)
    if cases_file:
        cases, source = cal.read_cases(cases_file), cases_file
    else:
        cases, source = cal.bundled_cases(), "bundled rules: bad example vs its rule and 20 others"
    result = cal.calibrate(reranker, cases, target_recall=target_recall, source=source)
    path = cal.save(folder, reranker.folder.model_file.name, result)
    click.echo(f"{path} [{reranker.folder.model_file.name}]: {result.describe()}")
    click.echo("used whenever rerank.threshold is not set")
