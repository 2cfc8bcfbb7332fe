"""Test helpers that scripts need too (e.g. a scripted local model server for benchmarks).

Nothing here is imported by the online pipeline.
"""
