"""EDI configuration projects: the `.flow` / `.dt` format (docs/edi-format.md), a safe reader,
deterministic validators and their place in the review (findings with category "edi")."""

from dualrag.edi.model import Document, Issue, Node, kind_of
from dualrag.edi.reader import MAX_BYTES, read_document, scan_fragment
from dualrag.edi.review import merge_findings, validate_changes
from dualrag.edi.validators import Files, validate

__all__ = ["Document", "Files", "Issue", "MAX_BYTES", "Node", "kind_of", "merge_findings", "read_document",
           "scan_fragment", "validate", "validate_changes"]
