"""dualrag: merge-request review with code context and team rules retrieved side by side."""

__version__ = "0.1.0"
