"""Kotlin declarations and references for the code index (tree-sitter-kotlin), in the shape the
Java reader gives (`dualrag.parsing.symbol_model`), so Kotlin and Java resolve each other in one
repository.

Declarations: classes, interfaces, enums, objects and companion objects (types); functions
(`method` inside a type, `function` at the top level, owned by the package); constructors (the
primary one, secondary ones, `init` blocks); properties (`field`, primary-constructor `val`/`var`
parameters included). A file with top-level functions or properties also declares its facade
`FooKt` (or its `@file:JvmName`): what Java calls them through.

References: calls (`call`; `Foo(...)` is `new`), `super.f()`, property reads (`field`), with the
receiver's type when it is cheap to know (a parameter, a local `val x: T` / `val x = T()`, a
property of the enclosing types, `this`, a type or object name). `@Value("\\${a.b}")` and
`@ConfigurationProperties(prefix = "a")` become configuration links.
"""

from __future__ import annotations

import bisect
import posixpath
import re
from functools import lru_cache

from dualrag.parsing.symbol_model import Decl, Ref, SourceFile, config_links, settle

MAX_BODY_CHARS = 4000
_QUERY = """
[(class_declaration) (object_declaration) (companion_object) (function_declaration) (secondary_constructor)
 (anonymous_initializer) (primary_constructor)] @decl
(property_declaration) @prop
(class_parameter) @cparam
(parameter) @param
(call_expression) @call
(navigation_expression) @nav
(annotation) @annotation
(file_annotation) @file_annotation
"""
_TYPE_NODES = ("class_declaration", "object_declaration", "companion_object")
_CONFIG = frozenset({"Value", "ConfigurationProperties"})
_SPACE = re.compile(r"\s+")


@lru_cache(maxsize=1)
def _query():
    from tree_sitter import Query

    from dualrag.languages.grammars import language
    from dualrag.languages.kotlin import GRAMMAR

    return Query(language(GRAMMAR), _QUERY)


