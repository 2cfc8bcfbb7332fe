"""Code constructs and the words rule documents use for them, in English and Chinese.

Rule documents talk about code in prose ("do not return inside a finally block",
"不要在 finally 块中使用 return"); changed code only shows the construct. Each entry
here recognises one construct in code with a regular expression and names it with the
terms a guideline would use, so the sparse (BM25) query meets the rule's own words.
The table is ours: written from general Java, SQL and EDI review practice, covering the
usual chapters of a coding guideline (naming, constants, formatting, OOP, date/time,
collections, concurrency, control flow, comments, exceptions, logging, SQL/ORM, security,
third-party calls, EDI mappings), not any one document's item list.
"""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class Concept:
    name: str
    pattern: re.Pattern[str]
    terms: str


def _c(name: str, pattern: str, terms: str, flags: int = 0) -> Concept:
    return Concept(name, re.compile(pattern, flags | re.MULTILINE), terms)


JAVA_CONCEPTS: tuple[Concept, ...] = (
    # naming and constants
    _c("class-naming", r"\b(?:class|interface|enum|record)\s+(?:[a-z_]\w*|\w*_\w*)\b",
       "class name naming UpperCamelCase 类名 命名 驼峰 风格"),
    _c("member-naming", r"\b(?:int|long|String|boolean|double|float|[A-Z]\w*(?:<[^>]*>)?)\s+"
       r"(?:[A-Z][a-z]\w*|[a-z]+_[a-z_]+)\s*[=;(,)]",
       "method parameter member variable local variable name lowerCamelCase 方法名 参数名 成员变量 局部变量 驼峰 命名"),
    _c("constant-naming", r"\bstatic\s+final\s+[\w<>\[\], ]+\s+[a-z]\w*\s*=",
       "constant name upper case underscore 常量 命名 全部大写 下划线"),
    _c("package-naming", r"^\s*package\s+[\w.]*[A-Z_]",
       "package name lower case dot 包名 小写 点分隔符 单数"),
    _c("abbreviation", r"\b[a-z]+(?:Str|Obj|Mgr|Cnt|Num)\b", "abbreviation naming 缩写 命名"),
    _c("magic-number", r"[=<>]\s*-?\d{2,}[^\w.]", "magic number constant 魔法值 常量 定义"),
    _c("long-literal", r"\b\d+l\b", "long Long literal upper case L 赋值 数值 大写 L 小写 l 数字 1 混淆"),
    # formatting and control flow
    _c("if-without-braces", r"^\s*(?:if|else\s+if|for|while)\s*\(.*\)\s*[^\s{][^;]*;\s*$|^\s*else\s+[^\s{i][^;]*;",
       "if else for while do braces block 大括号 单行 控制语句"),
    _c("switch", r"\bswitch\s*\(", "switch case break default fall through 控制语句 switch default"),
    _c("ternary", r"\?[^:;]+:", "ternary operator null unboxing 三目运算符 自动拆箱 NPE"),
    _c("nested-if", r"(?:^\s*if\b.*\n){2}", "nested if else guard clause 卫语句 if-else 嵌套 层"),
    _c("negation", r"!\s*\w+\.(?:isEmpty|equals|contains)\(", "negative logic condition 取反 逻辑 判断"),
    # OOP and equality
    _c("equals-call", r"\.equals\(", "equals null constant object Objects.equals 常量 确定值 调用 equals"),
    _c("boxed-compare", r"\b(?:Integer|Long|Short|Byte|Character)\b[^;]*==|==\s*\w+\.(?:get|value)\w*\(",
       "wrapper class equals compare == Integer cache 包装类 整型 比较 equals"),
    _c("float-compare", r"\b(?:double|float)\b[^;]*==|\d\.\d+[fFdD]?\s*==",
       "floating point equality compare BigDecimal 浮点数 等值判断 精度"),
    _c("bigdecimal-double", r"new\s+BigDecimal\s*\(\s*(?:-?\d+\.\d*|[a-z]\w*)\s*\)",
       "BigDecimal double constructor precision valueOf 构造方法 精度 丢失 BigDecimal(double)"),
    _c("bigdecimal-equals", r"BigDecimal[\s\S]{0,200}\.equals\(", "BigDecimal equals compareTo scale 比较 精度"),
    _c("tostring", r"\bclass\s+\w+(?:DO|DTO|VO|BO|Entity|Model|Request|Response|Bean)?\b[\s\S]*?\bprivate\s+\w",
       "POJO DO DTO VO toString class property 类 toString 属性 POJO"),
    _c("pojo-primitive", r"private\s+(?:int|long|boolean|double)\s+\w+;",
       "POJO primitive wrapper type default value 基本数据类型 包装数据类型 属性"),
    _c("getter-setter", r"\b(?:get|set|is)[A-Z]\w*\s*\(", "getter setter POJO business logic 方法 属性"),
    _c("serializable", r"\bSerializable\b|serialVersionUID", "serialVersionUID serializable 序列化 字段"),
    _c("override", r"@Override", "override annotation 覆写 @Override 注解"),
    _c("varargs", r"\.\.\.\s*\w+\s*\)", "varargs Object 可变参数"),
    _c("deprecated", r"@Deprecated", "deprecated obsolete interface 过时 接口"),
    _c("clone", r"\.clone\(\)", "clone shallow copy 浅拷贝 clone 对象"),
    _c("string-split", r"\.split\(", "split array index check 字符串 分隔 数组 越界"),
    _c("string-concat-loop", r"(?:for|while)\s*\([\s\S]{0,300}?\+=\s*|(?:for|while)\s*\([\s\S]{0,300}?\w+\s*=\s*\w+\s*\+\s*\"",
       "loop string concatenation StringBuilder append 循环体 字符串 连接 拼接 StringBuilder"),
    _c("final", r"\bfinal\s+class\b", "final class method 继承 final"),
    # date and time
    _c("date-pattern", r"\"[^\"]*(?:yyyy|YYYY|MM|dd|DD|HH|hh|mm|ss)[^\"]*\"",
       "date format pattern year yyyy month MM hour HH 日期 格式化 年份 大写 小写 pattern"),
    _c("simpledateformat", r"\bSimpleDateFormat\b",
       "SimpleDateFormat thread safe static DateTimeFormatter 线程不安全 static 日期 格式化"),
    _c("new-date-gettime", r"new\s+Date\s*\(\s*\)\s*\.getTime\(\)|System\.currentTimeMillis",
       "current milliseconds System.currentTimeMillis new Date().getTime 获取 当前 毫秒数"),
    _c("sql-date", r"java\.sql\.(?:Date|Time|Timestamp)", "java.sql.Date Timestamp 时间 日期"),
    _c("calendar", r"\bCalendar\b|\b365\b", "Calendar year days leap year month 闰年 月份 天数 365"),
    _c("localdatetime", r"\bLocalDate(?:Time)?\b|\bInstant\b|\bZoneId\b", "java.time LocalDate Instant 时区 日期"),
    # collections
    _c("collection-capacity", r"new\s+(?:HashMap|HashSet|ArrayList|LinkedHashMap|ConcurrentHashMap)\s*<[^>]*>\s*\(\s*\)",
       "collection initial capacity HashMap ArrayList initialCapacity 集合 初始化 指定 初始值 大小 扩容"),
    _c("arrays-aslist", r"Arrays\.asList\s*\(",
       "Arrays.asList add remove clear UnsupportedOperationException 工具类 数组 转换 集合 修改"),
    _c("sublist", r"\.subList\s*\(", "subList ArrayList ClassCastException 视图 子列表"),
    _c("toarray", r"\.toArray\s*\(", "toArray array size 集合 转 数组"),
    _c("foreach-remove", r"for\s*\([^)]*:[^)]*\)[\s\S]{0,200}?\.(?:remove|add)\s*\(",
       "foreach remove add Iterator ConcurrentModificationException 循环 元素 删除 迭代器"),
    _c("map-iteration", r"\.keySet\(\)", "Map keySet entrySet iteration 遍历 entrySet"),
    _c("size-zero", r"\.size\(\)\s*==\s*0", "isEmpty size collection empty 集合 空 isEmpty"),
    _c("tomap", r"Collectors\.toMap\s*\(", "Collectors.toMap mergeFunction duplicate key null value 重复 key"),
    _c("generic-wildcard", r"<\?\s*(?:extends|super)\b", "generic wildcard extends super 泛型 通配符 PECS"),
    _c("hashcode-equals", r"\bhashCode\s*\(|\bequals\s*\(\s*Object\b",
       "hashCode equals override Set Map key 覆写 hashCode equals"),
    # concurrency
    _c("executors", r"\bExecutors\s*\.\s*new\w*",
       "thread pool Executors ThreadPoolExecutor OOM queue 线程池 Executors ThreadPoolExecutor 资源耗尽"),
    _c("new-thread", r"new\s+Thread\s*\(", "thread creation pool name 线程 线程池 显式创建 名称"),
    _c("countdownlatch", r"\bCountDownLatch\b|\.countDown\(\)",
       "CountDownLatch countDown finally await 线程 同步 子线程 异常 finally"),
    _c("threadlocal", r"\bThreadLocal\b", "ThreadLocal remove memory leak 回收 内存泄漏 try-finally"),
    _c("synchronized", r"\bsynchronized\b|\bReentrantLock\b|\.lock\(\)",
       "lock synchronized performance deadlock 锁 同步 并发 加锁 顺序"),
    _c("volatile-dcl", r"\bvolatile\b|if\s*\(\s*\w+\s*==\s*null\s*\)[\s\S]{0,80}synchronized",
       "double-checked locking volatile singleton 双重检查锁 延迟初始化"),
    _c("math-random", r"Math\.random\s*\(", "Math.random double random integer nextInt 随机数 整数 Random"),
    _c("random-shared", r"new\s+Random\s*\(", "Random ThreadLocalRandom multi-thread 随机 并发"),
    _c("hashmap-concurrent", r"\bHashMap\b[\s\S]{0,400}\b(?:Thread|Runnable|parallel)\b",
       "HashMap concurrency resize ConcurrentHashMap 并发 扩容"),
    _c("timer", r"\bTimer\b|\bScheduledExecutorService\b", "Timer ScheduledExecutorService 定时任务"),
    # exceptions
    _c("finally-return", r"finally\s*\{[\s\S]{0,300}?\breturn\b",
       "finally return try exception 不要在 finally 块中 使用 return 异常"),
    _c("empty-catch", r"catch\s*\([^)]*\)\s*\{\s*\}", "empty catch swallowed exception 捕获 异常 处理 吞"),
    _c("catch-throwable", r"catch\s*\(\s*(?:Exception|Throwable|RuntimeException)\b",
       "catch exception generic 捕获 异常 区分 稳定代码"),
    _c("print-stack-trace", r"\.printStackTrace\s*\(", "printStackTrace log exception 日志 异常 堆栈"),
    _c("npe", r"\.get\w*\(\)\s*\.\w+\(|\bnull\b", "NullPointerException null check NPE 空指针 判空 级联调用"),
    _c("optional", r"\bOptional\b", "Optional null 空指针"),
    _c("throw-runtime", r"throw\s+new\s+(?:RuntimeException|Exception|Error)\b",
       "throw RuntimeException custom exception error code 异常 自定义 错误码"),
    _c("resource", r"\b(?:InputStream|OutputStream|Reader|Writer|Connection|Statement|ResultSet|Socket)\b",
       "resource close try-with-resources stream connection 资源 关闭 流 释放"),
    _c("transaction", r"@Transactional", "transaction rollback 事务 回滚"),
    # logging
    _c("logger", r"\b(?:log|logger|LOG|LOGGER)\s*\.\s*(?:debug|info|warn|error|trace)\s*\(",
       "log logger placeholder level SLF4J 日志 占位符 级别 输出"),
    _c("log-concat", r"\b(?:log|logger|LOG|LOGGER)\s*\.\s*\w+\s*\([^;]*\"\s*\+",
       "log string concatenation placeholder {} 日志 字符串 拼接 占位符"),
    _c("system-out", r"System\.(?:out|err)\.print", "System.out System.err log 日志 标准输出"),
    _c("log-facade", r"import\s+org\.apache\.log4j|import\s+ch\.qos\.logback|LogFactory\.getLog",
       "logging facade SLF4J API 日志框架 门面"),
    # comments
    _c("abstract-method", r"\babstract\s+[\w<>\[\], ]+\s+\w+\s*\([^)]*\)[^{;]*;|^\s*(?:public\s+)?interface\b",
       "abstract method interface method Javadoc comment 抽象方法 接口 方法 Javadoc 注释 返回值 参数 异常"),
    _c("javadoc", r"/\*\*", "Javadoc comment 注释 规范"),
    _c("line-comment", r"//.*\S", "comment 注释 单行"),
    _c("enum", r"\benum\s+\w+", "enum constant comment 枚举 字段 注释 用途"),
    _c("todo", r"\b(?:TODO|FIXME)\b", "TODO FIXME mark 待办 标记"),
    _c("commented-code", r"^\s*//\s*\w+\s*\(.*\);\s*$", "commented out code 注释掉 代码"),
    # SQL / ORM
    _c("sql-string", r"\"\s*(?:SELECT|UPDATE|DELETE|INSERT)\b", "SQL statement 查询 语句 SQL", re.IGNORECASE),
    _c("sql-concat", r"\"\s*(?:SELECT|UPDATE|DELETE|INSERT)\b[^;]*\"\s*\+\s*\w",
       "SQL injection concatenation prepared statement parameter 注入 拼接 参数 绑定", re.IGNORECASE),
    _c("select-star", r"select\s+\*", "select * columns 查询 字段 列表", re.IGNORECASE),
    _c("count-star", r"count\s*\(\s*(?:\w+|\*)\s*\)", "count(*) count(col) 统计 行数", re.IGNORECASE),
    _c("mybatis-dollar", r"\$\{", "MyBatis ${} #{} SQL injection 注入 参数"),
    _c("like-prefix", r"like\s+'%", "like fuzzy left wildcard index 模糊 索引 左模糊", re.IGNORECASE),
    _c("in-clause", r"\bin\s*\(", "in clause collection size 集合 数量 控制 1000", re.IGNORECASE),
    _c("orm-map", r"resultClass|HashMap\s*<\s*String\s*,\s*Object\s*>", "resultMap HashMap ORM 映射 输出"),
    # security and third-party calls
    _c("secret", r"(?:password|passwd|secret|token|apikey|api_key|accessKey)\w*\s*=\s*\"[^\"]+\"",
       "hard-coded password secret credential key 密码 密钥 硬编码 敏感", re.IGNORECASE),
    _c("runtime-exec", r"Runtime\.getRuntime\(\)\.exec|ProcessBuilder", "command injection 命令 注入 执行"),
    _c("file-path", r"new\s+File\s*\(|Paths\.get\s*\(", "path traversal file 路径 文件 遍历 穿越"),
    _c("xml-parser", r"DocumentBuilderFactory|SAXParserFactory|XMLInputFactory", "XXE XML external entity 外部实体"),
    _c("http-call", r"\b(?:RestTemplate|HttpClient|WebClient|OkHttpClient|Feign\w*|HttpURLConnection)\b",
       "HTTP call timeout retry third-party 远程 调用 超时 重试 第三方 接口"),
    _c("string-valueof", r"String\.valueOf\s*\(", "String.valueOf null \"null\" string conversion 字符串 转换 null"),
    _c("parse-number", r"(?:Integer|Long|Double)\.(?:parseInt|parseLong|valueOf|parseDouble)\s*\(",
       "parse number NumberFormatException 数字 转换 解析"),
    _c("user-input", r"\b(?:request|req)\.getParameter\s*\(", "user input validation parameter 参数 校验 用户 输入"),
    _c("redirect", r"sendRedirect|redirect:", "URL redirect 重定向 外部"),
    _c("deserialization", r"ObjectInputStream|readObject\s*\(", "deserialization untrusted 反序列化"),
    _c("regex-compile", r"Pattern\.compile\s*\(|\.matches\s*\(\s*\"", "regex precompile Pattern 正则 预编译"),
    _c("reflection", r"\.getDeclared\w*\(|setAccessible\s*\(", "reflection 反射 访问"),
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


def concepts_for(language: str) -> tuple[Concept, ...]:
    if language.startswith("edi") or language == "xml":
        return EDI_CONCEPTS
    return JAVA_CONCEPTS


def matching_terms(code: str, language: str) -> list[tuple[str, str]]:
    """(concept name, terms) for each construct the code shows."""
    return [(c.name, c.terms) for c in concepts_for(language) if c.pattern.search(code)]
