"""EDI configuration projects: the `.flow` / `.dt` format (docs/edi-format.md), a safe reader and
deterministic validators. A pure format library: its place in a review is `dualrag.checks.edi`."""

from dualrag.edi.model import Document, Issue, Node, kind_of
from dualrag.edi.reader import MAX_BYTES, read_document, scan_fragment
from dualrag.edi.validators import Files, validate

__all__ = ["Document", "Files", "Issue", "MAX_BYTES", "Node", "kind_of", "read_document", "scan_fragment", "validate"]
