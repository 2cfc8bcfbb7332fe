"""The local reranker: its throughput and int8 agreement (`throughput`), whether a calibrated pruning
threshold holds on rules the calibration never saw (`calibration`), and the small trained
cross-encoder both measure (`trained`, fine-tuned here because none can be downloaded)."""
