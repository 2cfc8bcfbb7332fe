"""Code context for the language packs beyond Java and EDI: Kotlin with Java in one repository
(both ways), MyBatis mapper XML <-> mapper interface, Spring keys <-> @Value /
@ConfigurationProperties, Python modules. Each on both graphs: the checkout and the code index."""

from __future__ import annotations

import indexers.code
from dualrag.chunking import chunk_changes
from dualrag.config import load_settings
from dualrag.diff import ingest
from dualrag.languages.code_symbols import code_symbols, parse_source, symbol_candidate, symbol_language
from dualrag.retrieval.code import CodeRetriever, RepoGraph, StoreGraph
from dualrag.store.code import open_code_store
from dualrag.tokens import get_estimator
from indexers.code import index_repository

J = "src/main/java/com/acme/"
K = "src/main/kotlin/com/acme/"
FILES = {
    J + "util/Strings.java": """package com.acme.util;

public final class Strings {
    public static String pad(String s, int n) { return s; }
}
""",
    J + "model/Address.java": """package com.acme.model;

public class Address {
    private final String code;
    public Address(String code) { this.code = code; }
    public String getCode() {
        return code;
    }
}
""",
    K + "order/OrderService.kt": """package com.acme.order

import com.acme.model.Address
import com.acme.util.Strings

class OrderService(private val limit: Int) {
    fun build(address: Address): Request {
        val request = Request(address.code)
        return request
    }

    fun total(): Int = limit
}

class Request(val code: String)
""",
    K + "order/Text.kt": """package com.acme.order

fun slugOf(value: String): String {
    return value.lowercase()
}
""",
    J + "order/Caller.java": """package com.acme.order;

import com.acme.model.Address;

class Caller {
    String run(Address a) {
        Request r = new OrderService(3).build(a);
        return r.getCode();
    }
}
""",
    J + "mapper/OrderMapper.java": """package com.acme.mapper;

public interface OrderMapper {
    Order findById(long id);
    int deleteById(long id);
}
""",
    J + "mapper/Order.java": """package com.acme.mapper;

public class Order {
    private long id;
}
""",
    J + "mapper/OrderQueries.java": """package com.acme.mapper;

public class OrderQueries {
    private final OrderMapper orderMapper;
    OrderQueries(OrderMapper orderMapper) { this.orderMapper = orderMapper; }
    public Order find(long id) {
        return orderMapper.findById(id);
    }
}
""",
    "src/main/resources/mapper/OrderMapper.xml": """<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE mapper PUBLIC "-//mybatis.org//DTD Mapper 3.0//EN" "http://mybatis.org/dtd/mybatis-3-mapper.dtd">
<mapper namespace="com.acme.mapper.OrderMapper">
  <sql id="cols">id, status, total</sql>
  <select id="findById" resultType="com.acme.mapper.Order">
    select <include refid="cols"/> from orders where id = #{id}
  </select>
  <delete id="deleteById">
    delete from orders where id = #{id}
  </delete>
</mapper>
""",
    "src/main/resources/application.yml": """app:
  mail:
    host: smtp.example.com
    port: 25
server:
  port: 8080
""",
    "src/main/resources/application.properties": "app.retry-count=3\n",
    J + "mail/Mailer.java": """package com.acme.mail;

import org.springframework.beans.factory.annotation.Value;

public class Mailer {
    @Value("${app.mail.host}")
    private String host;

    @Value("${app.retryCount:1}")
    private int retries;

    public String target() {
        return host;
    }
}
""",
    K + "mail/MailProperties.kt": """package com.acme.mail

import org.springframework.boot.context.properties.ConfigurationProperties

@ConfigurationProperties(prefix = "app.mail")
class MailProperties {
    var host: String = ""
    var port: Int = 0
}
""",
    "tools/pkg/__init__.py": "",
    "tools/pkg/util.py": '''def helper(value, width=4):
    """Pad a value."""
    return str(value).rjust(width)
''',
    "tools/pkg/models.py": '''class Base:
    def describe(self):
        return "base"


class Order(Base):
    def __init__(self, total):
        self.total = total

    def with_tax(self, rate=0.2):
        return self.total * (1 + rate)
''',
    "tools/pkg/service.py": '''from pkg.models import Order
from pkg.util import helper


def report(total):
    order = Order(total)
    return helper(order.with_tax())
''',
}


def _change(repo, files: dict[str, str]):
    base = repo.commit("base", FILES)
    head = repo.commit("change", files)
    diff = repo.git("diff", base, head).encode()
    settings = load_settings(None)
    changes = ingest(diff, settings)
    read = lambda p: (repo.root / p).read_bytes() if (repo.root / p).is_file() else None
    plan = chunk_changes(changes, estimator=get_estimator("fast"), config=settings.chunking, read_file=read)
    return base, plan.chunks, read


