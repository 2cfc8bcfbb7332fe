"""Benchmarks: speed, memory, token counts and call counts of the pipeline's parts (ingest, chunking,
rule indexing and search, code index, reviews, the HTML report, publishing, the service under load,
what loading the configuration costs), each printing its figures against its floors."""
