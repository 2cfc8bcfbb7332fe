"""Publishers: a Review rendered for people (terminal, Markdown) and machines (JSON)."""

from dualrag.publish.render import render

__all__ = ["render"]
