"""The offline side: rule documents and repositories into Qdrant points (see ARCHITECTURE.md)."""
