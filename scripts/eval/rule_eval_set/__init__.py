"""A rule-retrieval evaluation set of our own: Java review rules nobody tuned the segmenter for.

`rules.py` holds the rules (the one source the generator renders as Word, Markdown and PDF),
`cases.jsonl` the violating and clean Java snippets that should retrieve them.
"""
