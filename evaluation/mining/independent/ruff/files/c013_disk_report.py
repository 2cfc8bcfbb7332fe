"""Report free disk space on the build agents."""

import subprocess

DF = "/usr/bin/df"


def free_space(mount: str = "/") -> dict[str, str]:
    output = subprocess.run(
        [DF, "--output=size,used,avail,pcent", "-h", mount],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    header, values = output.strip().splitlines()[:2]
    return dict(zip(header.split(), values.split(), strict=True))


def warn_if_full(mount: str = "/", threshold: int = 90) -> str | None:
    usage = int(free_space(mount)["Use%"].rstrip("%"))
    if usage >= threshold:
        return f"{mount} is {usage}% full"
    return None


if __name__ == "__main__":
    print(free_space())
