"""Java symbols with tree-sitter: declarations, Javadoc, and what each member uses.

    from dualrag.parsing.symbols import java_file
    jf = java_file(text)                 # never raises; jf.error says why structure is not trusted
    jf.package, jf.imports, jf.decls     # decls: types, fields, methods, constructors (source order)
    d.refs                               # call sites, `new`, type references and method references
    jf.qualify("Foo", exists)            # a simple or dotted type name -> qualified, via imports

A reference keeps the receiver's *type* when that is cheap to know: `this`, a parameter, a local,
a field of the enclosing types, a type name (static call), `new T()`; a chained receiver stays
unresolved (its name is kept). Everything runs on one tree-sitter query (C), so a 10,000-line
class costs one parse plus a walk over the captured nodes only.
"""

from __future__ import annotations

import bisect
import re
from functools import lru_cache

from tree_sitter import Language, Node, Parser, Query, QueryCursor

from dualrag.parsing._ts import end_line_of, first_error_line, line_of, parse, text_of
from dualrag.parsing.java import _CALLABLES, _TYPES, _head, _param_types
from dualrag.parsing.nesting import containers, in_source_order
from dualrag.parsing.symbol_model import Decl, Ref, SourceFile, _join, _type_name, config_links, type_name

__all__ = ["Decl", "JavaFile", "Ref", "SourceFile", "java_file", "type_name"]

MAX_BODY_CHARS = 4000
_QUERY = """
[(class_declaration) (interface_declaration) (enum_declaration) (record_declaration)
 (annotation_type_declaration) (method_declaration) (constructor_declaration)
 (compact_constructor_declaration) (field_declaration) (constant_declaration)] @decl
(method_invocation) @call
(object_creation_expression) @new
(method_reference) @mref
(explicit_constructor_invocation) @ctor
(type_identifier) @type
(field_access) @field
(local_variable_declaration) @local
(formal_parameter) @local
(spread_parameter) @local
(catch_formal_parameter) @local
(enhanced_for_statement) @local
(resource) @local
(lambda_expression) @lambda
(static_initializer) @scope
(scoped_type_identifier) @scoped
(block_comment) @comment
(line_comment) @comment
(annotation) @annotation
"""
_SPACE = re.compile(r"\s+")
_CONFIG_ANNOTATIONS = frozenset({"Value", "ConfigurationProperties"})
_JAVA_LANG = frozenset(
    "Object String StringBuilder StringBuffer Integer Long Short Byte Character Boolean Double Float Number "
    "Math System Class Enum Iterable Comparable CharSequence Runnable Thread Exception RuntimeException Error "
    "Throwable IllegalArgumentException IllegalStateException NullPointerException Override Deprecated "
    "SuppressWarnings FunctionalInterface SafeVarargs Void Cloneable AutoCloseable".split()
)


# The model is shared with the other packs' readers (Kotlin, Python): see symbol_model.py.
JavaFile = SourceFile


@lru_cache(maxsize=2)
def _query(language: Language) -> Query:
    return Query(language, _QUERY)


