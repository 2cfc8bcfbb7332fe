"""The progress channel of long steps (first-use indexing of the bundled rules, ...): a logger.

Stages and indexers do no I/O of their own; they say what takes long here and the CLI prints it as
plain `dualrag: ...` lines on stderr (dualrag/cli/console.py). Library callers see nothing unless
they configure logging for "dualrag.progress"."""

from __future__ import annotations

import logging

progress = logging.getLogger("dualrag.progress")
