"""Python declarations and references for the code index (tree-sitter-python), in the shape the
Java reader gives (`dualrag.parsing.symbol_model`).

A file is a `module` type named by its path (`src/acme/orders.py` -> `acme.orders`; a leading
`src/` or `lib/` is dropped, `__init__.py` names its package). Classes are types, their bases the
supertypes; functions are `function` at module level and `method` in a class (parameters are
names, without `self`/`cls`: `f(a,b=,*args,**kw)` in `params`, `f(a,b,*args,**kw)` named); class
attributes and `self.x = ...` assignments are fields.

References: calls (`Foo(...)` is `new`), with the receiver's type when it is cheap to know:
`self`/`cls`, `super()`, an imported module (`import a.b as u`, `from . import u`), a parameter's
annotation, a local or attribute assigned `Foo(...)`, a class name. `from m import f` is recorded
like a Java static import (`f` -> `m`) and, for a capitalised name, like a type import.
"""

from __future__ import annotations

import bisect
import posixpath
import re
from functools import lru_cache

from dualrag.parsing.symbol_model import Decl, Ref, SourceFile, settle

MAX_BODY_CHARS = 4000
_QUERY = """
[(class_definition) (function_definition)] @decl
(call) @call
(assignment) @assign
(import_statement) @import
(import_from_statement) @import
"""
_SPACE = re.compile(r"\s+")
_ROOTS = ("src", "lib", "python", "source")


@lru_cache(maxsize=1)
def _query():
    from tree_sitter import Query

    from dualrag.languages.grammars import language
    from dualrag.languages.python import GRAMMAR

    return Query(language(GRAMMAR), _QUERY)


def module_name(path: str) -> str:
    """`src/acme/orders.py` -> `acme.orders`; `acme/__init__.py` -> `acme`."""
    stem, ext = posixpath.splitext(path.replace("\\", "/").lstrip("./"))
    if ext not in (".py", ".pyi"):
        return ""
    parts = [p for p in stem.split("/") if p]
    if parts and parts[-1] == "__init__":
        parts = parts[:-1]
    # the import root: past the last src/ or lib/ folder, else the repository root
    for i in range(len(parts) - 2, -1, -1):
        if parts[i] in _ROOTS:
            parts = parts[i + 1:]
            break
    return ".".join(p for p in parts if p.isidentifier() or p.replace("-", "_").isidentifier()).replace("-", "_")


