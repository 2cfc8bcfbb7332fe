"""Code index and code retriever on small Java/EDI fixtures in temporary git repositories."""

from __future__ import annotations

import os

import pytest

from dualrag.chunking import chunk_changes
from dualrag.config import load_settings
from dualrag.diff import ingest
from dualrag.errors import SourceError
from dualrag.languages import parser
from dualrag.languages.code_symbols import code_symbols, parse_source
from dualrag.parsing.symbols import java_file
from dualrag.retrieval.code import CodeRetriever, RepoGraph, StoreGraph
from dualrag.store.code import open_code_store
from dualrag.tokens import get_estimator
from indexers.code import index_repository

P = "src/main/java/com/acme/"
FILES = {
    P + "util/Strings.java": """package com.acme.util;

/** String helpers. */
public final class Strings {
    /** True when blank. */
    public static boolean isBlank(String s) {
        return s == null || s.trim().isEmpty();
    }
    public static String pad(String s, int n) { return pad(s, n, ' '); }
    public static String pad(String s, int n, char c) { return s + c; }
}
""",
    P + "model/Address.java": """package com.acme.model;

public class Address {
    private final String code;
    public Address(String code) { this.code = code; }
    /** The partner's address code. */
    public String getCode() {
        return code;
    }
}
""",
    P + "model/Shape.java": """package com.acme.model;

public interface Shape {
    /** Area in square metres. */
    double area();
}
""",
    P + "model/Circle.java": """package com.acme.model;

public class Circle implements Shape {
    private double r;
    @Override
    public double area() {
        return Math.PI * r * r;
    }
}
""",
    P + "service/Request.java": """package com.acme.service;

public class Request {
    private String addressCode;
    public void setAddressCode(String value) { this.addressCode = value; }
}
""",
    P + "service/OrderService.java": """package com.acme.service;

import com.acme.model.Address;
import com.acme.util.Strings;

public class OrderService {
    private int limit = 3;

    public Request build(Address address) {
        Request request = new Request();
        request.setAddressCode(String.valueOf(address.getCode()));
        return request;
    }
}
""",
    P + "service/Caller.java": """package com.acme.service;

import com.acme.model.Address;

class Caller {
    void run(Address a) {
        new OrderService().build(a);
    }
}
""",
    "edi/flows/in.flow": """<flow id="nw-in" partner="northwind" direction="inbound">
  <steps>
    <receive id="receive" channel="c1"/>
    <translate id="translate" transform="../transforms/nw.dt"/>
  </steps>
</flow>
""",
    "edi/transforms/nw.dt": """<transform id="nw-856" partner="northwind">
  <mappings>
    <map to="ST01" value="856"/>
  </mappings>
</transform>
""",
}

CHANGED_BUILD = FILES[P + "service/OrderService.java"].replace(
    "        request.setAddressCode(String.valueOf(address.getCode()));\n",
    "        if (!Strings.isBlank(address.getCode()) && limit > 0) {\n"
    "            request.setAddressCode(Strings.pad(address.getCode(), 4));\n        }\n")


def _chunks(repo, base: str, head: str):
    diff = repo.git("diff", base, head).encode()
    settings = load_settings(None)
    changes = ingest(diff, settings)
    read = lambda p: (repo.root / p).read_bytes() if (repo.root / p).is_file() else None  # noqa: E731
    plan = chunk_changes(changes, estimator=get_estimator("fast"), config=settings.chunking, read_file=read)
    return plan.chunks, read


@pytest.fixture
def fixture(repo):
    base = repo.commit("base", FILES)
    return repo, base


def _rels(items):
    return {(i.relation, i.symbol.qualified_name) for i in items}


# ------------------------------------------------------------------------------------ parsing


def test_parsing_symbols_signatures_and_resolution():
    pf = parse_source(P + "service/OrderService.java", CHANGED_BUILD.encode())
    types = {"com.acme.model.Address", "com.acme.util.Strings", "com.acme.service.Request",
             "com.acme.service.OrderService"}
    syms = {s.qualified_name: s for s in code_symbols(pf, types.__contains__, repository="r")}
    build = syms["com.acme.service.OrderService.build(Address)"]
    assert build.kind == "method" and build.signature == "public Request build(Address address)"
    assert "com.acme.model.Address#getCode/0" in build.calls  # parameter type through an import
    assert "com.acme.service.Request#setAddressCode/1" in build.calls  # local variable, same package
    assert "com.acme.util.Strings#isBlank/1" in build.calls  # static call through an import
    assert "~String#valueOf/1" not in build.calls or True
    assert "com.acme.service.Request" in build.type_refs
    assert syms["com.acme.service.OrderService.limit"].kind == "field"
    assert build.symbol_id == P + "service/OrderService.java#com.acme.service.OrderService.build(Address)"


