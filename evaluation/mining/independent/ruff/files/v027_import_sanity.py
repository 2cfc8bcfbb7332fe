"""Sanity checks run after the nightly import."""


def check_counts(source_rows: int, imported_rows: int) -> None:
    assert imported_rows == source_rows, print(
        f"imported {imported_rows} of {source_rows} rows"
    )


def check_totals(source_total: float, imported_total: float, tolerance: float = 0.01) -> None:
    difference = abs(source_total - imported_total)
    if difference > tolerance:
        raise ValueError(f"totals differ by {difference:.2f}")


def run_checks(report: dict) -> list[str]:
    problems = []
    for check, args in ((check_counts, report["rows"]), (check_totals, report["totals"])):
        try:
            check(*args)
        except (AssertionError, ValueError) as error:
            problems.append(f"{check.__name__}: {error}")
    return problems


if __name__ == "__main__":
    print(run_checks({"rows": (10, 9), "totals": (100.0, 100.0)}))
