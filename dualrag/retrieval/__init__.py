"""Retrieve stage (ARCHITECTURE.md, stages 3-4): rules and code for each chunk, reranked and packed.

Import the submodules you need; this package imports nothing heavy by itself.
"""