def python_file(text: str, path: str = "") -> SourceFile:
    """Declarations and references of one Python source text. Never raises."""
    from tree_sitter import QueryCursor

    from dualrag.languages.grammars import parser
    from dualrag.languages.python import GRAMMAR
    from dualrag.parsing.nesting import containers, in_source_order

    module = module_name(path) or posixpath.splitext(posixpath.basename(path))[0] or "module"
    jf = SourceFile(language="python", module_scope=True, package=module)
    try:
        root = parser(GRAMMAR).parse(text.encode("utf-8", "replace")).root_node
    except Exception as exc:  # noqa: BLE001
        jf.error = f"cannot parse: {exc}"
        return jf
    source = root.text or b""
    is_package = posixpath.basename(path) in ("__init__.py", "__init__.pyi")
    captures = QueryCursor(_query()).captures(root)
    # imports: module aliases (receivers) and names imported from modules
    aliases: dict[str, str] = {}
    imports: list[str] = []
    for node in captures.get("import", ()):
        _read_import(node, source, module, is_package, aliases, imports, jf.static_imports)
    jf.imports = tuple(dict.fromkeys(imports))
    doc = _docstring(root, source)
    mod_owner, _, mod_name = module.rpartition(".")
    decls: list[Decl] = [Decl(kind="module", name=mod_name, owner=mod_owner, signature=f"module {module}",
                              start=1, end=max(1, text.count("\n") + 1), doc=doc,
                              body=f"# module {module}" + (f'\n"""{doc}"""' if doc else ""))]
    nodes = in_source_order(captures.get("decl", ()))
    scope: list[str] = []
    kinds: list[str] = []
    spans: list[tuple[int, int, int]] = []
    for node, up in zip(nodes, containers(nodes)):
        outer = scope[up] if up >= 0 else module
        in_class = up >= 0 and nodes[up].type == "class_definition"
        name = _t(source, node.child_by_field_name("name"))
        outer_node = node.parent if node.parent is not None and node.parent.type == "decorated_definition" else node
        start, end = _line(outer_node), _line(node, end=True)
        if node.type == "class_definition":
            supers = _bases(node.child_by_field_name("superclasses"), source)
            head = _head(node, source)
            d = Decl(kind="class", name=name, owner=outer, signature=head, start=start, end=end,
                     supertypes=tuple(supers), doc=_docstring(node.child_by_field_name("body"), source),
                     body=head + ": …")
            scope.append(d.type_name)
        else:
            decorators = _t(source, outer_node)[: max(0, node.start_byte - outer_node.start_byte)]
            static = "@staticmethod" in decorators
            params = _params(node.child_by_field_name("parameters"), source, drop_first=in_class and not static)
            returns = node.child_by_field_name("return_type")
            d = Decl(kind="method" if in_class else "function", name=name, owner=outer,
                     signature=_head(node, source), start=start, end=end, params=params,
                     type=_t(source, returns), doc=_docstring(node.child_by_field_name("body"), source),
                     static=static or not in_class, body=_body(outer_node, source))
            d.locals.update(_param_types(node.child_by_field_name("parameters"), source))
            scope.append(outer)  # a nested function's calls are its enclosing function's
        kinds.append(d.kind)
        spans.append((node.start_byte, node.end_byte, len(decls)))
        decls.append(d)
    starts = [s for s, _, _ in spans]

    def owner_of(node) -> Decl | None:
        """The innermost function holding the node, else None (class bodies and module code)."""
        b = node.start_byte
        i = bisect.bisect_right(starts, b) - 1
        while i >= 0:
            s, e, k = spans[i]
            if s <= b < e:
                return decls[k] if not decls[k].is_type else None
            i -= 1
        return None

    def class_of(node) -> Decl | None:
        b = node.start_byte
        i = bisect.bisect_right(starts, b) - 1
        while i >= 0:
            s, e, k = spans[i]
            if s <= b < e and decls[k].kind == "class":
                return decls[k]
            i -= 1
        return None

    # assignments: locals (`x = Foo()`), attributes (`self.x = Foo()`), class and module attributes
    fields: dict[str, dict[str, str]] = {}
    new_fields: list[Decl] = []
    for node in captures.get("assign", ()):
        left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
        written = _t(source, node.child_by_field_name("type")) or _constructed(right, source)
        func = owner_of(node)
        if left is None:
            continue
        if left.type == "identifier":
            name = _t(source, left)
            if func is not None:
                if written:
                    func.locals.setdefault(name, written)
                continue
            cls = class_of(node)
            owner = cls.type_name if cls is not None else module
            if name in fields.get(owner, {}):
                continue
            fields.setdefault(owner, {})[name] = written
            new_fields.append(Decl(kind="field", name=name, owner=owner, signature=_one_line(node, source),
                                   start=_line(node), end=_line(node, end=True), type=written,
                                   static=cls is None, body=_body(node, source)))
        elif left.type == "attribute" and func is not None:
            obj = left.child_by_field_name("object")
            if obj is not None and _t(source, obj) == "self":
                cls = class_of(node)
                attr = _t(source, left.child_by_field_name("attribute"))
                if cls is not None and attr:
                    fields.setdefault(cls.type_name, {}).setdefault(attr, written)
    decls += new_fields

    def receiver_type(obj, decl: Decl) -> tuple[str | None, str | None]:
        raw = _t(source, obj)
        if obj.type == "identifier":
            if raw in ("self", "cls"):
                owner = decl.owner
                return raw, owner.rsplit(".", 1)[-1] if owner != module else None
            if decl.locals.get(raw):
                return raw, decl.locals[raw]
            if raw in aliases:
                return raw, aliases[raw]
            if raw in fields.get(module, {}) and fields[module][raw]:
                return raw, fields[module][raw]
            return raw, raw if raw[:1].isupper() else None
        if obj.type == "attribute":
            inner = obj.child_by_field_name("object")
            attr = _t(source, obj.child_by_field_name("attribute"))
            if inner is not None and _t(source, inner) == "self":
                t = fields.get(decl.owner, {}).get(attr)
                return raw, t or None
            if all(p.isidentifier() for p in raw.split(".")) and raw.split(".")[0] in aliases:
                head, _, rest = raw.partition(".")
                return raw, f"{aliases[head]}.{rest}"  # a submodule or a class of an imported module
            return raw, None
        if obj.type == "call":
            fn = obj.child_by_field_name("function")
            if fn is not None and fn.type == "identifier" and _t(source, fn) == "super":
                return raw, "super"
            return raw, _constructed(obj, source) or None
        return raw, None

    for node in captures.get("call", ()):
        decl = owner_of(node)
        if decl is None:
            continue
        fn = node.child_by_field_name("function")
        args = node.child_by_field_name("arguments")
        argc = sum(1 for c in args.named_children if c.type != "comment") if args is not None and \
            args.type == "argument_list" else -1
        if fn is None:
            continue
        if fn.type == "identifier":
            name = _t(source, fn)
            if name == "super":
                continue
            if name[:1].isupper():
                decl.refs.append(Ref("new", name, _line(node), None, name, argc))
            else:
                decl.refs.append(Ref("call", name, _line(node), None, None, argc))
        elif fn.type == "attribute":
            obj = fn.child_by_field_name("object")
            name = _t(source, fn.child_by_field_name("attribute"))
            if obj is None or not name:
                continue
            recv, rtype = receiver_type(obj, decl)
            at = _line(fn.child_by_field_name("attribute"))  # a chained call's line is its name's
            if name[:1].isupper() and rtype and obj.type in ("identifier", "attribute") and rtype != recv:
                decl.refs.append(Ref("new", name, at, None, f"{rtype}.{name}", argc))  # mod.Foo()
            else:
                decl.refs.append(Ref("call", name, at, recv, rtype, argc))
    return settle(jf, decls, root)


