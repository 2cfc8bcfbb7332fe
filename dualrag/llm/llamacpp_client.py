"""In-process GGUF models through `llama-cpp-python` (optional extra `dualrag[llamacpp]`).

Imported lazily: without the extra, building this client raises `MissingExtra` naming the pip
command. Structured output uses llama.cpp's JSON-schema grammar (`response_format` with a
`schema`). A per-attempt timeout cannot interrupt in-process generation; the overall deadline
still applies between attempts.
"""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

from dualrag.config.llm import LLMConfig, ModelSpec
from dualrag.errors import ConfigError
from dualrag.llm.base import ProviderClient
from dualrag.llm.errors import ErrorKind, MissingExtra, ProviderError, make_error
from dualrag.llm.structured import schema_json
from dualrag.llm.types import FinishReason, LLMRequest, LLMResponse, Usage

INSTALL_HINT = "pip install 'dualrag[llamacpp]'"


def import_llama_cpp() -> Any:
    try:
        import llama_cpp
    except ImportError:
        raise MissingExtra(
            f"llamacpp models need llama-cpp-python, which is not installed: {INSTALL_HINT}"
        ) from None
    return llama_cpp


class LlamaCppClient(ProviderClient):
    local = True

    def __init__(self, spec: ModelSpec, config: LLMConfig, *, llama: Any | None = None) -> None:
        super().__init__(spec, config)
        if llama is None:
            llama_cpp = import_llama_cpp()
            path = Path(spec.model).expanduser()
            if not path.is_file():
                raise ConfigError(f"GGUF model not found: {path}")
            lc = config.llamacpp
            llama = llama_cpp.Llama(
                model_path=str(path), n_ctx=lc.n_ctx, n_threads=lc.n_threads,
                n_gpu_layers=lc.n_gpu_layers, verbose=False,
            )
        self.llama = llama
        self._lock = threading.Lock()  # a Llama context is not thread-safe

    def complete(self, request: LLMRequest) -> LLMResponse:
        messages: list[dict[str, str]] = []
        if request.prefix:
            messages.append({"role": "system", "content": "\n\n".join(request.prefix)})
        messages.extend({"role": m.role, "content": m.content} for m in request.messages)
        kwargs: dict[str, Any] = {
            "messages": messages,
            "max_tokens": self.max_tokens(request),
            "temperature": self.temperature(request),
        }
        if request.schema is not None:
            kwargs["response_format"] = {"type": "json_object", "schema": schema_json(request.schema)}
        started = time.monotonic()
        try:
            with self._lock:
                out = self.llama.create_chat_completion(**kwargs)
        except ValueError as exc:  # llama.cpp raises ValueError when the prompt exceeds n_ctx
            kind = ErrorKind.CONTEXT_OVERFLOW if "context" in str(exc).lower() else ErrorKind.BAD_REQUEST
            raise make_error(kind, str(exc), model=self.model) from exc
        except Exception as exc:  # noqa: BLE001 - anything from native code is a server-side failure
            raise ProviderError(ErrorKind.SERVER, f"{type(exc).__name__}: {exc}", model=self.model) from exc
        choice = (out.get("choices") or [{}])[0]
        text = ((choice.get("message") or {}).get("content")) or ""
        raw = choice.get("finish_reason")
        u = out.get("usage") or {}
        usage = Usage(input_tokens=u.get("prompt_tokens", 0) or 0, output_tokens=u.get("completion_tokens", 0) or 0)
        finish: FinishReason = {"stop": "stop", "length": "length"}.get(raw or "stop", "other")  # type: ignore[assignment]
        return self.finish(request, text=text, finish_reason=finish, raw_finish_reason=raw, usage=usage, started=started)