def java_file(text: str, parser: Parser) -> JavaFile:
    """Declarations and references of one Java source text (`parser`: tree-sitter-java's, handed
    down by the Java pack). Never raises."""
    try:
        root = parse(parser, text)
    except Exception as exc:  # noqa: BLE001 - a grammar problem degrades to "no symbols"
        return JavaFile(error=f"cannot parse: {exc}")
    jf = JavaFile()
    imports, wildcards, static_wild = [], [], []
    for child in root.named_children:
        if child.type == "package_declaration":
            jf.package = _SPACE.sub("", text_of(child).removeprefix("package").rstrip(";")).strip()
            jf.package = re.sub(r"^(@\w[\w.]*(\([^)]*\))?)+", "", jf.package)
        elif child.type == "import_declaration":
            raw = _SPACE.sub(" ", text_of(child)).strip().removeprefix("import ").rstrip(";").strip()
            static = raw.startswith("static ")
            target = raw.removeprefix("static ").replace(" ", "")
            if target.endswith(".*"):
                (static_wild if static else wildcards).append(target[:-2])
            elif static:
                owner, _, member = target.rpartition(".")
                jf.static_imports[member] = owner
            else:
                imports.append(target)
    jf.imports, jf.wildcards, jf.static_wildcards = tuple(imports), tuple(wildcards), tuple(static_wild)
    captures = QueryCursor(_query(parser.language)).captures(root)
    decl_nodes = sorted(captures.get("decl", ()), key=lambda n: (n.start_byte, -n.end_byte))
    owners = _owners([*decl_nodes, *captures.get("new", ()), *captures.get("scope", ())], jf.package)
    source = root.text or b""
    decls: list[Decl] = []
    spans: list[tuple[int, int]] = []
    comments = sorted(captures.get("comment", ()), key=lambda n: n.start_byte)
    comment_ends = [c.end_byte for c in comments]
    for node in decl_nodes:
        doc = _doc(node, comments, comment_ends, source)
        for decl in _decls(node, owners[(node.start_byte, node.end_byte, node.type)], source, doc):
            decls.append(decl)
            spans.append((node.start_byte, node.end_byte))
    jf.decls = decls
    starts = [s for s, _ in spans]

    def owner_of(node: Node) -> Decl | None:
        """Innermost member (not type) declaration containing the node."""
        b = node.start_byte
        i = bisect.bisect_right(starts, b) - 1
        best = None
        while i >= 0:
            s, e = spans[i]
            if s <= b < e:
                if not decls[i].is_type:
                    return decls[i]
                best = best or decls[i]
                # a type containing the node: no member around it
                return None
            i -= 1
        return best

    def type_owner(node: Node) -> Decl | None:
        b = node.start_byte
        i = bisect.bisect_right(starts, b) - 1
        while i >= 0:
            s, e = spans[i]
            if s <= b < e and decls[i].is_type:
                return decls[i]
            i -= 1
        return None

    # locals first: a call's receiver may be declared after the call in source order (fields)
    for node in captures.get("local", ()):
        decl = owner_of(node)
        if decl is None:
            continue
        for name, written in _local_names(node):
            decl.locals.setdefault(name, written)
    fields: dict[str, dict[str, str]] = {}  # type qualified -> field -> type
    for d in decls:
        if d.kind == "field":
            fields.setdefault(d.owner, {})[d.name] = d.type

    def receiver_type(obj: Node, decl: Decl) -> tuple[str | None, str | None]:
        raw = text_of(obj)
        if obj.type == "this":
            return raw, decl.owner.rsplit(".", 1)[-1] if decl.owner else None
        if obj.type == "super":
            return raw, "super"
        if obj.type == "identifier":
            if raw in decl.locals:
                return raw, _type_name(decl.locals[raw]) or None
            scope = decl.owner
            while scope:
                if raw in fields.get(scope, {}):
                    return raw, _type_name(fields[scope][raw]) or None
                scope = scope.rpartition(".")[0]
            return raw, raw if raw[:1].isupper() else None
        if obj.type == "field_access":
            inner = obj.child_by_field_name("object")
            name = text_of(obj.child_by_field_name("field"))
            if inner is not None and inner.type == "this":
                t = fields.get(decl.owner, {}).get(name)
                return raw, _type_name(t) if t else None
            if raw[:1].islower() and all(p[:1].islower() for p in raw.split(".")[:-1]) and name[:1].isupper():
                return raw, raw  # a qualified type name: java.util.Collections
            return raw, None
        if obj.type in ("scoped_identifier", "scoped_type_identifier", "type_identifier"):
            return raw, raw
        if obj.type == "object_creation_expression":
            return raw, _type_name(text_of(obj.child_by_field_name("type"))) or None
        if obj.type == "parenthesized_expression" and obj.named_child_count == 1 and \
                obj.named_children[0].type == "cast_expression":
            return raw, _type_name(text_of(obj.named_children[0].child_by_field_name("type"))) or None
        return raw, None

    for node in captures.get("call", ()):
        decl = owner_of(node)
        if decl is None:
            continue
        name = text_of(node.child_by_field_name("name"))
        args = node.child_by_field_name("arguments")
        argc = args.named_child_count if args is not None else -1
        obj = node.child_by_field_name("object")
        if obj is None:
            recv, rtype = None, None
        else:
            recv, rtype = receiver_type(obj, decl)
        name_node = node.child_by_field_name("name")  # a chained call's line is its name's, not the chain's start
        decl.refs.append(Ref("call", name, line_of(name_node if name_node is not None else node), recv, rtype, argc))
    for node in captures.get("new", ()):
        decl = owner_of(node)
        if decl is None:
            continue
        written = _type_name(text_of(node.child_by_field_name("type")))
        args = node.child_by_field_name("arguments")
        if written:
            decl.refs.append(Ref("new", written.rsplit(".", 1)[-1], line_of(node), None, written,
                                 args.named_child_count if args is not None else -1))
    for node in captures.get("ctor", ()):
        decl = owner_of(node)
        if decl is None:
            continue
        which = node.child_by_field_name("constructor")
        args = node.child_by_field_name("arguments")
        decl.refs.append(Ref("super-call", text_of(which), line_of(node), text_of(which),
                             "super" if which is not None and which.type == "super" else "this",
                             args.named_child_count if args is not None else -1))
    for node in captures.get("mref", ()):
        decl = owner_of(node)
        kids = node.named_children
        if decl is None or len(kids) < 2:
            continue
        obj, name = kids[0], text_of(kids[-1])
        recv, rtype = receiver_type(obj, decl)
        decl.refs.append(Ref("mref", name, line_of(node), recv, rtype, -1))
    for node in captures.get("field", ()):
        decl = owner_of(node)
        if decl is None:
            continue
        obj = node.child_by_field_name("object")
        name = text_of(node.child_by_field_name("field"))
        if obj is None or not name:
            continue
        recv, rtype = receiver_type(obj, decl)
        decl.refs.append(Ref("field", name, line_of(node), recv, rtype, -1))
    # Parts of Outer.Inner by position (Node.parent costs the node's depth: quadratic when nested)
    scoped_first: dict[tuple[int, int], Node] = {}
    scoped_rest: set[tuple[int, int]] = set()
    for scoped in captures.get("scoped", ()):
        parts = scoped.named_children
        if parts:
            scoped_first[(parts[0].start_byte, parts[0].end_byte)] = scoped
            scoped_rest.update((p.start_byte, p.end_byte) for p in parts[1:])
    for node in captures.get("type", ()):
        at = (node.start_byte, node.end_byte)
        if at in scoped_rest:
            continue  # the inner part of Outer.Inner is counted with the whole
        written = text_of(scoped_first[at]) if at in scoped_first else text_of(node)
        if not written[:1].isupper():
            continue
        decl = owner_of(node) or type_owner(node)
        if decl is not None and written != decl.name:
            decl.refs.append(Ref("type", written.rsplit(".", 1)[-1], line_of(node), None, written, -1))
    for node in captures.get("annotation", ()):  # Spring configuration keys a member reads
        name = text_of(node.child_by_field_name("name")).rsplit(".", 1)[-1]
        if name not in _CONFIG_ANNOTATIONS:
            continue
        decl = owner_of(node) or type_owner(node)
        if decl is not None:
            decl.links.extend(config_links(name, text_of(node.child_by_field_name("arguments"))))
    for d in decls:
        d.refs.sort(key=lambda r: r.line)
    if root.has_error:
        jf.error = f"syntax error near line {first_error_line(root)}: symbols may be incomplete"
    return jf


