"""Foundations for reading what is reviewed and indexed: git access (`git`), text encodings
(`encoding`), safe repository paths (`paths`), .gitignore-style patterns (`patterns`), the
noise filter's patterns (`noise`) and file languages (`language`).

The diff stage, the code indexer and code retrieval all read repositories through here, so
each of these decisions is made once, below every stage that relies on it."""
