"""Shape checks for small matrices."""

Matrix = list[list[float]]


def check_square(matrix: Matrix) -> int:
    size = len(matrix)
    assert size > 0, "empty matrix"
    assert all(len(row) == size for row in matrix), "matrix is not square"
    return size


def trace(matrix: Matrix) -> float:
    size = check_square(matrix)
    return sum(matrix[i][i] for i in range(size))


def identity(size: int) -> Matrix:
    assert size == int(size), "size must be whole"
    return [[1.0 if i == j else 0.0 for j in range(size)] for i in range(size)]


if __name__ == "__main__":
    print(trace(identity(4)))
