"""Storage backends for uploaded documents."""

from abc import ABC, abstractmethod
from pathlib import Path


class StorageBackend(ABC):
    @abstractmethod
    def save(self, key: str, data: bytes) -> str: ...

    @abstractmethod
    def load(self, key: str) -> bytes: ...

    def close(self) -> None:
        pass


class LocalStorage(StorageBackend):
    def __init__(self, root: Path) -> None:
        self.root = root

    def save(self, key: str, data: bytes) -> str:
        path = self.root / key
        path.write_bytes(data)
        return str(path)

    def load(self, key: str) -> bytes:
        return (self.root / key).read_bytes()
