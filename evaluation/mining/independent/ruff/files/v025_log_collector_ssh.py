"""Collect application logs from the edge servers over SSH."""

from pathlib import Path

import paramiko

EDGE_HOSTS = ("edge-1.example.net", "edge-2.example.net")


def fetch_logs(host: str, target: Path, user: str = "collector") -> Path:
    client = paramiko.SSHClient()
    client.set_missing_host_key_policy(paramiko.AutoAddPolicy())
    client.connect(host, username=user, key_filename="/etc/collector/id_ed25519")
    try:
        sftp = client.open_sftp()
        local = target / f"{host}.log"
        sftp.get("/var/log/app/current.log", str(local))
        return local
    finally:
        client.close()


if __name__ == "__main__":
    for edge in EDGE_HOSTS:
        print(fetch_logs(edge, Path("/tmp")))
