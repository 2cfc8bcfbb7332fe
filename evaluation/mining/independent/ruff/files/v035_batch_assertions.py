"""Checks on prepared training batches."""

BATCH_SIZE = 64


def check_batch(batch: list[list[float]]) -> None:
    assert len(batch), 64
    width = len(batch[0])
    for row in batch:
        assert len(row) == width, f"ragged row of length {len(row)}, expected {width}"


def batches(rows: list[list[float]]) -> list[list[list[float]]]:
    out = [rows[i:i + BATCH_SIZE] for i in range(0, len(rows), BATCH_SIZE)]
    for batch in out[:-1]:
        check_batch(batch)
    return out


if __name__ == "__main__":
    data = [[0.0, 1.0]] * 130
    print([len(batch) for batch in batches(data)])
