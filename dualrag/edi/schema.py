"""The `.flow` / `.dt` / `partners.xml` vocabulary (format 1.0, docs/edi-format.md) as data.

`ELEMENTS[kind][tag]` = (allowed attributes, required attributes, allowed child tags).
Enumerated attribute values live in `ENUMS[(tag, attribute)]`.
"""

from __future__ import annotations

FORMAT_VERSIONS = frozenset({"1.0"})

_COMMON_MAP_ATTRS = frozenset({
    "id", "from", "to", "value", "expr", "function", "pattern", "type", "minLength", "maxLength",
    "codeList", "table", "sequence", "pad", "length", "scale", "zone", "charset", "when", "args",
})

FLOW: dict[str, tuple[frozenset[str], frozenset[str], frozenset[str]]] = {
    "flow": (frozenset({"id", "format", "partner", "direction", "standard", "description"}),
             frozenset({"id", "partner", "direction"}),
             frozenset({"channels", "channel", "steps", "acknowledgement", "expectAcknowledgement", "onError"})),
    "channels": (frozenset(), frozenset(), frozenset({"channel"})),
    "channel": (frozenset({"id", "direction", "protocol", "address", "pattern", "charset", "description"}),
                frozenset({"id", "direction", "protocol"}), frozenset()),
    "steps": (frozenset(), frozenset(), frozenset({"receive", "deduplicate", "validate", "translate", "route", "send"})),
    "receive": (frozenset({"id", "channel"}), frozenset({"id", "channel"}), frozenset()),
    "deduplicate": (frozenset({"id", "key", "windowDays"}), frozenset({"id", "key"}), frozenset()),
    "validate": (frozenset({"id", "schema", "level"}), frozenset({"id"}), frozenset()),
    "translate": (frozenset({"id", "transform"}), frozenset({"id", "transform"}), frozenset()),
    "route": (frozenset({"id", "target", "flow", "when"}), frozenset({"id"}), frozenset()),
    "send": (frozenset({"id", "channel"}), frozenset({"id", "channel"}), frozenset()),
    "acknowledgement": (frozenset({"type", "mode", "withinMinutes"}), frozenset({"type"}), frozenset()),
    "expectAcknowledgement": (frozenset({"type", "withinMinutes", "onOverdue", "onReject"}),
                              frozenset({"type"}), frozenset()),
    "onError": (frozenset({"retries", "backoffSeconds", "maxBackoffSeconds", "deadLetter"}),
                frozenset({"retries"}), frozenset()),
}

_DEF_CHILDREN = frozenset({"loop", "segment", "field"})
DT: dict[str, tuple[frozenset[str], frozenset[str], frozenset[str]]] = {
    "transform": (frozenset({"id", "format", "partner", "description"}), frozenset(),
                  frozenset({"source", "target", "defaults", "mappings"})),
    "source": (frozenset({"standard", "version", "message", "description"}), frozenset({"standard"}), _DEF_CHILDREN),
    "target": (frozenset({"standard", "version", "message", "description"}), frozenset({"standard"}), _DEF_CHILDREN),
    "loop": (frozenset({"id", "usage", "maxRepeat"}), frozenset({"id"}), _DEF_CHILDREN),
    "segment": (frozenset({"id", "usage", "maxRepeat"}), frozenset({"id"}), frozenset({"element"})),
    "element": (frozenset({"id", "usage", "type", "minLength", "maxLength", "codes", "literal"}),
                frozenset({"id"}), frozenset()),
    "field": (frozenset({"path", "usage", "type", "minLength", "maxLength", "codes", "literal", "maxRepeat"}),
              frozenset({"path"}), frozenset()),
    "defaults": (frozenset(), frozenset(), frozenset({"default"})),
    "default": (frozenset({"to", "value"}), frozenset({"to", "value"}), frozenset()),
    "mappings": (frozenset(), frozenset(), frozenset({"map", "group"})),
    "group": (frozenset({"id", "when"}), frozenset({"when"}), frozenset({"map", "group"})),
    "map": (_COMMON_MAP_ATTRS, frozenset({"to"}), frozenset()),
}

