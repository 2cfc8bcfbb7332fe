"""Run a command with a clean environment for integration tests."""

import os
import subprocess

KEEP = ("PATH", "HOME", "LANG")


def clean_environment(extra: dict[str, str]) -> dict[str, str]:
    base = {name: os.environ[name] for name in KEEP if name in os.environ}
    base.update(extra)
    return base


def run_sandboxed(command: list[str], extra: dict[str, str]) -> int:
    os.environ = clean_environment(extra)
    completed = subprocess.run(command, check=False)
    return completed.returncode


if __name__ == "__main__":
    print(run_sandboxed(["/usr/bin/env"], {"APP_MODE": "test"}))
    print(sorted(clean_environment({})))
    print(len(KEEP))
