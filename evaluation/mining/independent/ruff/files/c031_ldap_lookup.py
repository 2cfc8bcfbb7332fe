"""Look up staff in the company directory."""

import os

from ldap3 import Connection, Server


def directory(
    host: str = "ldaps://directory.example.com",
    bind_dn: str = "cn=reader,dc=example,dc=com",
    password: str | None = None,
) -> Connection:
    secret = password if password is not None else os.environ["LDAP_READER_PASSWORD"]
    return Connection(Server(host), user=bind_dn, password=secret, auto_bind=True)


def email_of(uid: str) -> str | None:
    connection = directory()
    try:
        connection.search("ou=people,dc=example,dc=com", f"(uid={uid})", attributes=["mail"])
        entries = connection.entries
        return str(entries[0].mail) if entries else None
    finally:
        connection.unbind()
