"""`dualrag models list / verify / quantize / export-reranker` through the real entry point."""

from __future__ import annotations

import json
import shutil

import pytest

from dualrag._bundled import model_manifest
from dualrag.cli import main
from dualrag.rerank.manifest import load_manifest


def run(capsys, *args):
    with pytest.raises(SystemExit) as exc:
        main(list(args))
    out, err = capsys.readouterr()
    return exc.value.code, out, err


def test_manifest_is_valid_and_never_invents_digests():
    entries = load_manifest(model_manifest())
    names = {e.name for e in entries}
    assert {"bge-reranker-base", "bge-reranker-large", "bge-reranker-v2-m3", "ms-marco-MiniLM-L-6-v2"} <= names
    assert {e.kind for e in entries} == {"reranker", "embedder"}
    for e in entries:
        assert e.source and e.licence and e.max_length > 0
        assert all(d is None or len(d) == 64 for d in e.sha256.values())


def test_models_list(capsys):
    code, out, err = run(capsys, "models", "list")
    assert code == 0 and err == ""
    assert "bge-reranker-base" in out and "BAAI/bge-reranker-base" in out and "MIT" in out
    code, out, _ = run(capsys, "models", "list", "--kind", "reranker", "--format", "json")
    assert code == 0 and {m["kind"] for m in json.loads(out)} == {"reranker"}


def test_models_list_bad_manifest(capsys, tmp_path):
    bad = tmp_path / "m.toml"
    bad.write_text("[[model]]\nname = 1\n")
    code, _, err = run(capsys, "models", "list", "--manifest", str(bad))
    assert code == 2 and err.count("\n") == 1 and "m.toml" in err


def test_models_verify_ok(capsys, bert_dir):
    code, out, err = run(capsys, "models", "verify", str(bert_dir), "--hash")
    assert code == 0, out + err
    assert "FAIL" not in out and "test run" in out and "sha256" in out


def test_models_verify_missing_tokenizer(capsys, bert_dir, tmp_path):
    folder = shutil.copytree(bert_dir, tmp_path / "m")
    (folder / "tokenizer.json").unlink()
    code, out, err = run(capsys, "models", "verify", str(folder))
    assert code == 2 and "FAIL  files: missing tokenizer.json" in out
    assert err.startswith("dualrag: error: model folder") and err.count("\n") == 1 and "Traceback" not in err


def test_models_verify_corrupt_model(capsys, bert_dir, tmp_path):
    folder = shutil.copytree(bert_dir, tmp_path / "m")
    (folder / "model.onnx").write_bytes(b"not onnx")
    code, out, err = run(capsys, "models", "verify", str(folder))
    assert code == 2 and "FAIL  model.onnx: not a loadable ONNX model" in out and "model.onnx" in err


def test_models_verify_against_manifest_entry(capsys, roberta_dir, bert_dir, tmp_path):
    code, out, _ = run(capsys, "models", "verify", str(roberta_dir), "--name", "bge-reranker-base")
    assert code == 0 and "as bge-reranker-base" in out and "optional missing special_tokens_map.json" in out
    code, out, _ = run(capsys, "models", "verify", str(bert_dir), "--name", "bge-reranker-base")
    assert code == 2 and "manifest says input_ids, attention_mask" in out
    code, _, err = run(capsys, "models", "verify", str(bert_dir), "--name", "no-such-model")
    assert code == 2 and "unknown model name" in err


def test_models_verify_sha256_mismatch(capsys, bert_dir, tmp_path):
    manifest = tmp_path / "m.toml"
    manifest.write_text(
        '[[model]]\nname = "tiny"\nkind = "reranker"\nsource = "x/y"\nlicence = "MIT"\narchitecture = "bert"\n'
        'max_length = 64\ninputs = ["input_ids", "attention_mask", "token_type_ids"]\noutputs = "logits"\n'
        f'files = ["model.onnx", "tokenizer.json"]\nsha256 = {{"tokenizer.json" = "{"0" * 64}"}}\n')
    code, out, err = run(capsys, "models", "verify", str(bert_dir), "--name", "tiny", "--manifest", str(manifest))
    assert code == 2 and "FAIL  sha256 tokenizer.json: is " in out and "sha256 tokenizer.json" in err


def test_models_verify_not_a_folder(capsys, tmp_path):
    code, out, err = run(capsys, "models", "verify", str(tmp_path / "nope"))
    assert code == 2 and "FAIL  folder" in out


def test_models_quantize(capsys, bert_dir, tmp_path):
    code, out, err = run(capsys, "models", "quantize", str(bert_dir), "--to", str(tmp_path / "q"))
    assert code == 0, err
    assert "model_int8.onnx" in out and "top-10 agreement" in out
    code, out, _ = run(capsys, "models", "verify", str(tmp_path / "q"))
    assert code == 0 and "model_int8.onnx: loads" in out


def test_export_without_torch_says_what_to_install(capsys, tmp_path, monkeypatch):
    import builtins

    real_import = builtins.__import__

    def no_torch(name, *args, **kwargs):
        if name == "torch" or name.startswith("torch."):
            raise ImportError(name)
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_torch)
    code, _, err = run(capsys, "models", "export-reranker", "--from", str(tmp_path), "--to", str(tmp_path / "o"))
    assert code == 2 and "pip install 'dualrag[export]'" in err and err.count("\n") == 1


def _weight_scale_sizes(model_file) -> set[int]:
    """Sizes of the quantised weights' scale tensors (1 = one scale per tensor)."""
    import onnx
    from onnx import numpy_helper

    graph = onnx.load(str(model_file)).graph
    return {numpy_helper.to_array(t).size for t in graph.initializer if t.name.endswith("_scale")}


def test_models_quantize_scales_per_channel_unless_asked(capsys, bert_dir, tmp_path):
    code, _, err = run(capsys, "models", "quantize", str(bert_dir), "--to", str(tmp_path / "pc"), "--check", "0")
    assert code == 0, err
    code, _, err = run(capsys, "models", "quantize", str(bert_dir), "--to", str(tmp_path / "pt"), "--check", "0",
                       "--per-tensor")
    assert code == 0, err
    assert max(_weight_scale_sizes(tmp_path / "pc" / "model_int8.onnx")) > 1
    assert _weight_scale_sizes(tmp_path / "pt" / "model_int8.onnx") == {1}
