"""Create thumbnails with ImageMagick."""

import subprocess
from pathlib import Path


def has_imagemagick() -> bool:
    probe = subprocess.run(["/usr/bin/convert", "-version"], capture_output=True, check=False)
    return probe.returncode == 0


def thumbnail(source: Path, target: Path, edge: int = 256) -> None:
    subprocess.run(
        ["/usr/bin/convert", str(source), "-thumbnail", f"{edge}x{edge}", str(target)],
        check=True,
        timeout=60,
    )


def thumbnails(folder: Path) -> int:
    if not has_imagemagick():
        raise RuntimeError("ImageMagick is not installed")
    count = 0
    for image in sorted(folder.glob("*.jpg")):
        thumbnail(image, image.with_name(f"{image.stem}.thumb.jpg"))
        count += 1
    return count
