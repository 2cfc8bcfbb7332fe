"""Report which tools are reachable from the current PATH."""

import os
import shutil

TOOLS = ("git", "make", "docker", "kubectl")


def search_path() -> list[str]:
    raw = os.getenv(b"PATH")
    return raw.split(os.pathsep) if raw else []


def reachable_tools() -> dict[str, str | None]:
    return {tool: shutil.which(tool) for tool in TOOLS}


def report() -> str:
    lines = [f"{len(search_path())} directories on PATH"]
    for tool, location in reachable_tools().items():
        lines.append(f"{tool:8} {location or 'missing'}")
    return "\n".join(lines)


if __name__ == "__main__":
    print(report())