def _local_names(node: Node) -> list[tuple[str, str]]:
    t = node.type
    if t in ("local_variable_declaration",):
        written = text_of(node.child_by_field_name("type"))
        return [(text_of(d.child_by_field_name("name")), written)
                for d in node.named_children if d.type == "variable_declarator"]
    if t in ("formal_parameter", "resource"):
        return [(text_of(node.child_by_field_name("name")), text_of(node.child_by_field_name("type")))]
    if t == "enhanced_for_statement":
        return [(text_of(node.child_by_field_name("name")), text_of(node.child_by_field_name("type")))]
    if t == "spread_parameter":
        kinds = [c for c in node.named_children if c.type not in ("modifiers", "variable_declarator")]
        names = [c for c in node.named_children if c.type == "variable_declarator"]
        if kinds and names:
            return [(text_of(names[0].child_by_field_name("name")), text_of(kinds[0]) + "[]")]
    if t == "catch_formal_parameter":
        ctype = next((c for c in node.named_children if c.type == "catch_type"), None)
        first = ctype.named_children[0] if ctype is not None and ctype.named_child_count else None
        return [(text_of(node.child_by_field_name("name")), text_of(first))]
    return []


def _doc(node: Node, comments: list[Node], comment_ends: list[int], source: bytes) -> str:
    """The Javadoc right before a declaration (line comments may sit between). Found by position
    among the captured comments: `prev_named_sibling` costs the node's depth."""
    k = bisect.bisect_right(comment_ends, node.start_byte) - 1
    after = node.start_byte
    while k >= 0 and not source[comment_ends[k]:after].strip():
        comment = comments[k]
        if comment.type == "block_comment":
            raw = text_of(comment)
            if raw.startswith("/**"):
                lines = [re.sub(r"^\s*\*?\s?", "", ln) for ln in raw[3:-2].splitlines()]
                return "\n".join(ln.rstrip() for ln in lines).strip()[:1500]
            return ""
        after, k = comment.start_byte, k - 1
    return ""


