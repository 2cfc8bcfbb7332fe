"""Code constructs and their common names, in English and Chinese: the bridge from code to prose.

Rule documents talk about code in prose ("do not return inside a finally block",
"不要在 finally 块中使用 return"); changed code only shows the construct. Each entry here
recognises one construct in code with a regular expression and names it the way a Java textbook
would: "finally block", "string concatenation", "thread pool", "enum", "class name". The names
are deliberately generic. An entry never carries a guideline's verdict or its remedy (no
"use StringBuilder", no "ThreadPoolExecutor", no "System.currentTimeMillis"): words like those
matched the rules this table was first written against and nothing else, which is how the
previous, guideline-flavoured table reached recall@5 0.90 on the dev rules of a guideline and
0.30 on its held-out rules. What a rule says about a construct is left to the rule's own words,
which the code channels (raw code to the embedder, code words to BM25) reach directly.

Constructs that appear in nearly every snippet (plain method calls, getters used, collections
modified) are left out: naming them in every query drowns the specific ones.
See evaluation/retrieval/rules.py --split for the measurement.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from dualrag.languages import pack_for


@dataclass(frozen=True)
class Concept:
    name: str
    pattern: re.Pattern[str]
    terms: str


def _c(name: str, pattern: str, terms: str, flags: int = 0) -> Concept:
    return Concept(name, re.compile(pattern, flags | re.MULTILINE), terms)


_DATE_FIELD = r"(?:[yY]{2,4}|MM|dd|DD|HH|hh|mm|ss)"
_TYPE = r"\w+(?:<[^;{}\n]*?>)?(?:\[\])*"  # one type, generics and arrays included, no spaces to backtrack over
_ANNOTATIONS = r"(?:@\w+(?:\([^)\n]*\))?\s*)*"
_MODIFIERS = r"(?:(?:static|final|abstract|sealed|synchronized|default)\s+)*"

JAVA_CONCEPTS: tuple[Concept, ...] = (
    # names that break Java's own conventions
    _c("type-name", r"\b(?:class|interface|enum|record)\s+(?:[a-z_$]\w*|\w*_\w*)",
       "class name naming style 类名 命名 风格"),
    _c("member-name", r"\b(?:int|long|String|boolean|double|float|char|byte|short|[A-Z]\w*(?:<[^>\n]*>)?)\s+"
       r"(?:[A-Z][a-z]\w*|[a-z]\w*[A-Z]{2,}\w*|[a-z]+_\w+|[_$]\w+)\s*[=;(,)]",
       "variable method parameter name naming style 变量 方法名 参数名 命名 风格"),
    _c("constant-name", rf"\bstatic\s+final\s+{_TYPE}\s+(?!serialVersionUID\b)[a-z]\w*\s*=",
       "constant name naming 常量 命名"),
    _c("package-name", r"^\s*package\s+[\w.]*[A-Z_]", "package name naming 包名 命名"),
    # literals
    _c("long-literal", r"\b\d+[lL]\b", "long literal 长整型 long 数值"),
    _c("float-literal", r"\b\d+(?:\.\d+)?[fFdD]\b", "float double literal 浮点数 数值"),
    _c("magic-number", r"(?:[<>]=?|[!=]=)\s*-?\d{2,}\b|[(,\[]\s*-?\d{3,}(?:\.\d+)?[lLfFdD]?\s*[,)\]]",
       "magic number literal 魔法值 常量"),
    # control flow
    _c("braceless-body", r"^\s*(?:if|else\s+if|for|while)\s*\(.*\)\s*[^\s{;][^;\n{}]*;\s*(?://.*)?$"
       r"|^\s*else\s*(?://.*)?$|^\s*else\s+[^\s{i][^;\n]*;",
       "if else for while statement braces 语句 大括号"),
    _c("statements-per-line", r"^(?![^\n]*\bfor\s*\()[^\n;]*;[ \t]*(?![ \t]*(?://|/\*|\}))[^\s;][^;\n]*;"
       rf"|^[ \t]*(?:(?:private|protected|public|static|final)\s+)*{_TYPE}\s+[a-z_]\w*(?:\s*=\s*[^;\n]*?)?"
       r",\s*[a-z_]\w*\s*(?:=[^;\n]*)?;",
       "several statements or variable declarations on one line 一行 多个 语句 变量 声明"),
    _c("switch", r"\bswitch\s*\(", "switch case default statement switch 语句"),
    _c("ternary", r"\?[^:;\n]+:", "ternary conditional operator 三目运算符"),
    _c("negation", r"!\s*\(|!\s*\w+\.\w+\(", "negation logical operator 取反 逻辑 运算符"),
    _c("loop", r"\b(?:for|while)\s*\(|\bdo\s*\{", "loop 循环 循环体"),
    _c("foreach-modify", r"for\s*\([^)]*:[^)]*\)[\s\S]{0,200}?\.(?:remove|add)\s*\(",
       "foreach loop element remove add 循环 元素 删除 添加"),
    # strings, objects and equality
    _c("string-concat", r"\"\s*\+\s*\w|\w\s*\+\s*\"|\+=\s*\"|\b\w+\s*=\s*\w+\s*\+\s*\"",
       "string concatenation 字符串 拼接 连接"),
    _c("equals", r"\.equals\s*\(", "equals comparison 比较 equals"),
    _c("reference-compare", r"\b(?:Integer|Long|Short|Byte|Character|String|Boolean)\b[^;\n]*[!=]=(?!\s*null)"
       r"|[!=]=\s*\"|\"\s*[!=]=",
       "== comparison wrapper object 比较 包装类 对象"),
    _c("float-compare", r"\b(?:double|float|Double|Float)\b[^;\n]*[!=]=|\d\.\d+[fFdD]?\s*[!=]=",
       "floating point comparison 浮点数 比较"),
    _c("data-class", r"\bclass\s+\w*(?:DO|DTO|VO|BO|PO|Entity|Query)\b"
       rf"|\bprivate\s+(?!static\b){_TYPE}\s+\w+\s*;[\s\S]{{0,400}}?\bprivate\s+(?!static\b){_TYPE}\s+\w+\s*;",
       "POJO data object class fields properties 类 属性"),
    _c("primitive-field", r"^\s*private\s+(?:int|long|boolean|double|float|short|byte|char)\s+\w+\s*[;=]",
       "primitive type field 基本数据类型 属性"),
    _c("accessor", rf"^\s*public\s+{_TYPE}\s+(?:get|set|is)[A-Z]\w*\s*\([^)]*\)\s*\{{",
       "getter setter method 方法"),
    _c("override", r"@Override|\bpublic\s+(?:boolean\s+equals|int\s+hashCode|String\s+toString)\s*\(",
       "override method 覆写 方法"),
    _c("static-field", rf"^\s*(?:private|protected|public)?\s*static\s+(?!final\b){_TYPE}\s+\w+\s*[;=]",
       "static variable field 静态 变量"),
    _c("constructor-decimal", r"\bnew\s+[A-Z]\w*\s*\(\s*-?\d+\.\d+\s*\)",
       "constructor floating point argument 构造方法 浮点数"),
    _c("clone", r"\.clone\s*\(", "clone copy object 拷贝 对象"),
    _c("varargs", r"\.\.\.\s*\w+\s*\)", "varargs variable arguments 可变参数"),
    _c("serializable", r"\bSerializable\b|serialVersionUID", "serialization 序列化"),
    _c("deprecated", r"@Deprecated", "deprecated 过时"),
    _c("cast", r"\(\s*(?:[A-Z]\w*(?:<[^>\n]*>)?|int|long|double|float)\s*\)\s*\w", "type cast 类型 强制转换"),
    _c("generic-wildcard", r"<\?\s*(?:extends|super)\b", "generic wildcard 泛型 通配符"),
    # date and time
    _c("date-time", r"\b(?:Date|Calendar|SimpleDateFormat|LocalDate|LocalDateTime|Instant|DateTimeFormatter)\b",
       "date time 日期 时间"),
    _c("date-pattern", rf"\"[^\"\n]*\b{_DATE_FIELD}[-/:. ]+{_DATE_FIELD}\b", "date format pattern 日期 格式 格式化"),
    _c("milliseconds", r"\.getTime\s*\(\)|currentTimeMillis|nanoTime", "milliseconds current time 毫秒 当前 时间"),
    # collections
    _c("collection-new", r"new\s+(?:HashMap|HashSet|ArrayList|LinkedList|LinkedHashMap|TreeMap|ConcurrentHashMap"
       r"|LinkedHashSet)\b", "collection creation initialization 集合 初始化"),
    _c("array-to-list", r"\bArrays\.asList\s*\(", "array to list conversion 数组 转换 集合"),
    _c("collection-view", r"\.subList\s*\(|\.keySet\s*\(|\.values\s*\(|\.entrySet\s*\(", "collection view 集合 视图"),
    _c("to-array", r"\.toArray\s*\(", "collection to array 集合 转 数组"),
    _c("empty-check", r"\.size\(\)\s*[=!><]=?\s*0|\.isEmpty\s*\(", "collection empty size 集合 空"),
    # concurrency
    _c("thread-pool", r"\bExecutors?\b|\bExecutorService\b|\bThreadPoolExecutor\b", "thread pool 线程池 创建"),
    _c("thread", r"\bnew\s+Thread\s*\(|\bRunnable\b|\bCallable\b|extends\s+Thread\b", "thread creation 线程 创建"),
    _c("lock", r"\bsynchronized\b|\bLock\b|\.lock\s*\(|\.tryLock\s*\(", "lock synchronized 锁 同步"),
    _c("volatile", r"\bvolatile\b", "volatile multi-thread visibility 多线程"),
    _c("thread-coordination", r"\b(?:CountDownLatch|CyclicBarrier|Semaphore|Phaser)\b|\.await\s*\(",
       "thread synchronization 线程 同步 等待"),
    _c("thread-local", r"\bThreadLocal\b", "thread local variable 线程 变量"),
    _c("random", r"\bRandom\b|Math\.random", "random number 随机数"),
    _c("timer", r"\bTimer\b|\bTimerTask\b|\bScheduled\w*", "timer scheduled task 定时任务"),
    # exceptions and resources
    _c("try-catch", r"\bcatch\s*\(", "try catch exception 异常 捕获"),
    _c("finally", r"\bfinally\s*\{", "finally block try finally 块"),
    _c("return-in-finally", r"finally\s*\{[\s\S]{0,300}?\breturn\b", "return in finally block return finally 块"),
    _c("empty-catch", r"catch\s*\([^)]*\)\s*\{\s*\}", "empty catch exception handling 异常 处理"),
    _c("throw", r"\bthrow\s+new\b", "throw exception 抛出 异常"),
    _c("stack-trace", r"\.printStackTrace\s*\(", "printStackTrace exception stack 异常 堆栈"),
    _c("null-check", r"[!=]=\s*null\b|\bnull\s*[!=]=", "null check 判空 null"),
    _c("resource", r"\b(?:InputStream|OutputStream|Reader|Writer|Connection|Statement|ResultSet|Socket)\b",
       "resource stream close 资源 流 关闭"),
    _c("transaction", r"@Transactional", "transaction 事务"),
    # logging and output
    _c("logging", r"\b(?:log|logger|LOG|LOGGER)\s*\.\s*(?:debug|info|warn|error|trace)\s*\(", "log logging 日志 输出"),
    _c("console-output", r"System\.(?:out|err)\.print", "console output System.out 输出"),
    # comments and the declarations that carry them
    _c("abstract-method", rf"\babstract\s+{_TYPE}\s+\w+\s*\([^)]*\)[^{{;]*;|^\s*(?:public\s+)?interface\b",
       "abstract method interface method 抽象方法 接口 方法"),
    _c("enum", r"\benum\s+\w+", "enum constants 枚举 字段"),
    _c("javadoc", r"/\*\*", "Javadoc comment 注释"),
    # what is missing is a construct too: a public type whose line before (in the snippet, annotations
    # skipped) ends an import or a member instead of a comment has no header comment. Public methods
    # without one are not named: that fired on 35 of the 132 snippets of our own rule book, more
    # than any construct here, and named in nearly every query it drowns the specific ones.
    _c("undocumented-type", rf"[;}}][ \t]*\n\s*{_ANNOTATIONS}public\s+{_MODIFIERS}(?:class|interface|enum|record)\b",
       "class without a header comment, class Javadoc comment missing 类 注释"),
    _c("line-comment", r"(?<!:)//.*\S", "comment 注释"),
    _c("commented-out-code", r"^[ \t]*//.*(?:;|\{|\})[ \t]*$|/\*(?!\*)(?:(?!\*/)[\s\S])*?;[ \t]*\n",
       "commented-out code, statements inside a comment 注释 代码"),
    _c("trailing-comment", r"[;{}][ \t]*(?://|/\*)", "comment at the end of a line of code 行尾 注释"),
    _c("todo", r"\b(?:TODO|FIXME)\b", "TODO FIXME mark 标记"),
    # SQL, input and outside calls
    _c("sql", r"\"\s*(?:SELECT|UPDATE|DELETE|INSERT)\b", "SQL statement 语句 SQL", re.IGNORECASE),
    _c("sql-concat", r"\"\s*(?:SELECT|UPDATE|DELETE|INSERT)\b[^;]*\"\s*\+\s*\w", "SQL string concatenation SQL 拼接",
       re.IGNORECASE),
    _c("mybatis-placeholder", r"\$\{", "MyBatis ${} placeholder SQL 参数"),
    _c("secret-literal", r"(?:password|passwd|secret|token|apikey|api_key|accessKey)\w*\s*=\s*\"[^\"]+\"",
       "password secret credential literal 密码 密钥", re.IGNORECASE),
    _c("process", r"Runtime\.getRuntime\(\)\.exec|ProcessBuilder", "shell command process 命令 执行"),
    _c("file-path", r"new\s+File\s*\(|Paths\.get\s*\(|Path\.of\s*\(", "file path 文件 路径"),
    _c("xml-parser", r"DocumentBuilderFactory|SAXParserFactory|XMLInputFactory", "XML parser XML 解析"),
    _c("deserialization", r"ObjectInputStream|readObject\s*\(", "deserialization 反序列化"),
    _c("request-input", r"\b(?:request|req)\.get(?:Parameter|Header)\s*\(",
       "request parameter user input 请求 参数 输入"),
    _c("redirect", r"sendRedirect|redirect:", "redirect URL 重定向"),
    _c("regex", r"Pattern\.compile\s*\(|\.matches\s*\(|\.replaceAll\s*\(", "regular expression 正则表达式"),
    _c("reflection", r"\.getDeclared\w*\(|setAccessible\s*\(|\bBeanUtils\b", "reflection property copy 反射 属性"),
    _c("http-call", r"\b(?:RestTemplate|HttpClient|WebClient|OkHttpClient|HttpURLConnection|Feign\w*)\b",
       "HTTP call remote 调用 接口 远程"),
)

EDI_CONCEPTS: tuple[Concept, ...] = (
    _c("edi-expression", r"\bexpr\s*=", "expression computed value literal constant 表达式 常量 固定值"),
    _c("edi-literal", r"\bvalue\s*=", "literal constant fixed code 常量 固定值"),
    _c("edi-ack", r"<\s*acknowledg|\b(?:997|999|CONTRL)\b", "acknowledgement 997 999 CONTRL 回执 确认"),
    _c("edi-date", r"\b(?:DTM|DT|date)\b|yyyy|CCYY", "date format CCYYMMDD 日期 格式"),
    _c("edi-control", r"\b(?:ISA13|GS06|ST02|UNB|UNH|control)\b", "control number interchange group 控制号"),
    _c("edi-count", r"\b(?:SE01|CNT|segmentCount|UNT)\b", "segment count trailer 段 数量"),
    _c("edi-charset", r"\bcharset\s*=|encoding\s*=", "charset encoding 字符集 编码"),
    _c("edi-codelist", r"\bcodeList\s*=|qualifier", "code list qualifier 代码表 限定符"),
    _c("edi-length", r"\bmaxLength\s*=|\bminLength\s*=|\btype\s*=", "length data type AN N0 R 长度 类型"),
    _c("edi-mandatory", r"\busage\s*=|\bmandatory\b|\brequired\b", "mandatory segment element usage 必填 段 元素"),
    _c("edi-retry", r"\bretries\s*=|deadLetter|onError", "retry dead letter error handling 重试 错误 处理"),
    _c("edi-partner", r"\bpartner\s*=|ISA0[5-8]|sender|receiver", "partner identifier qualifier 伙伴 标识"),
)


_TABLES = {"java": JAVA_CONCEPTS, "edi": EDI_CONCEPTS}


def concepts_for(language: str) -> tuple[Concept, ...]:
    """The construct vocabulary the language's pack names: a built-in table ("java", "edi") or
    the pack's own (name, regex, terms) triples; Java's for a language without a pack."""
    pack = pack_for(language)
    table = pack.concepts if pack is not None else None
    if table is None or isinstance(table, str):
        return _TABLES.get(table or "java", JAVA_CONCEPTS)
    return _pack_concepts(tuple(tuple(t) for t in table))


@lru_cache(maxsize=64)
def _pack_concepts(triples: tuple[tuple[str, str, str], ...]) -> tuple[Concept, ...]:
    return tuple(_c(name, pattern, terms) for name, pattern, terms in triples)


def matching_terms(code: str, language: str) -> list[tuple[str, str]]:
    """(concept name, terms) for each construct the code shows."""
    return [(c.name, c.terms) for c in concepts_for(language) if c.pattern.search(code)]
