"""A rule book's example fragment made into a whole new Java file that neither names the rule nor
says which side it is on (rule_pairs.py makes a pair of them per rule):

- **comments**: every `//` and `/* */` comment is dropped (the book's examples annotate themselves:
  `// BUG: Diagnostic contains:`, `// GOOD`, `// this is 1GB, not 1.5GB!`), except `...`
  placeholders and Javadoc that names neither the rule nor a verdict (UnescapedEntity's violation
  *is* its Javadoc). A bare `...` line becomes `// ...`, `{ ... }` becomes `{ /* ... */ }`.
- **wrapping**: the fragment is parsed (tree-sitter) as a compilation unit (when it declares a
  type), as class members inside `public class Sample`, as statements inside its method
  `void run() throws Exception` (`Object run()` when it returns a value), and, when it mixes
  both, with its declarations as members and the rest in `run()`; the reading javac would come
  closest to accepting wins (`syntax_errors`; ties in that order). Leading imports are hoisted
  above the class. Pseudo-code the book has (`isEqualTo(...)`, a missing `;`) stays as it is.
"""

from __future__ import annotations

import re
from functools import lru_cache

WRAPPER = "Sample"
INDENT = "  "
_VERDICT = re.compile(
    r"\b(bug|bugs|violation|violates?|violating|compliant|non-?compliant|bad|good|ok|okay|error|warning|"
    r"wrong|correct|incorrect|fails?|avoid|prefer|preferred|instead|don'?t|do not|should|diagnostic)\b",
    re.IGNORECASE)
_IMPORT = re.compile(r"^\s*(import|package)\s+[\w.*\s]+;\s*$")
_PUBLIC_TYPE = re.compile(r"^public\s+(?:(?:abstract|final|sealed|strictfp)\s+)*(?:class|interface|enum|record|@interface)"
                          r"\s+(\w+)", re.MULTILINE)


def strip_comments(code: str, rule: str) -> str:
    """Drop the example's comments (see the module docstring); strings and text blocks untouched."""
    out: list[str] = []
    i, n = 0, len(code)
    while i < n:
        if code.startswith('"""', i):
            end = code.find('"""', i + 3)
            end = n if end < 0 else end + 3
        elif code[i] in "\"'":
            end = i + 1
            while end < n and code[end] not in (code[i], "\n"):
                end += 2 if code[end] == "\\" else 1
            end = min(n, end + 1)
        elif code.startswith("//", i):
            end = code.find("\n", i)
            end = n if end < 0 else end
            if not _keep(code[i:end], rule):
                out.append("\0")  # marks the spot: a line left with nothing else is removed
                i = end
                continue
        elif code.startswith("/*", i):
            end = code.find("*/", i + 2)
            end = n if end < 0 else end + 2
            if not _keep(code[i:end], rule):
                out.append("\0")
                i = end
                continue
        else:
            end = i + 1
        out.append(code[i:end])
        i = end
    lines = []
    for line in "".join(out).splitlines():
        if "\0" in line and not line.replace("\0", "").strip():
            continue
        lines.append(line.replace("\0", "").rstrip())
    text = re.sub(r"\n{3,}", "\n\n", "\n".join(lines))
    return text.strip("\n")


def _keep(comment: str, rule: str) -> bool:
    body = comment.strip("/*! \t\n")
    if not body.strip(". \t\n*"):
        return True  # a "..." placeholder
    if not comment.startswith("/**"):
        return False
    words = re.sub(r"[\s*]+", " ", body).lower()
    return not (_VERDICT.search(words) or letters(rule) in letters(words))


def letters(text: str) -> str:
    return re.sub(r"[^a-z0-9]", "", text.lower())


def placeholders(code: str) -> str:
    code = re.sub(r"(?m)^(\s*)\.\.\.\s*$", r"\1// ...", code)
    return re.sub(r"\{\s*\.\.\.\s*\}", "{ /* ... */ }", code)


# -------------------------------------------------------------------------------------- wrapping

@lru_cache(maxsize=1)
def _parser():
    import tree_sitter_java
    from tree_sitter import Language, Parser

    return Parser(Language(tree_sitter_java.language()))


_TOP_LEVEL = {"package_declaration", "import_declaration", "class_declaration", "interface_declaration",
              "enum_declaration", "record_declaration", "annotation_type_declaration", "line_comment",
              "block_comment", ";"}
_ACCESS = {"public", "private", "protected", "static"}


