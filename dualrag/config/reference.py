"""The configuration reference, written from the typed settings themselves (each section's fields:
type and bounds, default, environment variable, description), so the page cannot drift from the code:

    python -m dualrag.config.reference --example examples/dualrag.toml > docs/configuration.md

`--example` embeds an annotated configuration file above the reference. Descriptions are the
fields' own (`Field(description=...)`); edit them there, never the page.
"""

from __future__ import annotations

import argparse
import inspect
import json
import sys
import types
import typing
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from pydantic import BaseModel
from pydantic.fields import FieldInfo

from dualrag.config.llm import ModelCapability
from dualrag.config.settings import ENV_PREFIX, MOVED_KEYS, NON_SETTING_ENV, Settings

COMMAND = "python -m dualrag.config.reference --example examples/dualrag.toml > docs/configuration.md"
# Tables whose keys are names the user chooses; a model among their values is documented once, here.
NAMED = {"llm.models": ('"PROVIDER:MODEL"', ModelCapability)}

INTRO = """\
# Configuration reference

<!-- Generated from dualrag/config/ by `{command}`; a test fails when this page differs from what
that command prints. Edit the fields' descriptions in dualrag/config/, then run it. -->

One typed object, layered: the repository's `.dualrag.toml` (read from the target side with `--base`
and in merge-request stages) < a `--config FILE` or `$DUALRAG_CONFIG` outside the repository <
environment variables < command-line flags. A key sits in a section (`[review] rule_checks = 2`); its
environment variable joins the section and key with a double underscore
(`DUALRAG_REVIEW__RULE_CHECKS=2`); a table value is JSON in the environment
(`DUALRAG_RETRIEVAL__KBS='["team"]'`). `DUALRAG_LLM=openai:gpt-4.1-mini` names the model alone. An
unknown key or a bad value stops the command with exit 2 and one line naming the key and where it
came from. Keys that choose a host or a secret (`url`, `base_url`, `api_key`, `headers`, any `*_env`,
`*_token`, `*_secret`, `*_password`) are never taken from a repository's file
([safety](safety.md)).

Not settings, read where they are needed: {non_settings}. Moved keys, still read with a
deprecation line: {moved}.
"""


Section = tuple[str, type[BaseModel], list[tuple[str, FieldInfo]]]


def sections(model: type[BaseModel], path: str = "") -> Iterator[Section]:
    """(dotted section, its model, its plain keys) for `model` and every section nested in it, in
    declaration order; the top level's plain keys come first under the section ""."""
    plain, nested = [], []
    for name, field in model.model_fields.items():
        dotted = f"{path}.{name}" if path else name
        sub = _model_of(field.annotation)
        if dotted in NAMED:
            nested.append((f'{dotted}.{NAMED[dotted][0]}', NAMED[dotted][1]))
        elif sub is not None:
            nested.append((dotted, sub))
        else:
            plain.append((name, field))
    yield path, model, plain
    for dotted, sub in nested:
        yield from sections(sub, dotted)


def keys() -> set[str]:
    """Every settable key, dotted (`review.rule_checks`, `llm.models."PROVIDER:MODEL".context_window`)."""
    return {f"{section}.{name}" if section else name
            for section, _, plain in sections(Settings) for name, _ in plain}


def _model_of(annotation: Any) -> type[BaseModel] | None:
    for candidate in (annotation, *typing.get_args(annotation)):
        if inspect.isclass(candidate) and issubclass(candidate, BaseModel):
            return candidate
    return None


def type_name(annotation: Any) -> str:
    origin, args = typing.get_origin(annotation), typing.get_args(annotation)
    if origin is typing.Annotated:
        return type_name(args[0])
    if origin is typing.Literal:
        return " \\| ".join(json.dumps(a) for a in args)
    if origin in (typing.Union, types.UnionType):
        return " \\| ".join("none" if a is type(None) else type_name(a) for a in args)
    if origin in (list, dict, tuple, set):
        return f"{origin.__name__}[{', '.join(type_name(a) for a in args)}]"
    names = {bool: "bool", int: "int", float: "float", str: "str", Path: "path"}
    return names.get(annotation, getattr(annotation, "__name__", str(annotation)))


def bounds(field: FieldInfo) -> str:
    marks = {"ge": "≥", "gt": ">", "le": "≤", "lt": "<", "max_length": "at most", "min_length": "at least"}
    found = [f"{marks[k]} {getattr(m, k)}" for m in field.metadata for k in marks if getattr(m, k, None) is not None]
    return ", ".join(found)


def default(field: FieldInfo) -> str:
    value = field.get_default(call_default_factory=True)
    if value is None:
        return "unset"
    if hasattr(value, "get_secret_value"):
        return "(secret)"
    if isinstance(value, BaseModel):
        value = value.model_dump(mode="json")
    if isinstance(value, Path):
        value = str(value)
    text = json.dumps(value, ensure_ascii=False)
    return f"`{text}`" if len(text) <= 60 else f"`{text[:57]}…`"


def env_name(section: str, name: str) -> str:
    if "." in section and section.rsplit(".", 1)[-1].startswith('"'):
        return "—"  # a key inside a named table: set the table as JSON in the environment
    return ENV_PREFIX + "__".join([*([section.replace(".", "__")] if section else []), name]).upper()


def render(example: str | None = None) -> str:
    moved = ", ".join(f"`[{table}] {key}`" for table, key in MOVED_KEYS)
    out = [INTRO.format(command=COMMAND, non_settings=", ".join(f"`{n}`" for n in sorted(NON_SETTING_ENV)),
                        moved=moved)]
    if example is not None:
        out.append("## An annotated example\n\n```toml\n" + example.rstrip("\n") + "\n```\n")
    for section, model, plain in sections(Settings):
        if not plain:
            continue
        out.append(f"## `[{section}]`\n" if section else "## Top level\n")
        doc = inspect.cleandoc(model.__doc__) if model.__doc__ and model is not Settings else None
        if doc:
            out.append(" ".join(doc.split("\n\n")[0].split()) + "\n")
        out.append("| key | type | default | environment | what it does |\n|---|---|---|---|---|")
        for name, field in plain:
            kind = type_name(field.annotation) + (f" ({b})" if (b := bounds(field)) else "")
            text = " ".join((field.description or "").split()).replace("|", "\\|")
            out.append(f"| `{name}` | {kind} | {default(field)} | `{env_name(section, name)}` | {text} |"
                       .replace("`—`", "—"))
        out.append("")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--example", type=Path, help="an annotated configuration file to show above the reference")
    args = parser.parse_args(argv)
    sys.stdout.write(render(args.example.read_text(encoding="utf-8") if args.example else None))
    return 0


if __name__ == "__main__":
    sys.exit(main())
