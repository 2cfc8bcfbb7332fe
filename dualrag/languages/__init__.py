"""Language packs: everything dualrag knows about one file language, one folder per language.

    from dualrag import languages
    languages.pack_for("python")            # the LanguagePack of a file language, or None
    languages.recognise("mapper/OrderMapper.xml", text)   # "mybatis": content sniffing
    languages.parser("kotlin")               # one grammar loader for every pack
    languages.register(LanguagePack(name="go", extensions=(".go",), ...))   # a pack at run time
    languages.specialists(["java", "mybatis"])   # the specialist reviewers those languages bring (SQL)

Built-in packs: java, edi-flow, edi-dt, edi-message, xml, maven-pom, python, sql, mybatis, kotlin,
spring-yaml, spring-properties. A distribution adds a pack through the entry-point group
`dualrag.languages` (registry.py says how); the stages ask the registry, never a language name.
"""

from dualrag.languages.pack import (
    Grammar,
    GrammarRoles,
    GrammarWords,
    LanguagePack,
    MemberParse,
    Specialist,
    SymbolReader,
)
from dualrag.languages.registry import (
    GROUP,
    all_specialists,
    code_languages,
    file_project_type,
    grammar_languages,
    grammar_of,
    language,
    pack_for,
    packs,
    parser,
    project_type,
    project_types,
    recognise,
    register,
    reload,
    shebang_language,
    specialists,
    unregister,
)

__all__ = [
    "GROUP",
    "Grammar",
    "GrammarRoles",
    "GrammarWords",
    "LanguagePack",
    "MemberParse",
    "Specialist",
    "SymbolReader",
    "all_specialists",
    "code_languages",
    "file_project_type",
    "grammar_languages",
    "grammar_of",
    "language",
    "pack_for",
    "packs",
    "parser",
    "project_type",
    "project_types",
    "recognise",
    "register",
    "reload",
    "shebang_language",
    "specialists",
    "unregister",
]