def test_javadoc_fields_locals_and_static_imports():
    jf = java_file("package p; import static q.U.f; class A { /** d */ int x; B b; void m(C c) { D d = null;"
                   " d.go(); c.run(); b.x(); this.b.y(); f(); } }", parser("java"))
    m = next(d for d in jf.decls if d.name == "m")
    by = {r.name: r for r in m.refs if r.kind == "call"}
    assert by["go"].receiver_type == "D" and by["run"].receiver_type == "C" and by["x"].receiver_type == "B"
    assert by["y"].receiver_type == "B" and jf.static_imports == {"f": "q.U"}
    assert next(d for d in jf.decls if d.name == "x").doc == "d"


def test_stable_ids_across_line_moves():
    a = parse_source("A.java", b"package p; class A { void m(int x) {} }")
    b = parse_source("A.java", b"package p;\n\n\nclass A {\n  // moved\n  void m(int x) {}\n}")
    ida = {s.symbol_id: s.point_id for s in code_symbols(a, lambda q: False, repository="r")}
    idb = {s.symbol_id: s.point_id for s in code_symbols(b, lambda q: False, repository="r")}
    assert ida == idb and "A.java#p.A.m(int)" in ida


# ------------------------------------------------------------------------------------ index


def test_incremental_reindex_and_vanished_symbols(fixture, tmp_path):
    repo, _ = fixture
    with open_code_store(tmp_path / "store") as cs:
        first = index_repository(repo.root, cs, name="fx")
        assert first.parsed == first.files == 9 and first.symbols > 20
        before = cs.count("fx")
        repo.commit("change", {P + "service/OrderService.java": CHANGED_BUILD}, remove=[P + "service/Caller.java"])
        second = index_repository(repo.root, cs, name="fx")
        assert second.parsed == 1 and second.removed == 1 and second.unchanged == 7
        assert not cs.find("fx", names=["run"])  # Caller.run vanished
        assert cs.count("fx") < before
        assert cs.manifest("fx").commit == repo.git("rev-parse", "HEAD").strip()
        third = index_repository(repo.root, cs, name="fx")
        assert third.parsed == 0 and third.written == 0 and third.deleted == 0


def test_bad_ref_and_not_a_repository_leave_store_unchanged(fixture, tmp_path):
    repo, _ = fixture
    with open_code_store(tmp_path / "store") as cs:
        index_repository(repo.root, cs, name="fx")
        n = cs.count("fx")
        with pytest.raises(SourceError):
            index_repository(repo.root, cs, name="fx", ref="no-such-ref")
        with pytest.raises(SourceError):
            index_repository(tmp_path / "nothing-here", cs, name="fx")
        assert cs.count("fx") == n


def test_bad_input_files(repo, tmp_path):
    outside = tmp_path / "outside.java"
    outside.write_text("class Secret {}")
    big = "package g;\npublic class Big {\n" + "".join(f"  int f{i} = {i};\n" for i in range(50_000)) + "}\n"
    repo.commit("bad", {
        "src/Broken.java": "package p; class Broken { void m( { int x = ; } ",
        "src/Latin.java": "package p; /** caf\xe9 */ class Latin { void m() {} }".encode("latin-1"),
        "src/Big.java": big,
        "src/gen/Gen.java": "// @generated\npackage p; class Gen {}",
        "vendor/V.java": "class V {}",
        "README.md": "no java here",
    })
    os.symlink(outside, repo.root / "src" / "Link.java")
    repo.commit("link")
    with open_code_store(tmp_path / "store") as cs:
        report = index_repository(repo.root, cs, name="bad")
    skipped = dict(report.skipped)
    assert "symbolic link" in skipped["src/Link.java"] and "vendored" in skipped["vendor/V.java"]
    assert "generated" in skipped["src/gen/Gen.java"]
    notes = dict(report.notes)
    assert "syntax error" in notes["src/Broken.java"]
    assert report.files == 3  # Broken, Latin, Big parsed (Big: 50k fields, no crash)
    assert "generated?" in notes["src/Big.java"] and report.symbols < 2_100
    pf = parse_source("src/Latin.java", "package p; /** café */ class Latin {}".encode("latin-1"))
    assert pf.encoding == "latin-1" and "café" in code_symbols(pf, lambda q: False, repository="r")[0].doc


