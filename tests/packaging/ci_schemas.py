"""The public JSON schemas our CI files are checked against, read from the package data of
check-jsonschema (a dev dependency; nothing is downloaded):

- `gitlab-ci`: GitLab's own CI schema, the one its pipeline editor validates with
  (gitlab-org/gitlab, app/assets/javascripts/editor/schema/ci.json, MIT);
- `github-workflows`: SchemaStore's GitHub Actions workflow schema (Apache-2.0).

Both are draft-07 with `$ref`s inside the file; jsonschema resolves them. GitHub reads workflows as
YAML 1.2 (`on:` is a key, not `true`), so `load_yaml12` parses them that way; GitLab's parser is
YAML 1.1, as PyYAML's `safe_load`.
"""

from __future__ import annotations

import json
from functools import cache
from importlib.resources import files
from typing import Any

import jsonschema
from jsonschema.exceptions import best_match
from ruamel.yaml import YAML  # check-jsonschema's own YAML parser (YAML 1.2)

VENDOR = "check_jsonschema.builtin_schemas.vendor"


@cache
def validator(name: str) -> jsonschema.protocols.Validator:
    schema = json.loads(files(VENDOR).joinpath(f"{name}.json").read_text(encoding="utf-8"))
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    return cls(schema, format_checker=cls.FORMAT_CHECKER)


def schema_errors(name: str, document: Any) -> list[str]:
    """One line per violation: where, and the most specific reason (inside oneOf/anyOf too)."""
    out = []
    for error in validator(name).iter_errors(document):
        deepest = best_match(error.context) if error.context else error
        where = "/".join(str(p) for p in deepest.absolute_path) or "(top)"
        out.append(f"{where}: {deepest.message}")
    return sorted(out)


def load_yaml12(text: str) -> Any:
    return YAML(typ="safe", pure=True).load(text)