def kotlin_file(text: str, path: str = "") -> SourceFile:
    """Declarations and references of one Kotlin source text. Never raises."""
    from tree_sitter import QueryCursor

    from dualrag.languages.grammars import parser
    from dualrag.languages.kotlin import GRAMMAR
    from dualrag.parsing.nesting import containers, in_source_order

    try:
        root = parser(GRAMMAR).parse(text.encode("utf-8", "replace")).root_node
    except Exception as exc:  # noqa: BLE001 - a grammar problem degrades to "no symbols"
        return SourceFile(language="kotlin", module_scope=True, error=f"cannot parse: {exc}")
    source = root.text or b""
    jf = SourceFile(language="kotlin", module_scope=True)
    imports, wildcards = [], []
    for child in root.named_children:
        if child.type == "package_header":
            jf.package = _ident(child, source)
        elif child.type == "import":
            target = _ident(child, source)
            if _t(source, child).rstrip().endswith("*"):
                wildcards.append(target)
            elif target:
                last = target.rsplit(".", 1)[-1]
                if last[:1].islower():  # a top-level function or property
                    jf.static_imports[last] = target.rpartition(".")[0]
                else:
                    imports.append(target)
    jf.imports, jf.wildcards = tuple(imports), tuple(wildcards)
    captures = QueryCursor(_query()).captures(root)
    decl_nodes = in_source_order(captures.get("decl", ()))
    ups = containers(decl_nodes)
    scope: list[str] = []  # the qualified name each declaration gives what it holds
    decls: list[Decl] = []
    spans: list[tuple[int, int, int]] = []  # (start byte, end byte, index in decls)
    type_of_node: dict[int, Decl] = {}
    for i, (node, up) in enumerate(zip(decl_nodes, ups)):
        outer = scope[up] if up >= 0 else jf.package
        outer_is_type = up >= 0 and decl_nodes[up].type in _TYPE_NODES
        decl = _decl(node, source, outer, outer_is_type, decl_nodes[up] if up >= 0 else None, type_of_node.get(up))
        if decl is None:
            scope.append(outer)
            continue
        if decl.is_type:
            type_of_node[i] = decl
            scope.append(decl.type_name)
        else:
            scope.append(outer)
        spans.append((node.start_byte, node.end_byte, len(decls)))
        decls.append(decl)
    # properties and primary-constructor parameters: fields of a type (or the package), else locals
    spans.sort()
    starts = [s for s, _, _ in spans]

    def owner_of(node, *, members_only: bool = True) -> Decl | None:
        """The innermost declaration holding the node (a member, or a type when not `members_only`)."""
        b = node.start_byte
        i = bisect.bisect_right(starts, b) - 1
        while i >= 0:
            s, e, k = spans[i]
            if s <= b < e:
                d = decls[k]
                if d.is_type and members_only:
                    return None
                return d
            i -= 1
        return None

    fields: dict[str, dict[str, str]] = {}
    extra: list[tuple[int, Decl]] = []
    for node in captures.get("prop", ()):
        holder = owner_of(node, members_only=False)
        name, written, init_type = _property(node, source)
        if not name:
            continue
        if holder is None or holder.is_type:
            owner = holder.type_name if holder is not None else jf.package
            d = Decl(kind="field", name=name, owner=owner, signature=_head(node, source), start=_line(node),
                     end=_end(node), type=written or init_type, doc="", static=holder is None,
                     body=_body(node, source))
            extra.append((node.start_byte, d))
            fields.setdefault(owner, {})[name] = written or init_type
        else:
            holder.locals.setdefault(name, written or init_type)
    for node in captures.get("cparam", ()):
        kw = [c for c in node.children if not c.is_named and _t(source, c) in ("val", "var")]
        holder = owner_of(node, members_only=False)
        name = _t(source, next((c for c in node.named_children if c.type == "identifier"), None))
        written = _t(source, _type_child(node))
        if holder is not None and holder.kind == "constructor":
            holder.locals.setdefault(name, written)
        if kw and holder is not None:
            cls = holder.owner if holder.kind == "constructor" else holder.type_name
            d = Decl(kind="field", name=name, owner=cls, signature=_head(node, source), start=_line(node),
                     end=_end(node), type=written, body=_body(node, source))
            extra.append((node.start_byte, d))
            fields.setdefault(cls, {})[name] = written
    for node in captures.get("param", ()):
        holder = owner_of(node)
        if holder is not None:
            name = _t(source, next((c for c in node.named_children if c.type == "identifier"), None))
            holder.locals.setdefault(name, _t(source, _type_child(node)))
    for start, d in extra:
        spans.append((start, start + 1, len(decls)))  # fields hold no references of their own here
        decls.append(d)
    # property initialisers: calls inside a field's text belong to the field
    field_spans = sorted((n.start_byte, n.end_byte, d) for n, d in _field_nodes(captures, extra))
    field_starts = [s for s, _, _ in field_spans]

    def member_of(node) -> Decl | None:
        d = owner_of(node)
        if d is not None:
            return d
        i = bisect.bisect_right(field_starts, node.start_byte) - 1
        if i >= 0 and field_spans[i][0] <= node.start_byte < field_spans[i][1]:
            return field_spans[i][2]
        return None

    def enclosing_type(d: Decl) -> str:
        return d.owner if not d.is_type else d.type_name

    def receiver_type(obj, decl: Decl) -> tuple[str | None, str | None]:
        raw = _t(source, obj)
        kind = obj.type
        if kind == "this_expression":
            owner = enclosing_type(decl)
            return raw, owner.rsplit(".", 1)[-1] if owner and owner != jf.package else None
        if kind == "super_expression":
            return raw, "super"
        if kind == "identifier":
            if raw in decl.locals:
                return raw, decl.locals[raw] or None
            scope_name = enclosing_type(decl)
            while scope_name:
                if raw in fields.get(scope_name, {}):
                    return raw, fields[scope_name][raw] or None
                scope_name = scope_name.rpartition(".")[0]
            return raw, raw if raw[:1].isupper() else None
        if kind == "navigation_expression":
            inner, name = _nav_parts(obj)
            if inner is not None and inner.type == "this_expression":
                t = fields.get(enclosing_type(decl), {}).get(_t(source, name))
                return raw, t or None
            parts = raw.replace("?.", ".").split(".")
            if all(p[:1].islower() for p in parts[:-1]) and parts[-1][:1].isupper() and len(parts) > 1:
                return raw, raw  # a qualified type name
            if parts[-1][:1].isupper() and parts[0][:1].isupper():
                return raw, raw  # Outer.Inner
            return raw, None
        if kind == "call_expression":
            callee = obj.named_children[0] if obj.named_child_count else None
            if callee is not None and callee.type == "identifier" and _t(source, callee)[:1].isupper():
                return raw, _t(source, callee)
        if kind == "parenthesized_expression" and obj.named_child_count == 1:
            return receiver_type(obj.named_children[0], decl)
        return raw, None

    callees: set[tuple[int, int]] = set()
    for node in captures.get("call", ()):
        decl = member_of(node)
        callee = node.named_children[0] if node.named_child_count else None
        if callee is None:
            continue
        callees.add((callee.start_byte, callee.end_byte))
        if decl is None:
            continue
        args = next((c for c in node.named_children if c.type == "value_arguments"), None)
        argc = sum(1 for c in args.named_children if c.type == "value_argument") if args is not None else 0
        if any(c.type == "annotated_lambda" for c in node.named_children):
            argc += 1  # a trailing lambda is the last argument
        if callee.type == "identifier":
            name = _t(source, callee)
            if name[:1].isupper():
                decl.refs.append(Ref("new", name, _line(node), None, name, argc))
            else:
                decl.refs.append(Ref("call", name, _line(node), None, None, argc))
        elif callee.type == "navigation_expression":
            obj, name_node = _nav_parts(callee)
            if obj is None or name_node is None:
                continue
            recv, rtype = receiver_type(obj, decl)
            name = _t(source, name_node)
            if name[:1].isupper() and rtype and rtype == recv and "." in rtype:
                decl.refs.append(Ref("new", name, _line(name_node), None, f"{rtype}.{name}", argc))  # pkg.Foo()
            else:  # the line of the name: a chained call's, not the chain's start
                decl.refs.append(Ref("call", name, _line(name_node), recv, rtype, argc))
    for node in captures.get("nav", ()):
        if (node.start_byte, node.end_byte) in callees:
            continue
        decl = member_of(node)
        if decl is None:
            continue
        obj, name_node = _nav_parts(node)
        if obj is None or name_node is None:
            continue
        recv, rtype = receiver_type(obj, decl)
        decl.refs.append(Ref("field", _t(source, name_node), _line(node), recv, rtype, -1))
    for node in captures.get("annotation", ()):
        name = _annotation_name(node, source)
        if name not in _CONFIG:
            continue
        decl = member_of(node) or owner_of(node, members_only=False)
        if decl is None:
            # an annotation on a class sits before its body: the type starting after it
            i = bisect.bisect_right(starts, node.end_byte)
            decl = decls[spans[i][2]] if i < len(spans) and decls[spans[i][2]].is_type else None
        if decl is not None:
            decl.links.extend(config_links(name, _t(source, node)))
    # the file facade: what Java calls top-level functions and properties through
    top_level = [d for d in decls if d.owner == jf.package and not d.is_type]
    if top_level:
        facade = _jvm_name(captures.get("file_annotation", ()), source) or _facade_name(path)
        if facade:
            decls.append(Decl(kind="facade", name=facade, owner=jf.package,
                              signature=f"// Kotlin file facade of {posixpath.basename(path) or 'this file'}",
                              start=1, end=max(1, text.count("\n") + 1),
                              body=f"// top-level declarations of {posixpath.basename(path) or 'this file'}"))
    decls.sort(key=lambda d: (d.start, -d.end))
    return settle(jf, decls, root)


