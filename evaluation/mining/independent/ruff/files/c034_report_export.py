"""Export reports to the shared drive."""

import logging
from pathlib import Path

log = logging.getLogger("export")


def export(report: str, target: Path) -> bool:
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(report, encoding="utf-8")
    except PermissionError:
        log.error("no permission to write %s", target)
        return False
    except FileNotFoundError:
        log.error("share for %s is not mounted", target)
        return False
    except OSError as error:
        log.error("could not write %s: %s", target, error)
        return False
    return True


if __name__ == "__main__":
    print(export("total;12\n", Path("/tmp/reports/daily.csv")))
