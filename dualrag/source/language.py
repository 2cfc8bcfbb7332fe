"""Per-file language from the file name. A language pack (`dualrag.languages`: Java, EDI flows
and transforms, Python, SQL, Kotlin, Spring configuration, ...) claims its files first; the table
here names the other languages a diff may hold (for reports and noise rules)."""

from __future__ import annotations

from dualrag import languages

_BY_SUFFIX = {
    ".java": "java",
    ".flow": "edi-flow",
    ".dt": "edi-dt",
    ".xml": "xml", ".xsd": "xml", ".wsdl": "xml", ".xsl": "xml", ".xslt": "xml",
    ".yaml": "yaml", ".yml": "yaml",
    ".properties": "properties",
    ".sql": "sql",
    ".md": "markdown", ".markdown": "markdown", ".rst": "rst", ".adoc": "asciidoc", ".txt": "text",
    ".json": "json", ".toml": "toml", ".ini": "ini", ".cfg": "ini", ".conf": "conf",
    ".kt": "kotlin", ".kts": "kotlin", ".groovy": "groovy", ".gradle": "groovy", ".scala": "scala",
    ".py": "python", ".pyi": "python", ".pyx": "cython",
    ".js": "javascript", ".mjs": "javascript", ".cjs": "javascript", ".jsx": "javascript",
    ".ts": "typescript", ".tsx": "typescript",
    ".go": "go", ".rs": "rust", ".rb": "ruby", ".php": "php", ".cs": "csharp",
    ".c": "c", ".h": "c", ".cc": "cpp", ".cpp": "cpp", ".cxx": "cpp", ".hpp": "cpp",
    ".sh": "shell", ".bash": "shell", ".bat": "batch", ".ps1": "powershell",
    ".html": "html", ".htm": "html", ".jsp": "jsp", ".vm": "velocity", ".ftl": "freemarker",
    ".css": "css", ".scss": "scss", ".less": "less",
    ".edi": "edi-message", ".x12": "edi-message", ".edifact": "edi-message",
}
_BY_NAME = {
    "dockerfile": "dockerfile",
    "makefile": "makefile",
    "pom.xml": "maven-pom",
    "jenkinsfile": "groovy",
}


def language_of(path: str, text: str | None = None) -> str:
    """The file's language from its path; `text` (the file, or the diff's text of it) lets a
    pack recognise content (a MyBatis mapper among `.xml` files, a script by its shebang)."""
    claimed = languages.recognise(path, text)
    if claimed is not None:
        return claimed
    name = path.rpartition("/")[2].lower()
    if name in _BY_NAME:
        return _BY_NAME[name]
    dot = name.rfind(".")
    return _BY_SUFFIX.get(name[dot:], "other") if dot > 0 else "other"