def _field_nodes(captures, extra):
    by_start = {start: d for start, d in extra}
    for node in [*captures.get("prop", ()), *captures.get("cparam", ())]:
        d = by_start.get(node.start_byte)
        if d is not None:
            yield node, d


def _decl(node, source: bytes, outer: str, outer_is_type: bool, up_node, up_type: Decl | None) -> Decl | None:
    t = node.type
    start, end = _line(node), _end(node)
    if t in _TYPE_NODES:
        name_node = node.child_by_field_name("name") or next(
            (c for c in node.named_children if c.type == "identifier"), None)
        name = _t(source, name_node) or ("Companion" if t == "companion_object" else "")
        if not name:
            return None
        if t == "class_declaration":
            keyword = next((_t(source, c) for c in node.children if not c.is_named), "")
            mods = next((c for c in node.named_children if c.type == "modifiers"), None)
            kind = "interface" if keyword == "interface" else (
                "enum" if mods is not None and re.search(r"\benum\b", _t(source, mods)) else
                "annotation" if mods is not None and re.search(r"\bannotation\b", _t(source, mods)) else "class")
        else:
            kind = "object"
        supers = []
        spec = next((c for c in node.named_children if c.type == "delegation_specifiers"), None)
        for d in spec.named_children if spec is not None else ():
            user = d if d.type == "user_type" else next((c for c in _walk(d) if c.type == "user_type"), None)
            if user is not None:
                supers.append(_user_type(user, source))
        head = _head(node, source)
        return Decl(kind=kind, name=name, owner=outer, signature=head, start=start, end=end, supertypes=tuple(supers),
                    static=t != "class_declaration", body=head + " { … }")
    if t == "function_declaration":
        name_node = node.child_by_field_name("name")
        if name_node is None or name_node.type != "identifier":
            name_node = next((c for c in node.named_children if c.type == "identifier"), None)
        name = _t(source, name_node)
        if not name:
            return None
        params = _params(next((c for c in node.named_children if c.type == "function_value_parameters"), None), source)
        returns = ""
        seen_params = False
        for c in node.named_children:
            if c.type == "function_value_parameters":
                seen_params = True
            elif seen_params and c.type in ("user_type", "nullable_type", "function_type"):
                returns = _t(source, c)
                break
        kind = "method" if outer_is_type else "function"
        return Decl(kind=kind, name=name, owner=outer, signature=_head(node, source), start=start, end=end,
                    params=params, type=_SPACE.sub("", returns), static=not outer_is_type, body=_body(node, source))
    if t in ("secondary_constructor", "primary_constructor", "anonymous_initializer"):
        if up_type is None:
            return None
        if t == "anonymous_initializer":
            params = ()
        else:
            holder = next((c for c in node.named_children if c.type in ("function_value_parameters",
                                                                         "class_parameters")), None)
            params = _params(holder, source)
        return Decl(kind="constructor", name=up_type.name, owner=up_type.type_name, signature=_head(node, source),
                    start=start, end=end, params=params, body=_body(node, source))
    return None


