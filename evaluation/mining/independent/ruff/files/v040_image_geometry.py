"""Geometry of scanned pages."""

from dataclasses import dataclass


@dataclass
class Page:
    width: int
    height: int
    dpi: int


def page_from_header(header: tuple[int, int, int]) -> Page:
    width, height, width = header
    return Page(width=width, height=height, dpi=300)


def inches(page: Page) -> tuple[float, float]:
    return page.width / page.dpi, page.height / page.dpi


def is_a4(page: Page, tolerance: float = 0.1) -> bool:
    w, h = inches(page)
    return abs(w - 8.27) < tolerance and abs(h - 11.69) < tolerance


if __name__ == "__main__":
    print(is_a4(page_from_header((2480, 3508, 300))))