def syntax_errors(text: str) -> int:
    """Syntax errors, plus what tree-sitter's forgiving grammar accepts and javac would not: a
    method or statement at the top level, `try {` in a class body read as a compact constructor,
    a constructor named unlike its class, a local variable with an access modifier."""
    root = _parser().parse(text.encode("utf-8")).root_node
    errors = sum(1 for c in root.children if c.type not in _TOP_LEVEL)
    stack = [(root, "")]
    while stack:
        node, owner = stack.pop()
        errors += node.type == "ERROR" or node.is_missing
        if node.type == "compact_constructor_declaration" and node.parent.parent.type != "record_declaration":
            errors += 1
        name = node.child_by_field_name("name")
        if node.type == "constructor_declaration" and name is not None and name.text.decode() != owner:
            errors += 1
        if node.type in ("local_variable_declaration", "class_declaration") and node.parent.type == "block" \
                and node.children[0].type == "modifiers":
            errors += any(m.type in _ACCESS for m in node.children[0].children)
        if node.type in ("class_declaration", "enum_declaration", "record_declaration") and name is not None:
            owner = name.text.decode()
        stack.extend((c, owner) for c in node.children)
    return errors


def _indent(code: str, depth: int) -> str:
    return "\n".join(INDENT * depth + line if line.strip() else "" for line in code.splitlines())


def items(code: str) -> list[str]:
    """The fragment's top-level declarations and statements, each with the comments before it."""
    lines, out, current, depth, in_block = code.splitlines(), [], [], 0, False
    for i, line in enumerate(lines):
        current.append(line)
        j = 0
        while j < len(line):
            if in_block:
                end = line.find("*/", j)
                in_block, j = (True, len(line)) if end < 0 else (False, end + 2)
                continue
            ch = line[j]
            if line.startswith("//", j):
                break
            if line.startswith("/*", j):
                in_block, j = True, j + 2
                continue
            if ch in "\"'":
                j += 1
                while j < len(line) and line[j] != ch:
                    j += 2 if line[j] == "\\" else 1
            elif ch in "({[":
                depth += 1
            elif ch in ")}]":
                depth -= 1
            j += 1
        following = next((rest.strip() for rest in lines[i + 1:]
                          if rest.strip() and not rest.strip().startswith(("//", "/*", "*"))), "")
        if depth == 0 and not in_block and line.rstrip().endswith((";", "}")) and \
                not re.match(r"(else|catch|finally)\b|[.)+\-*/&|?:]", following):
            out.append("\n".join(current))
            current = []
    if current:
        out.append("\n".join(current))
    return out


_MEMBER = re.compile(r"(@\w+|public|private|protected|static|abstract|class|interface|enum|record)\b"
                     r"|(?!(new|return|throw|else|case)\b)[\w.<>\[\], ?]+\s+\w+\s*\([^;]*\)\s*(\[\]\s*)*"
                     r"(throws\s+[\w., ]+)?\{")


def is_member(item: str) -> bool:
    first = next((line.strip() for line in item.splitlines()
                  if line.strip() and not line.strip().startswith(("//", "/*", "*"))), "")
    return _MEMBER.match(first) is not None


def wrap(code: str, name: str) -> tuple[str, str]:
    """(shape, body): the fragment as a compilation unit, as members of class `name`, as
    statements in a method of it, or its declarations as members and the rest in that method:
    whichever javac would come closest to accepting (`syntax_errors`; ties in that order)."""
    def method(statements: str) -> str:
        returns = re.search(r"\breturn\s+[^;\s]", statements) is not None
        head = f"{'Object' if returns else 'void'} run() throws Exception {{"
        return f"{INDENT}{head}\n{_indent(statements, 2)}\n{INDENT}}}"

    has_type = re.search(r"(?m)^(@\w+(\([^)]*\))?\s+)*((public|abstract|final|sealed)\s+)*"
                         r"(class|interface|enum|record|@interface)\s+\w+", code) is not None
    candidates = [("unit", code)] if has_type else []
    candidates += [("members", f"public class {name} {{\n{_indent(code, 1)}\n}}"),
                   ("statements", f"public class {name} {{\n{method(code)}\n}}")]
    parts = items(code)
    members = [p for p in parts if is_member(p)]
    statements = [p for p in parts if not is_member(p)]
    if members and statements:
        fields, body = _indent("\n".join(members), 1), method("\n".join(statements))
        candidates.append(("mixed", f"public class {name} {{\n{fields}\n\n{body}\n}}"))
    return min(candidates, key=lambda c: syntax_errors(c[1]))


def make_file(fragment: str, rule: str, package: str, name: str) -> tuple[str, str, str | None]:
    """(shape, file text, public type name or None) of one example."""
    code = strip_comments(placeholders(fragment), rule)
    lines = code.splitlines()
    imports = []
    while lines and (_IMPORT.match(lines[0]) or not lines[0].strip()):
        line = lines.pop(0)
        if line.strip() and not line.strip().startswith("package "):
            imports.append(line.strip())
    shape, body = wrap("\n".join(lines), name)
    head = f"package {package};\n\n" + ("\n".join(imports) + "\n\n" if imports else "")
    public = _PUBLIC_TYPE.search(body)
    return shape, head + body.rstrip() + "\n", public.group(1) if public else None

