"""Run the `dualrag` CLI in-process, as a test does: its exit code, stdout and stderr. It lives with the
tests, not in `dualrag.testing`: the package's loopback doubles are foundations and never import the CLI."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from dualrag.cli import main


def run_cli(args: Sequence[str], capsys: pytest.CaptureFixture[str]) -> tuple[int | str | None, str, str]:
    with pytest.raises(SystemExit) as info:
        main(list(args))
    out, err = capsys.readouterr()
    return info.value.code, out, err