def _both(repo, tmp_path, files: dict[str, str]) -> list[set[tuple[str, str]]]:
    """(relation, qualified name) found from the checkout and from the index built at the base."""
    base, chunks, read = _change(repo, files)
    out = [set().union(*({(i.relation, i.symbol.qualified_name) for i in CodeRetriever(
        RepoGraph.from_checkout(repo.root), read_file=read).retrieve(c)} for c in chunks))]
    with open_code_store(tmp_path / "store") as cs:
        index_repository(repo.root, cs, name="fx", ref=base)
        out.append(set().union(*({(i.relation, i.symbol.qualified_name) for i in CodeRetriever(
            StoreGraph(cs, "fx"), read_file=read).retrieve(c)} for c in chunks)))
    return out


def _edit(path: str, old: str, new: str) -> dict[str, str]:
    assert old in FILES[path]
    return {path: FILES[path].replace(old, new)}


# ------------------------------------------------------------------------------------ readers


def test_readers_recognise_and_name_symbols():
    assert symbol_language(K + "order/OrderService.kt") == "kotlin"
    assert symbol_language("tools/pkg/util.py") == "python"
    assert symbol_language("src/main/resources/application.yml") == "spring"
    assert symbol_language("src/main/resources/mapper/OrderMapper.xml") is None  # by content only
    assert symbol_candidate("src/main/resources/mapper/OrderMapper.xml")
    mapper = parse_source("src/main/resources/mapper/OrderMapper.xml",
                          FILES["src/main/resources/mapper/OrderMapper.xml"].encode())
    assert mapper.language == "mybatis"
    by = {s.qualified_name: s for s in mapper.symbols}
    assert by["com.acme.mapper.OrderMapper.findById"].kind == "select"
    assert by["com.acme.mapper.OrderMapper.findById"].refs == ["sql:com.acme.mapper.OrderMapper.cols"]
    kt = parse_source(K + "order/Text.kt", FILES[K + "order/Text.kt"].encode())
    names = {s.qualified_name: s for s in code_symbols(kt, lambda q: False, repository="r")}
    assert names["com.acme.order.slugOf(String)"].kind == "function"
    assert names["com.acme.order.TextKt"].kind == "facade"  # what Java calls top-level functions through
    py = parse_source("tools/pkg/models.py", FILES["tools/pkg/models.py"].encode())
    names = {s.qualified_name: s for s in code_symbols(py, lambda q: False, repository="r")}
    assert names["tools.pkg.models"].kind == "module" and names["tools.pkg.models.Order"].supertypes
    assert names["tools.pkg.models.Order.with_tax(rate)"].params == ["rate="]
    cfg = parse_source("src/main/resources/application.yml", FILES["src/main/resources/application.yml"].encode())
    keys = {s.qualified_name: s for s in cfg.symbols}
    assert "config-key:app.mail.host" in keys["app.mail.host"].refs and keys["app.mail"].kind == "config-section"
    mailer = parse_source(J + "mail/Mailer.java", FILES[J + "mail/Mailer.java"].encode())
    fields = {s.name: s for s in code_symbols(mailer, lambda q: False, repository="r") if s.kind == "field"}
    assert fields["host"].refs == ["config:app.mail.host"] and fields["retries"].refs == ["config:app.retrycount"]


def test_index_reads_every_pack(repo, tmp_path):
    repo.commit("base", FILES)
    with open_code_store(tmp_path / "store") as cs:
        report = index_repository(repo.root, cs, name="fx")
        languages = {s.language for s in cs.symbols("fx") if s.kind != "file"}
        assert languages == {"java", "kotlin", "python", "mybatis", "spring"}
        assert cs.find("fx", qualified=["com.acme.mapper.OrderMapper.findById"])[0].language == "mybatis"
    assert not report.notes


# ------------------------------------------------------------------------------------ Kotlin <-> Java


def test_kotlin_calling_java(repo, tmp_path):
    change = _edit(K + "order/OrderService.kt", "        val request = Request(address.code)\n",
                   "        val request = Request(Strings.pad(address.code, 8))\n")
    for rels in _both(repo, tmp_path, change):
        assert ("definition", "com.acme.util.Strings.pad(String,int)") in rels
        assert ("definition", "com.acme.model.Address.getCode()") in rels  # a property read of a Java getter
        assert ("definition", "com.acme.order.Request.Request(String)") in rels  # a Kotlin constructor


def test_java_calling_kotlin(repo, tmp_path):
    change = _edit(J + "order/Caller.java", "        return r.getCode();\n",
                   "        return TextKt.slugOf(r.getCode());\n")
    for rels in _both(repo, tmp_path, change):
        assert ("definition", "com.acme.order.slugOf(String)") in rels  # through the file facade
        assert ("definition", "com.acme.order.Request.code") in rels  # getCode() of a Kotlin `val code`
    change = _edit(J + "order/Caller.java", "new OrderService(3).build(a)", "new OrderService(4).build(a)")
    for rels in _both(repo, tmp_path, change):
        assert ("definition", "com.acme.order.OrderService.build(Address)") in rels
        assert ("definition", "com.acme.order.OrderService.OrderService(Int)") in rels


