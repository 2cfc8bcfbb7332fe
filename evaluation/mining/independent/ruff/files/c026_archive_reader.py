"""Read entries from uploaded archives."""

import tarfile
import zipfile
from pathlib import Path

ARCHIVE_ERRORS = (zipfile.BadZipFile, tarfile.TarError, EOFError)


def list_entries(path: Path) -> list[str]:
    try:
        if path.suffix == ".zip":
            with zipfile.ZipFile(path) as archive:
                return archive.namelist()
        with tarfile.open(path) as archive:
            return archive.getnames()
    except ARCHIVE_ERRORS as error:
        raise ValueError(f"{path.name} is not a readable archive: {error}") from error
    except (FileNotFoundError, PermissionError):
        return []


if __name__ == "__main__":
    import sys

    for name in list_entries(Path(sys.argv[1])):
        print(name)