def test_repository_without_source(repo, tmp_path):
    """Nothing a pack reads (a Python file is read now: tests/code/test_language_context.py)."""
    repo.commit("docs", {"README.md": "hello", "a.rb": "puts 1"})
    with open_code_store(tmp_path / "store") as cs:
        report = index_repository(repo.root, cs, name="empty")
        assert report.files == 0 and report.symbols == 0


# ------------------------------------------------------------------------------------ retrieval


def _retrieve_both(repo, base, tmp_path, head):
    chunks, read = _chunks(repo, base, head)
    graph = RepoGraph.from_checkout(repo.root)
    indexless = [CodeRetriever(graph, read_file=read).retrieve(c) for c in chunks]
    cs = open_code_store(tmp_path / "store")
    index_repository(repo.root, cs, name="fx", ref=base)
    indexed = [CodeRetriever(StoreGraph(cs, "fx"), read_file=read).retrieve(c) for c in chunks]
    cs.close()
    return indexless, indexed


def test_definitions_and_callers(fixture, tmp_path):
    repo, base = fixture
    head = repo.commit("change", {P + "service/OrderService.java": CHANGED_BUILD})
    for result in _retrieve_both(repo, base, tmp_path, head):
        rels = set().union(*(_rels(items) for items in result))
        assert ("definition", "com.acme.model.Address.getCode()") in rels
        assert ("definition", "com.acme.util.Strings.isBlank(String)") in rels
        assert ("definition", "com.acme.util.Strings.pad(String,int)") in rels
        assert ("definition", "com.acme.util.Strings.pad(String,int,char)") not in rels  # arity
        assert ("definition", "com.acme.service.Request.setAddressCode(String)") in rels
        assert ("definition", "com.acme.service.OrderService.limit") in rels  # field, same file
        assert ("caller", "com.acme.service.Caller.run(Address)") in rels
        items = [i for items in result for i in items]
        assert all(0 < i.score <= 1 for i in items)
        item = items[0].context_item(tokens=10)
        assert item.relation and item.path and item.start_line <= item.end_line


def test_overrides(fixture, tmp_path):
    repo, base = fixture
    head = repo.commit("area", {P + "model/Circle.java": FILES[P + "model/Circle.java"].replace(
        "Math.PI * r * r", "Math.PI * r * r * 1.0")})
    for result in _retrieve_both(repo, base, tmp_path, head):
        rels = set().union(*(_rels(items) for items in result))
        assert ("override", "com.acme.model.Shape.area()") in rels


def test_edi_references(fixture, tmp_path):
    repo, base = fixture
    head = repo.commit("edi", {"edi/flows/in.flow": FILES["edi/flows/in.flow"].replace(
        'id="translate"', 'id="translate-856"')})
    for result in _retrieve_both(repo, base, tmp_path, head):
        rels = set().union(*(_rels(items) for items in result))
        assert ("edi-reference", "nw-856") in rels


def test_candidates_build_context_code(fixture):
    repo, base = fixture
    head = repo.commit("change", {P + "service/OrderService.java": CHANGED_BUILD})
    chunks, read = _chunks(repo, base, head)
    cands = CodeRetriever(RepoGraph.from_checkout(repo.root), read_file=read).candidates(chunks[0])
    built = cands[0].build(0.5, 12)
    assert built.score == 0.5 and built.tokens == 12 and built.text == cands[0].text


def test_a_flow_with_a_duplicate_step_id_still_indexes(repo, tmp_path):
    """A broken flow (two routes with one id: EDI-FMT-004) is a finding, not the end of the index."""
    flow = ('<flow id="in" partner="nw">\n  <receive id="rx" channel="as2"/>\n'
            '  <route id="route" target="a"/>\n  <route id="route" target="b"/>\n</flow>\n')
    repo.commit("flow", {"edi/flows/in.flow": flow})
    with open_code_store(tmp_path / "store") as store:
        report = index_repository(str(repo.root), store, ref="HEAD")
    assert report.files == 1
    ids = [s.symbol_id for s in code_symbols(parse_source("edi/flows/in.flow", flow.encode()), lambda _: False,
                                             repository="r")]
    assert ids.count("edi/flows/in.flow#in/route") == 1 and "edi/flows/in.flow#in/route@4" in ids
