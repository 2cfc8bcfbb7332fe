"""Deploy the static site to the web servers."""

import subprocess
from pathlib import Path

SERVERS = ("web-1.example.net", "web-2.example.net")


def build(site: Path) -> Path:
    output = site / "public"
    subprocess.run(["/usr/local/bin/hugo", "--minify", "--source", str(site)], check=True)
    return output


def publish(output: Path, server: str) -> None:
    subprocess.run(
        ["/usr/bin/rsync", "-az", "--delete", f"{output}/", f"deploy@{server}:/srv/www/"],
        timeout=300,
    )


def deploy(site: Path) -> None:
    output = build(site)
    for server in SERVERS:
        publish(output, server)
        print(f"published to {server}")


if __name__ == "__main__":
    deploy(Path.cwd())