def _read_import(node, source: bytes, module: str, is_package: bool, aliases: dict[str, str],
                 imports: list[str], static_imports: dict[str, str]) -> None:
    if node.type == "import_statement":
        for item in node.named_children:
            if item.type == "aliased_import":
                target = _rooted(_t(source, item.child_by_field_name("name")), module)
                aliases[_t(source, item.child_by_field_name("alias"))] = target
            elif item.type == "dotted_name":
                target = _rooted(_t(source, item), module)
                head = _t(source, item).split(".")[0]
                aliases[head] = target[: len(target) - len(_t(source, item))] + head
        return
    base_node = node.child_by_field_name("module_name")
    base = _absolute(_t(source, base_node), module, is_package) if base_node is not None else ""
    for item in node.named_children:
        if base_node is not None and item.start_byte == base_node.start_byte or \
                item.type not in ("dotted_name", "aliased_import"):
            continue
        if item.type == "aliased_import":
            name = _t(source, item.child_by_field_name("name"))
            alias = _t(source, item.child_by_field_name("alias"))
        else:
            name = alias = _t(source, item)
        if not name or not base:
            continue
        target = f"{base}.{name}"
        aliases[alias] = target  # a submodule (`from . import utils`) is a receiver of calls
        static_imports[alias] = base
        if name[:1].isupper():
            imports.append(target)


def _absolute(written: str, module: str, is_package: bool) -> str:
    """`.models` in `acme.orders` -> `acme.models`; `..x` one package up; an absolute `acme.x` in
    `tools.acme.orders` (a project whose import root is a folder the path does not say) ->
    `tools.acme.x`."""
    dots = len(written) - len(written.lstrip("."))
    rest = written[dots:]
    if not dots:
        return _rooted(rest, module)
    package = module.split(".") if is_package else module.split(".")[:-1]
    if dots > 1:
        package = package[: len(package) - (dots - 1)]
    return ".".join(p for p in (*package, rest) if p)


