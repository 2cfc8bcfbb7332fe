"""Remember a user's recent searches."""

from collections import deque


class RecentSearches:
    def __init__(self, size: int = 10) -> None:
        self.items = deque([], maxlen=size)

    def add(self, query: str) -> None:
        query = query.strip()
        if not query:
            return
        if query in self.items:
            self.items.remove(query)
        self.items.appendleft(query)

    def suggestions(self, prefix: str) -> list[str]:
        return [query for query in self.items if query.startswith(prefix)]


if __name__ == "__main__":
    recent = RecentSearches(3)
    for text in ("red shoes", "red scarf", "blue hat", "red shoes"):
        recent.add(text)
    print(recent.suggestions("red"))
