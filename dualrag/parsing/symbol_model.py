"""What a language pack's symbol reader gives the code index: one `SourceFile` per source file, its
declarations (`Decl`) and, per declaration, what it uses (`Ref`). Java, Kotlin and Python readers
fill the same shape, so resolution (`dualrag.languages.code_symbols.resolve_refs`) and code context
(`dualrag.retrieval.code`) work across them: a Kotlin call to a Java method and a Java call to a
Kotlin class resolve through the same imports, package and type lookups.

    jf = SourceFile(language="kotlin", package="com.acme", imports=("com.acme.util.Strings",))
    jf.decls.append(Decl(kind="function", name="pad", owner="com.acme.StringsKt", ...))
    jf.qualify("Strings", exists)        # -> ["com.acme.util.Strings"] when the repository declares it

Kinds: types are `class interface enum record annotation object module facade` (a Python module
and a Kotlin file facade `FooKt` are types: they own functions); callables `method function
constructor`; `field` (Java fields, Kotlin properties, Python attributes).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

TYPE_KINDS = frozenset({"class", "interface", "enum", "record", "annotation", "object", "module", "facade"})
CALLABLE_KINDS = frozenset({"method", "function", "constructor"})
_GENERIC = re.compile(r"<.*>", re.DOTALL)


@dataclass(frozen=True, slots=True)
class Ref:
    """A use inside a declaration. kind: call | new | type | mref | field | super-call."""

    kind: str
    name: str  # method, field or type name (simple)
    line: int
    receiver: str | None = None  # receiver text when it has one (`this`, `list`, `Util`, `a.b()`)
    receiver_type: str | None = None  # the receiver's type as written (simple or dotted), when known
    argc: int = -1  # arguments of a call, -1 = unknown


@dataclass(slots=True)
class Decl:
    kind: str  # a type kind (TYPE_KINDS) | field | method function constructor
    name: str  # simple name
    owner: str  # qualified name of the enclosing type (or package / module) ("" for none)
    signature: str  # declaration head, one line
    start: int
    end: int
    params: tuple[str, ...] = ()  # parameter types as written; a defaulted one ends with "=", varargs with "..."
    type: str = ""  # return type (methods) or field type
    doc: str = ""
    supertypes: tuple[str, ...] = ()  # as written (types)
    static: bool = False
    body: str = ""
    refs: list[Ref] = field(default_factory=list)
    locals: dict[str, str] = field(default_factory=dict)  # name -> type as written
    links: list[str] = field(default_factory=list)  # CodeSymbol.refs: config:KEY, config-prefix:PREFIX, ...

    @property
    def qualified(self) -> str:
        """com.acme.Foo.bar(int,String) for callables, com.acme.Foo.Inner for types, com.acme.Foo.x for fields."""
        base = f"{self.owner}.{self.name}" if self.owner else self.name
        if self.kind in CALLABLE_KINDS:
            return f"{base}({','.join(p.removesuffix('=') for p in self.params)})"
        return base

    @property
    def is_type(self) -> bool:
        return self.kind in TYPE_KINDS

    @property
    def type_name(self) -> str:
        """The qualified name this declaration has as a type (only meaningful when `is_type`)."""
        return f"{self.owner}.{self.name}" if self.owner else self.name


@dataclass(slots=True)
class SourceFile:
    """One source file's declarations. `package` is the Java/Kotlin package or the Python module.
    `module_scope`: functions may be declared at package/module level (Kotlin, Python), so an
    unqualified call is looked up there too."""

    package: str = ""
    imports: tuple[str, ...] = ()  # single-type imports, qualified
    wildcards: tuple[str, ...] = ()  # packages (or types) imported with .*
    static_imports: dict[str, str] = field(default_factory=dict)  # member name -> qualified owner
    static_wildcards: tuple[str, ...] = ()  # types whose static members are imported with .*
    decls: list[Decl] = field(default_factory=list)
    error: str | None = None  # syntax errors: symbols may be incomplete
    language: str = "java"
    module_scope: bool = False

    def types(self) -> list[Decl]:
        return [d for d in self.decls if d.is_type]

    def qualify(self, written: str, exists: Callable[[str], bool] | None = None, *,
                context: str = "") -> list[str]:
        """Qualified candidates for a type name as written in this file, best first.

        Order: a nested type of `context` (or of its outer types), a type declared in this file,
        an explicit import, the same package, wildcard imports. `exists(q)` (does the repository
        declare q?) removes guesses; without it every guess is returned.
        """
        name = _type_name(written)
        if not name or name[0].islower() and "." not in name:
            return []
        head, _, rest = name.partition(".")
        out: list[str] = []
        # nested in the enclosing types, innermost first
        scope = context
        while scope:
            out.append(f"{scope}.{name}")
            scope = scope.rpartition(".")[0] if "." in scope else ""
            if self.package and scope == self.package:
                break
        declared = {d.name: d for d in self.decls if d.is_type and d.kind != "module"}
        if head in declared:
            out.append(_join(declared[head].owner, declared[head].name) + (f".{rest}" if rest else ""))
        for imp in self.imports:
            if imp.rsplit(".", 1)[-1] == head:
                out.append(imp + (f".{rest}" if rest else ""))
        out.append(_join(self.package, name))
        out += [f"{w}.{name}" for w in self.wildcards]
        if "." in name and name[0].islower():
            out.append(name)  # already qualified (java.util.List, a Python module)
        seen = list(dict.fromkeys(out))
        if exists is None:
            return seen
        return [q for q in seen if exists(q)]


def settle(jf: SourceFile, decls: list[Decl], root) -> SourceFile:
    """`jf` holding `decls` with their references in line order, and a note when `root` (the
    tree-sitter root) holds a syntax error: what every symbol reader returns."""
    from dualrag.parsing._ts import first_error_line

    for d in decls:
        d.refs.sort(key=lambda r: r.line)
    jf.decls = decls
    if root.has_error:
        jf.error = f"syntax error near line {first_error_line(root)}: symbols may be incomplete"
    return jf


def arity(params: list[str] | tuple[str, ...]) -> tuple[int, int | None]:
    """(required, at most) arguments: a parameter ending in "=" is optional (Kotlin, Python
    defaults), one ending in "..." (Java, Kotlin varargs) or starting with "*" (Python) takes any
    number."""
    required, most = 0, 0
    unbounded = False
    for p in params:
        if p.endswith("...") or p.startswith("*"):
            unbounded = True
        elif p.endswith("="):
            most += 1
        else:
            required += 1
            most += 1
    return required, None if unbounded else most


def _join(prefix: str, name: str) -> str:
    return f"{prefix}.{name}" if prefix and name else prefix or name


def _type_name(written: str) -> str:
    """`final Map<String, List<X>>[]` -> `Map`; `Map.Entry<K,V>` -> `Map.Entry`; `int` -> ``;
    Kotlin `Foo?` -> `Foo`."""
    t = _GENERIC.sub("", written or "").replace("...", "").replace("[]", "").rstrip("?").strip()
    t = t.split()[-1] if t else ""
    if t.startswith("@"):
        return ""
    return t if t and (t[0].isupper() or "." in t) else ""


def type_name(written: str) -> str:
    return _type_name(written)


# ------------------------------------------------------------------------------- configuration keys

_PLACEHOLDER = re.compile(r"\$\{([^}:]+)")


def config_key(key: str) -> str:
    """Spring's relaxed binding, canonical: lower case, `-` and `_` dropped, `[0]` indexes dropped
    (`app.mailHost`, `app.mail-host`, `APP_MAIL_HOST`... -> `app.mailhost`)."""
    key = re.sub(r"\[[^\]]*\]", "", key.strip().strip("'\""))
    return re.sub(r"[-_]", "", key).lower()


def placeholders(text: str) -> list[str]:
    """The keys of `${a.b}` / `${a.b:default}` placeholders in an annotation's text, canonical."""
    return [config_key(m) for m in _PLACEHOLDER.findall(text.replace("\\$", "$")) if m.strip()]


def config_links(annotation: str, text: str) -> list[str]:
    """CodeSymbol refs of a Spring annotation: `@Value("${a.b}")` -> config:a.b,
    `@ConfigurationProperties(prefix = "a")` -> config-prefix:a."""
    if annotation == "Value":
        return [f"config:{k}" for k in placeholders(text)]
    if annotation == "ConfigurationProperties":
        found = re.search(r"(?:prefix|value)?\s*=?\s*\"([^\"]+)\"", text)
        return [f"config-prefix:{config_key(found.group(1))}"] if found else []
    return []
