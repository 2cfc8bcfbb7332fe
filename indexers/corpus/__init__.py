"""A clean corpus for mined detectors, built from Debian's source packages (`dualrag corpus build`).

    from indexers.corpus import PrivateApt, build_corpus, curated
    build_corpus(root, [("java", Pick("libcommons-io-java"))], PrivateApt(root / ".apt-bookworm"))

`apt.py` fetches with a private apt configuration, `tarball.py` unpacks one language's files safely,
`manifest.py` says what is on disk, `curated.py` is the default choice per language. Nothing here
runs unless a person asks for it: mining only reads what was built.
"""

from .apt import DEBIAN_MIRROR, DEBIAN_SUITE, CorpusError, PrivateApt
from .build import Outcome, build_corpus, describe, source_suffixes
from .curated import CURATED, Pick
from .manifest import Manifest, default_corpus_dir, is_built_corpus, read_manifest
from .tarball import Caps, Selection, UnsafeTarball, unpack_sources

__all__ = ["CURATED", "DEBIAN_MIRROR", "DEBIAN_SUITE", "Caps", "CorpusError", "Manifest", "Outcome", "Pick", "PrivateApt",
           "Selection", "UnsafeTarball", "build_corpus", "default_corpus_dir", "describe", "is_built_corpus", "read_manifest",
           "source_suffixes", "unpack_sources"]
