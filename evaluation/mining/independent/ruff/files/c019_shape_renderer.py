"""Render shapes for the floor-plan editor."""

from dataclasses import dataclass
from functools import singledispatch, singledispatchmethod


@dataclass
class Room:
    name: str
    area: float


@dataclass
class Door:
    width: float


@singledispatch
def label(item) -> str:
    return type(item).__name__


@label.register
def _(item: Room) -> str:
    return f"{item.name} ({item.area:.1f} m2)"


class SvgRenderer:
    @singledispatchmethod
    def draw(self, item) -> str:
        return f"<!-- {label(item)} -->"

    @draw.register
    def _(self, item: Door) -> str:
        return f'<line stroke-width="{item.width}"/>'
