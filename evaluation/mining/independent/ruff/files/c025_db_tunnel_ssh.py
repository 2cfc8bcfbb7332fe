"""Open an SSH connection to the database bastion."""

import paramiko

BASTION = "bastion.db.example.net"


def bastion_client(user: str, key_file: str) -> paramiko.SSHClient:
    client = paramiko.SSHClient()
    client.load_system_host_keys()
    client.load_host_keys("/etc/ssh/ssh_known_hosts")
    client.set_missing_host_key_policy(paramiko.RejectPolicy())
    client.connect(BASTION, username=user, key_filename=key_file, timeout=10)
    return client


def uptime(user: str, key_file: str) -> str:
    client = bastion_client(user, key_file)
    try:
        _, stdout, _ = client.exec_command("uptime")
        return stdout.read().decode().strip()
    finally:
        client.close()