def test_callers_across_languages(repo, tmp_path):
    change = _edit(K + "order/OrderService.kt", "        return request\n", "        return request // built\n")
    for rels in _both(repo, tmp_path, change):
        assert ("caller", "com.acme.order.Caller.run(Address)") in rels


# ------------------------------------------------------------------------------------ MyBatis


def test_java_call_of_a_mapper_method_brings_its_sql(repo, tmp_path):
    change = _edit(J + "mapper/OrderQueries.java", "        return orderMapper.findById(id);\n",
                   "        return orderMapper.findById(id + 0);\n")
    for rels in _both(repo, tmp_path, change):
        assert ("definition", "com.acme.mapper.OrderMapper.findById(long)") in rels
        assert ("definition", "com.acme.mapper.OrderMapper.findById") in rels  # the <select>


def test_changed_statement_finds_its_interface_method_and_callers(repo, tmp_path):
    change = _edit("src/main/resources/mapper/OrderMapper.xml", "from orders where id = #{id}\n  </select>",
                   "from orders where id = #{id} and deleted = 0\n  </select>")
    for rels in _both(repo, tmp_path, change):
        assert ("mapper", "com.acme.mapper.OrderMapper.findById(long)") in rels
        assert ("definition", "com.acme.mapper.OrderMapper.cols") in rels  # <include refid="cols"/>
        assert ("caller", "com.acme.mapper.OrderQueries.find(long)") in rels


def test_changed_interface_method_finds_its_statement(repo, tmp_path):
    change = _edit(J + "mapper/OrderMapper.java", "    int deleteById(long id);\n",
                   "    int deleteById(long id); // soft delete\n")
    for rels in _both(repo, tmp_path, change):
        assert ("mapper", "com.acme.mapper.OrderMapper.deleteById") in rels


# ------------------------------------------------------------------------------------ Spring


def test_value_and_configuration_properties_find_their_keys(repo, tmp_path):
    change = _edit(K + "mail/MailProperties.kt", "    var port: Int = 0\n", "    var port: Int = 25\n")
    change[J + "mail/Mailer.java"] = FILES[J + "mail/Mailer.java"].replace("return host;", "return host.trim();")
    for rels in _both(repo, tmp_path, change):
        assert ("definition", "com.acme.mail.Mailer.host") in rels
        assert ("definition", "app.mail.host") in rels  # the key the field a changed line reads is bound to
        assert ("definition", "app.mail.port") in rels  # a property of @ConfigurationProperties(prefix = "app.mail")
    change = _edit(J + "mail/Mailer.java", "private int retries;", "private int retries = 2;")
    for rels in _both(repo, tmp_path, change):
        assert ("definition", "app.retry-count") in rels  # @Value("${app.retryCount:1}"): relaxed binding


def test_changed_key_finds_the_code_reading_it(repo, tmp_path):
    change = {"src/main/resources/application.yml": FILES["src/main/resources/application.yml"].replace(
        "host: smtp.example.com", "host: smtp2.example.com"),
        "src/main/resources/application.properties": "app.retry-count=5\n"}
    for rels in _both(repo, tmp_path, change):
        assert ("config", "com.acme.mail.Mailer.host") in rels
        assert ("config", "com.acme.mail.MailProperties") in rels  # binds app.mail.*
        assert ("config", "com.acme.mail.Mailer.retries") in rels  # relaxed binding: retry-count = retryCount


# ------------------------------------------------------------------------------------ Python


def test_python_definitions_and_callers(repo, tmp_path):
    change = _edit("tools/pkg/service.py", "    return helper(order.with_tax())\n",
                   "    return helper(order.with_tax(0.1), 6)\n")
    for rels in _both(repo, tmp_path, change):
        assert ("definition", "tools.pkg.util.helper(value,width)") in rels
        assert ("definition", "tools.pkg.models.Order.with_tax(rate)") in rels  # a local's type from `Order(...)`
    change = _edit("tools/pkg/models.py", "        return self.total * (1 + rate)\n",
                   "        return round(self.total * (1 + rate), 2)\n")
    for rels in _both(repo, tmp_path, change):
        assert ("caller", "tools.pkg.service.report(total)") in rels


def test_reindex_reads_again_only_when_the_readers_changed(repo, tmp_path, monkeypatch):
    repo.commit("base", FILES)
    with open_code_store(tmp_path / "store") as cs:
        first = index_repository(repo.root, cs, name="fx")
        again = index_repository(repo.root, cs, name="fx")
        assert again.parsed == 0 and again.written == 0
        monkeypatch.setattr(indexers.code, "READERS_VERSION", "test")
        newer = index_repository(repo.root, cs, name="fx")
        assert newer.parsed == first.parsed and newer.written == 0  # read again, nothing changed
        assert cs.readers("fx") == "test"
