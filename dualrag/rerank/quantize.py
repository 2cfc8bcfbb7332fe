"""Dynamic int8 quantisation of a cross-encoder folder with ONNX Runtime."""

from __future__ import annotations

import logging
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import chdir, contextmanager
from pathlib import Path

from dualrag.rerank import calibration
from dualrag.rerank.base import ModelError
from dualrag.rerank.folder import INT8_MODEL_FILE, SIDE_FILES, TOKENIZER_FILE, _first_line, open_folder


def quantize(src_dir: str | Path, dst_dir: str | Path | None = None, *, per_channel: bool = True,
             optimize: bool = True) -> Path:
    """Write `model_int8.onnx` (int8 weights of MatMul/Attention, activations quantised at run time).

    Weights get one scale per output channel by default: on a trained cross-encoder that halves
    the int8 logit error of one scale per tensor at no measured speed cost
    (`evaluation/rerank/throughput.py`); `per_channel=False` gives the per-tensor model.

    `dst_dir` defaults to `src_dir`; when it differs, the tokenizer and config files are copied so
    the new folder is complete (load it with `int8=True`). With `optimize`, ONNX Runtime's
    transformer fusions (attention, layer norm, GELU) run first when they apply, so whole
    attention blocks are quantised too; a graph they do not recognise is quantised as it is.
    Returns the path of the written model.
    """
    try:
        from onnxruntime.quantization import QuantType, quantize_dynamic
    except ImportError:  # onnxruntime.quantization needs the onnx package
        raise ModelError("int8 quantisation needs the onnx package: pip install onnx (or 'dualrag[export]')") from None
    folder = open_folder(src_dir)
    dst = Path(dst_dir) if dst_dir is not None else folder.path
    dst.mkdir(parents=True, exist_ok=True)
    out = dst / INT8_MODEL_FILE
    with tempfile.TemporaryDirectory(prefix="dualrag-quant-") as tmp, _quiet():
        fused = _fused(folder.model_file, Path(tmp) / "fused.onnx", folder.config) if optimize else None
        # Shape inference can fail on some fused graphs (exported attention variants); the
        # plain graph then still quantises, only without the fused attention blocks.
        sources = [fused, folder.model_file] if fused else [folder.model_file]
        for attempt, source in enumerate(sources, start=1):
            try:
                quantize_dynamic(
                    model_input=str(source),
                    model_output=str(out),
                    weight_type=QuantType.QInt8,
                    per_channel=per_channel,
                    op_types_to_quantize=["MatMul", "Attention"],
                    extra_options={"MatMulConstBOnly": True},
                )
                break
            except Exception as exc:
                out.unlink(missing_ok=True)
                if attempt == len(sources):
                    raise ModelError(
                        f"{folder.model_file}: int8 quantisation failed: {_first_line(exc)}") from None
    calibration.forget(dst, INT8_MODEL_FILE)
    if dst.resolve() != folder.path.resolve():
        for name in (TOKENIZER_FILE, *SIDE_FILES):
            if (folder.path / name).is_file():
                shutil.copy2(folder.path / name, dst / name)
    return out


def _fused(model_file: Path, out: Path, config: dict) -> Path | None:
    """ONNX Runtime's BERT fusions applied offline, or None when they do not apply or fail."""
    heads, hidden = config.get("num_attention_heads"), config.get("hidden_size")
    if not (isinstance(heads, int) and isinstance(hidden, int)):
        return None
    try:
        from onnxruntime.transformers.optimizer import optimize_model

        model = optimize_model(str(model_file), model_type="bert", num_heads=heads, hidden_size=hidden,
                               opt_level=0, only_onnxruntime=False)
        if not model.get_fused_operator_statistics().get("Attention"):
            return None
        fused = out.with_name("fused-raw.onnx")
        model.save_model_to_file(str(fused), use_external_data_format=False)
        # The fused graph has contrib ops whose outputs plain ONNX shape inference cannot type;
        # ONNX Runtime's quantisation pre-processing (symbolic shape inference) types them.
        from onnxruntime.quantization.shape_inference import quant_pre_process

        # When symbolic shape inference gives up, it saves the whole model (hundreds of MB of
        # external data) into the working directory before raising: let that land in our temp dir.
        with chdir(out.parent):
            quant_pre_process(str(fused), str(out), skip_optimization=True)
        return out
    except Exception:  # noqa: BLE001 - fusion is an optimisation; quantise the plain graph instead
        return None


@contextmanager
def _quiet() -> Iterator[None]:
    """ONNX Runtime's quantiser and optimiser warn through logging about things that do not apply."""
    loggers = [logging.getLogger(), logging.getLogger("onnxruntime.transformers.optimizer"),
               logging.getLogger("onnxruntime.transformers.onnx_model")]
    levels = [lg.level for lg in loggers]
    for lg in loggers:
        lg.setLevel(logging.ERROR)
    try:
        yield
    finally:
        for lg, level in zip(loggers, levels):
            lg.setLevel(level)
