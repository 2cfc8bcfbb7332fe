"""The language packs measured on real public code (`packs`: chunk cuts, code context, detectors) and
the EDI validators on their labelled corpus (`edi`)."""
