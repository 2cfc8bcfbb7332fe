"""Who may edit a shared document."""

from dataclasses import dataclass


@dataclass
class User:
    name: str
    is_admin: bool
    teams: set[str]


@dataclass
class Document:
    owner: str
    team: str
    locked: bool


def can_edit(user: User, doc: Document) -> bool:
    return user.is_admin or doc.owner == user.name and not doc.locked


def can_comment(user: User, doc: Document) -> bool:
    return doc.team in user.teams or doc.owner == user.name


if __name__ == "__main__":
    alice = User("alice", False, {"finance"})
    print(can_edit(alice, Document("alice", "finance", True)))
