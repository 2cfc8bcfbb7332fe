"""Tree-sitter mechanics (a foundation below the language packs): the member and outline model,
nesting, the symbol model the packs' readers fill, and the Java and XML walkers the Java and XML
packs hand their parsers to. Nothing here looks a language up: `dualrag.languages.outline` gives a
file's members through its pack.

    from dualrag.languages.outline import outline
    out = outline("java", text)            # or "xml"; outline_fragment for fragments shown by a diff
    out.members, out.error
"""

from dualrag.parsing.model import Member, Outline

__all__ = ["Member", "Outline"]
