"""Apply proxy settings for outgoing HTTP calls."""

import os
import subprocess

PROXY_VARIABLES = ("HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY")


def apply_proxy(proxy: str, no_proxy: str = "localhost,127.0.0.1") -> None:
    os.environ.update({"HTTP_PROXY": proxy, "HTTPS_PROXY": proxy, "NO_PROXY": no_proxy})


def clear_proxy() -> None:
    for name in PROXY_VARIABLES:
        os.environ.pop(name, None)


def run_without_proxy(command: list[str]) -> int:
    env = {name: value for name, value in os.environ.items() if name not in PROXY_VARIABLES}
    return subprocess.run(command, env=env, check=False).returncode


if __name__ == "__main__":
    apply_proxy("http://proxy.example:3128")
    print(os.environ["HTTPS_PROXY"])
    clear_proxy()