def _rooted(target: str, module: str) -> str:
    """An absolute import whose first part is a package this module sits in below the top
    (`pkg.models` from `tools.pkg.service`): the same module, named from the path's root."""
    head = target.split(".", 1)[0]
    parts = module.split(".")
    if head in parts[1:-1] or head in parts[1:] and target != module:
        i = parts.index(head, 1)
        return ".".join([*parts[:i], target])
    return target


def _bases(node, source: bytes) -> list[str]:
    if node is None:
        return []
    out = []
    for c in node.named_children:
        if c.type in ("identifier", "attribute"):
            out.append(_t(source, c))
        elif c.type == "subscript":  # Generic[T]
            v = c.child_by_field_name("value")
            if v is not None:
                out.append(_t(source, v))
    return out


def _params(node, source: bytes, *, drop_first: bool) -> tuple[str, ...]:
    """Parameter names (Python code rarely writes types): `b=` defaulted, `*args`, `**kw`."""
    if node is None:
        return ()
    out: list[str] = []
    for i, c in enumerate(c for c in node.named_children if c.type != "comment"):
        if i == 0 and drop_first and c.type in ("identifier", "typed_parameter"):
            continue
        if c.type == "identifier":
            out.append(_t(source, c))
        elif c.type == "typed_parameter":
            name = next((x for x in c.named_children if x.type in ("identifier", "list_splat_pattern",
                                                                    "dictionary_splat_pattern")), None)
            out.append(_t(source, name))
        elif c.type in ("default_parameter", "typed_default_parameter"):
            out.append(_t(source, c.child_by_field_name("name")) + "=")
        elif c.type in ("list_splat_pattern", "dictionary_splat_pattern"):
            out.append(_t(source, c))
        # keyword_separator (*), positional_separator (/) take no argument
    return tuple(_SPACE.sub("", p) for p in out if p)


def _param_types(node, source: bytes) -> dict[str, str]:
    out: dict[str, str] = {}
    for c in node.named_children if node is not None else ():
        if c.type in ("typed_parameter", "typed_default_parameter"):
            name = c.child_by_field_name("name") or next((x for x in c.named_children if x.type == "identifier"), None)
            written = _t(source, c.child_by_field_name("type"))
            if name is not None and written:
                out[_t(source, name)] = written.strip("'\"").removeprefix("Optional[").rstrip("]")
    return out


def _constructed(node, source: bytes) -> str:
    """`Foo(...)` / `mod.Foo(...)` -> the class name as written."""
    if node is None or node.type != "call":
        return ""
    fn = node.child_by_field_name("function")
    if fn is None or fn.type not in ("identifier", "attribute"):
        return ""
    text = _t(source, fn)
    return text if text.rsplit(".", 1)[-1][:1].isupper() else ""


def _docstring(body, source: bytes) -> str:
    first = body.named_children[0] if body is not None and body.named_child_count else None
    if first is None or first.type != "expression_statement" or not first.named_child_count:
        return ""
    s = first.named_children[0]
    if s.type != "string":
        return ""
    raw = _t(source, s)
    return raw.strip("rRbBuUfF").strip("'\"").strip()[:1500]


def _head(node, source: bytes) -> str:
    body = node.child_by_field_name("body")
    end = body.start_byte if body is not None else node.end_byte
    raw = source[node.start_byte:min(end, node.start_byte + 4000)].decode("utf-8", "replace")
    return _SPACE.sub(" ", raw).strip().rstrip(":").strip()[:300]


def _one_line(node, source: bytes) -> str:
    return _SPACE.sub(" ", _t(source, node)).strip()[:300]


def _body(node, source: bytes) -> str:
    raw = source[node.start_byte:min(node.end_byte, node.start_byte + 4 * MAX_BODY_CHARS + 4)].decode("utf-8", "replace")
    raw = raw[:MAX_BODY_CHARS + 1]
    return raw if len(raw) <= MAX_BODY_CHARS else raw[:MAX_BODY_CHARS] + "\n    # … body capped …"


def _t(source: bytes, node) -> str:
    return source[node.start_byte:node.end_byte].decode("utf-8", "replace") if node is not None else ""


def _line(node, end: bool = False) -> int:
    return (node.end_point.row if end else node.start_point.row) + 1
