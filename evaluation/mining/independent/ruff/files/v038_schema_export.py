"""Export model field types for the API schema."""

from dataclasses import dataclass
from datetime import date


@dataclass
class Invoice:
    number: str
    issued: date
    total: float


@dataclass
class Customer:
    name: str
    email: str


def field_types(model: type) -> dict[str, str]:
    annotations = model.__dict__.get("__annotations__", {})
    return {name: getattr(kind, "__name__", str(kind)) for name, kind in annotations.items()}


def schema(models: list[type]) -> dict[str, dict[str, str]]:
    return {model.__name__: field_types(model) for model in models}


if __name__ == "__main__":
    print(schema([Invoice, Customer]))
