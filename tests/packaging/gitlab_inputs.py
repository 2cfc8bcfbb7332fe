"""GitLab's CI/CD input interpolation, as documented (docs.gitlab.com, "CI/CD inputs"), for testing
our include template: a header document `spec: inputs:` and, after `---`, the configuration.

- an input without `default` is mandatory; an input the header does not declare is an error;
- an input's keywords are `default`, `description`, `options`, `regex`, `type` (and `rules`, which
  our template does not use and this renderer refuses); any other key fails the pipeline, though
  the JSON schema lets it pass;
- `type` (string by default, number, boolean, array), `options` and `regex` are checked;
- `$[[ inputs.NAME ]]` is replaced in keys and values of the configuration; a value that is exactly
  one block keeps the input's type, inside a longer string the value is inserted as text (an array
  there is an error);
- functions after `|`: `truncate(offset, length)`; `expand_vars` and `posix_escape` are not used by
  our template and refused here, so a template that starts using them gets a renderer update.
"""

from __future__ import annotations

import re
from typing import Any

import yaml

_BLOCK = re.compile(r"\$\[\[\s*inputs\.([A-Za-z0-9_-]+)\s*((?:\|[^\]]*)?)\]\]")
_KEYWORDS = {"default", "description", "options", "regex", "type"}
_TYPES = {"string": str, "number": (int, float), "boolean": bool, "array": list}


class InputError(ValueError):
    """What GitLab would reject when the pipeline is created."""


def render(template: str, inputs: dict[str, Any]) -> dict[str, Any]:
    """The job configuration of `template` with `inputs` given by the including project."""
    header, sep, body = template.partition("\n---\n")
    if not sep:
        raise InputError("no '---' between the spec header and the configuration")
    spec = (yaml.safe_load(header) or {}).get("spec", {}).get("inputs", {})
    values = _resolve(spec, inputs)
    return _interpolate(yaml.safe_load(body), values)


def _resolve(spec: dict[str, Any], given: dict[str, Any]) -> dict[str, Any]:
    unknown = sorted(set(given) - set(spec))
    if unknown:
        raise InputError(f"unknown input arguments: {', '.join(unknown)}")
    values = {}
    for name, rule in spec.items():
        rule = rule or {}
        extra = sorted(set(rule) - _KEYWORDS)
        if extra:
            raise InputError(f"header:spec:inputs:{name} config contains unknown keys: {', '.join(extra)}")
        if name in given:
            value = given[name]
        elif "default" in rule:
            value = rule["default"]
        else:
            raise InputError(f"`{name}` input: required value has not been provided")
        kind = rule.get("type", "string")
        if not isinstance(value, _TYPES[kind]) or (kind == "number" and isinstance(value, bool)):
            raise InputError(f"`{name}` input: provided value is not a {kind}")
        if "options" in rule and value not in rule["options"]:
            raise InputError(f"`{name}` input: `{value}` cannot be used because it is not in the list of options")
        if "regex" in rule and not re.search(rule["regex"], str(value)):
            raise InputError(f"`{name}` input: provided value does not match required RegEx pattern")
        values[name] = value
    return values


def _interpolate(node: Any, values: dict[str, Any]) -> Any:
    if isinstance(node, dict):
        return {_interpolate(k, values): _interpolate(v, values) for k, v in node.items()}
    if isinstance(node, list):
        return [_interpolate(item, values) for item in node]
    if not isinstance(node, str):
        return node
    whole = _BLOCK.fullmatch(node.strip())
    if whole:
        return _value(whole, values)

    def text(match: re.Match[str]) -> str:
        value = _value(match, values)
        if isinstance(value, list):
            raise InputError(f"interpolation of array input `{match.group(1)}` inside a string")
        return str(value).lower() if isinstance(value, bool) else str(value)

    return _BLOCK.sub(text, node)


def _value(match: re.Match[str], values: dict[str, Any]) -> Any:
    name, functions = match.group(1), match.group(2)
    if name not in values:
        raise InputError(f"unknown interpolation key: `{name}`")
    value = values[name]
    for call in filter(None, (f.strip() for f in functions.split("|"))):
        truncate = re.fullmatch(r"truncate\(\s*(\d+)\s*,\s*(\d+)\s*\)", call)
        if not truncate:
            raise InputError(f"unknown interpolation function: `{call}`")
        start, length = int(truncate.group(1)), int(truncate.group(2))
        value = str(value)[start:start + length]
    return value