def _owners(nodes: list[Node], package: str) -> dict[tuple[int, int, str], str]:
    """Per node (start, end, type): the qualified name of what it is declared in, in one pass
    (a walk up from every declaration is quadratic in nesting depth, and worse: see nesting.py).
    Types, anonymous classes (`new T`) and callables (a local class is named under its method)
    name a scope."""
    ordered = in_source_order(nodes)
    inside: list[str] = []  # the scope each node gives its descendants
    out: dict[tuple[int, int, str], str] = {}
    for node, up in zip(ordered, containers(ordered)):
        outer = inside[up] if up >= 0 else ""
        out[(node.start_byte, node.end_byte, node.type)] = _join(package, outer)
        if node.type in _TYPES:
            here = text_of(node.child_by_field_name("name"))
        elif node.type == "object_creation_expression":
            here = f"new {_type_name(text_of(node.child_by_field_name('type')))}"
        elif node.type in _CALLABLES:
            here = text_of(node.child_by_field_name("name")) or node.type
        else:
            here = ""
        inside.append(f"{outer}.{here}" if outer and here else outer or here)
    return out


def _is_static(node: Node) -> bool:
    mods = next((c for c in node.named_children if c.type == "modifiers"), None)
    return mods is not None and "static" in text_of(mods).split()


def _body(node: Node, source: bytes, text_limit: int = MAX_BODY_CHARS) -> str:
    # sliced from the source: node.text copies the whole node (quadratic for nested members)
    raw = source[node.start_byte:min(node.end_byte, node.start_byte + 4 * text_limit + 4)].decode("utf-8", "replace")
    raw = raw[:text_limit + 1]
    return raw if len(raw) <= text_limit else raw[:text_limit] + "\n    /* … body capped … */"


def _decls(node: Node, owner: str, source: bytes, doc: str) -> list[Decl]:
    start, end = line_of(node), end_line_of(node)
    t = node.type
    if t in _TYPES:
        supers: list[str] = []
        for fname in ("superclass", "interfaces"):
            part = node.child_by_field_name(fname)
            if part is not None:
                supers += _type_list(part)
        ext = next((c for c in node.named_children if c.type == "extends_interfaces"), None)
        if ext is not None:
            supers += _type_list(ext)
        body = node.child_by_field_name("body")
        head = _head(node, source)
        return [Decl(kind=_TYPES[t], name=text_of(node.child_by_field_name("name")), owner=owner, signature=head,
                     start=start, end=end, doc=doc, supertypes=tuple(supers), static=_is_static(node),
                     body=head + (" { … }" if body is not None else ""))]
    if t in ("field_declaration", "constant_declaration"):
        written = _SPACE.sub("", text_of(node.child_by_field_name("type")))
        head = _SPACE.sub(" ", re.sub(r"/\*.*?\*/|//[^\n]*", " ", text_of(node), flags=re.S)).strip()
        out = []
        for d in node.named_children:
            if d.type == "variable_declarator":
                out.append(Decl(kind="field", name=text_of(d.child_by_field_name("name")), owner=owner,
                                signature=head[:300], start=start, end=end, type=written, doc=doc,
                                static=_is_static(node) or t == "constant_declaration", body=_body(node, source)))
        return out
    if t in ("method_declaration", "constructor_declaration", "compact_constructor_declaration"):
        kind = "method" if t == "method_declaration" else "constructor"
        params = tuple(_param_types(node.child_by_field_name("parameters")))
        name = text_of(node.child_by_field_name("name"))
        return [Decl(kind=kind, name=name, owner=owner, signature=_head(node, source), start=start, end=end,
                     params=params, type=_SPACE.sub("", text_of(node.child_by_field_name("type"))), doc=doc,
                     static=_is_static(node), body=_body(node, source))]
    return []


def _type_list(node: Node) -> list[str]:
    out = []
    stack = [node]
    while stack:
        n = stack.pop()
        if n.type in ("type_identifier", "scoped_type_identifier", "generic_type"):
            name = _type_name(text_of(n))
            if name:
                out.append(name)
            continue
        stack.extend(reversed(n.named_children))
    return out
