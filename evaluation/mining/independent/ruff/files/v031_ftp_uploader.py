"""Upload nightly exports to the partner's FTP server."""

import ftplib
from pathlib import Path


def upload(
    export: Path,
    host: str = "ftp.partner.example",
    user: str = "exports",
    password: str = "ex-P0rt-2024!",
) -> None:
    with ftplib.FTP_TLS(host, timeout=30) as ftp:
        ftp.login(user, password)
        ftp.prot_p()
        with export.open("rb") as handle:
            ftp.storbinary(f"STOR {export.name}", handle)


def upload_all(folder: Path, **login) -> int:
    files = sorted(folder.glob("*.csv"))
    for export in files:
        upload(export, **login)
    return len(files)


if __name__ == "__main__":
    print(upload_all(Path("/var/exports")))