def _params(node, source: bytes) -> tuple[str, ...]:
    if node is None:
        return ()
    out: list[str] = []
    vararg = False
    children = node.named_children
    for c in children:
        if c.type == "parameter_modifiers":
            vararg = "vararg" in _t(source, c)
            continue
        if c.type not in ("parameter", "class_parameter"):
            continue
        mods = next((m for m in c.named_children if m.type in ("parameter_modifiers", "modifiers")), None)
        written = _SPACE.sub("", _t(source, _type_child(c)))
        if vararg or (mods is not None and "vararg" in _t(source, mods)):
            written += "..."
        has_default = any(not x.is_named and _t(source, x) == "=" for x in c.children) or (
            c.type == "parameter" and _default_after(c, source))
        out.append(written + ("=" if has_default and not written.endswith("...") else ""))
        vararg = False
    return tuple(out)


def _default_after(param, source: bytes) -> bool:
    """A function parameter's default sits after it in the parameter list (`n: Int = 2`)."""
    sib = param.next_sibling
    return sib is not None and not sib.is_named and _t(source, sib) == "="


def _type_child(node):
    return next((c for c in node.named_children if c.type in ("user_type", "nullable_type", "function_type")), None)


def _property(node, source: bytes) -> tuple[str, str, str]:
    """(name, declared type, type of a `T(...)` initialiser)."""
    var = next((c for c in node.named_children if c.type == "variable_declaration"), None)
    if var is None:
        return "", "", ""
    name = _t(source, next((c for c in var.named_children if c.type == "identifier"), None))
    written = _SPACE.sub("", _t(source, _type_child(var)))
    init = ""
    seen_eq = False
    for c in node.children:
        if not c.is_named and _t(source, c) == "=":
            seen_eq = True
        elif seen_eq and c.is_named:
            if c.type == "call_expression" and c.named_child_count:
                callee = c.named_children[0]
                if callee.type == "identifier" and _t(source, callee)[:1].isupper():
                    init = _t(source, callee)
            break
    return name, written, init


