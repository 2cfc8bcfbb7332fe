"""Tree-sitter wrappers (a foundation layer): source text -> an outline of members with line ranges.

    from dualrag.parsing import outline
    out = outline("java", text)            # or "xml"; partial=True for fragments shown by a diff
    out.members, out.error

Grammars come from the maintained wheels `tree-sitter-java` and `tree-sitter-xml`; they are
loaded on first use, so importing this package is cheap.
"""

from dualrag.parsing.model import Member, Outline
from dualrag.parsing.outline import PARSEABLE, outline, outline_fragment

__all__ = ["PARSEABLE", "Member", "Outline", "outline", "outline_fragment"]