PARTNERS: dict[str, tuple[frozenset[str], frozenset[str], frozenset[str]]] = {
    "partners": (frozenset({"format"}), frozenset(), frozenset({"partner"})),
    "partner": (frozenset({"id", "name", "standard", "version", "qualifier", "interchangeId",
                           "acknowledgement", "charset"}), frozenset({"id"}), frozenset()),
}

SCHEMAS = {"flow": FLOW, "dt": DT, "partners": PARTNERS}
ROOTS = {"flow": "flow", "dt": "transform", "partners": "partners"}

ENUMS: dict[tuple[str, str], frozenset[str]] = {
    ("flow", "direction"): frozenset({"inbound", "outbound"}),
    ("flow", "standard"): frozenset({"X12", "EDIFACT", "XML", "JSON", "CSV"}),
    ("channel", "direction"): frozenset({"inbound", "outbound"}),
    ("channel", "protocol"): frozenset({"as2", "sftp", "ftps", "ftp", "http", "https", "van", "mq", "file"}),
    ("acknowledgement", "type"): frozenset({"997", "999", "TA1", "CONTRL", "none"}),
    ("acknowledgement", "mode"): frozenset({"always", "onError", "never"}),
    ("expectAcknowledgement", "type"): frozenset({"997", "999", "TA1", "CONTRL"}),
    ("validate", "level"): frozenset({"syntax", "guide"}),
    ("source", "standard"): frozenset({"X12", "EDIFACT", "XML", "JSON", "CSV", "internal"}),
    ("target", "standard"): frozenset({"X12", "EDIFACT", "XML", "JSON", "CSV", "internal"}),
    ("loop", "usage"): frozenset({"M", "O", "C", "R", "S", "N"}),
    ("segment", "usage"): frozenset({"M", "O", "C", "R", "S", "N"}),
    ("element", "usage"): frozenset({"M", "O", "C", "R", "S", "N"}),
    ("field", "usage"): frozenset({"M", "O", "C", "R", "S", "N"}),
    ("element", "literal"): frozenset({"true", "false"}),
    ("field", "literal"): frozenset({"true", "false"}),
    ("partner", "standard"): frozenset({"X12", "EDIFACT", "XML", "JSON", "CSV"}),
    ("partner", "acknowledgement"): frozenset({"997", "999", "TA1", "CONTRL", "none"}),
}

# Element/field data types: X12 (AN ID Nn R DT TM B), EDIFACT (a n an), internal fields.
TYPES = frozenset({"AN", "ID", "R", "DT", "TM", "B", *(f"N{i}" for i in range(10)),
                   "a", "n", "an", "string", "integer", "decimal", "date", "time", "boolean", "code"})
for _tag in ("element", "field", "map"):
    ENUMS[(_tag, "type")] = TYPES

# The fixed function library of a mapping (docs/edi-format.md, "Functions").
FUNCTIONS = frozenset({
    "date", "time", "sequence", "segmentCount", "lineCount", "groupCount", "transactionCount",
    "padLeft", "padRight", "trim", "upper", "lower", "substring", "truncate", "concat", "decimal",
    "integer", "table", "edisafe", "now", "uuid",
})
COUNT_FUNCTIONS = frozenset({"segmentCount", "lineCount", "groupCount", "transactionCount"})
SHORTENING_FUNCTIONS = frozenset({"substring", "truncate", "padLeft", "padRight", "table", "edisafe"})
CONVERTING_FUNCTIONS = frozenset({"decimal", "integer", "date", "time", "table", "sequence"} | COUNT_FUNCTIONS)

# Envelope control numbers (must come from a sequence), trailers (must repeat their header),
# and counts (must be computed).
CONTROL_NUMBERS = frozenset({"ISA13", "GS06", "ST02", "UNB05", "UNG05", "UNH01"})
TRAILERS = {"IEA02": "ISA13", "GE02": "GS06", "SE02": "ST02", "UNZ02": "UNB05", "UNE02": "UNG05", "UNT02": "UNH01"}
COUNTS = frozenset({"SE01", "CTT01", "CNT01", "UNT01", "GE01", "IEA01", "UNZ01", "UNE01"})

ACK_BY_STANDARD = {"X12": frozenset({"997", "999", "TA1"}), "EDIFACT": frozenset({"CONTRL"})}
MAX_RETRIES = 10
STEP_ORDER = {"receive": 0, "deduplicate": 1, "validate": 2, "translate": 3, "route": 4, "send": 5}