def _nav_parts(nav):
    kids = nav.named_children
    if len(kids) < 2:
        return None, None
    name = kids[-1]
    if name.type == "navigation_suffix":
        name = next((c for c in name.named_children if c.type in ("identifier", "simple_identifier")), None)
    elif name.type not in ("identifier", "simple_identifier"):
        return None, None
    return kids[0], name


def _annotation_name(node, source: bytes) -> str:
    user = next((c for c in _walk(node) if c.type == "user_type"), None)
    return _t(source, user).rsplit(".", 1)[-1].split("<")[0] if user is not None else ""


def _jvm_name(nodes, source: bytes) -> str:
    for node in nodes:
        text = _t(source, node)
        found = re.search(r"JvmName\s*\(\s*\"([^\"]+)\"", text)
        if found:
            return found.group(1)
    return ""


def _facade_name(path: str) -> str:
    stem = posixpath.splitext(posixpath.basename(path))[0]
    if not stem or posixpath.splitext(path)[1] != ".kt":
        return ""
    return (stem[:1].upper() + stem[1:] + "Kt") if re.fullmatch(r"[A-Za-z_][\w]*", stem) else ""


def _user_type(node, source: bytes) -> str:
    return ".".join(_t(source, c) for c in node.named_children if c.type == "identifier")


def _ident(node, source: bytes) -> str:
    q = next((c for c in node.named_children if c.type in ("qualified_identifier", "identifier")), None)
    return _SPACE.sub("", _t(source, q))


def _walk(node):
    stack = [node]
    while stack:
        n = stack.pop()
        yield n
        stack.extend(reversed(n.named_children))


def _t(source: bytes, node) -> str:
    return source[node.start_byte:node.end_byte].decode("utf-8", "replace") if node is not None else ""


def _line(node) -> int:
    return node.start_point.row + 1


def _end(node) -> int:
    return node.end_point.row + 1


def _head(node, source: bytes) -> str:
    body = next((c for c in node.named_children if c.type in ("class_body", "function_body", "block",
                                                               "enum_class_body")), None)
    end = body.start_byte if body is not None else node.end_byte
    raw = source[node.start_byte:min(end, node.start_byte + 4000)].decode("utf-8", "replace")
    raw = re.sub(r"/\*.*?\*/|//[^\n]*", " ", raw, flags=re.DOTALL)
    head = _SPACE.sub(" ", raw).strip().rstrip("=").strip()
    head = re.sub(r"^(@[\w.]+(\([^)]*\))?\s*)+", "", head)
    return head[:300]


def _body(node, source: bytes) -> str:
    raw = source[node.start_byte:min(node.end_byte, node.start_byte + 4 * MAX_BODY_CHARS + 4)].decode("utf-8", "replace")
    raw = raw[:MAX_BODY_CHARS + 1]
    return raw if len(raw) <= MAX_BODY_CHARS else raw[:MAX_BODY_CHARS] + "\n    /* … body capped … */"
