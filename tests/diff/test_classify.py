"""Project type and risk tier: EDI > Java > generic, tier thresholds, sensitive paths, config."""

from __future__ import annotations

import pathspec
import pytest
from hypothesis import given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from dualrag.config import CONFIG_FILE_NAME, TierConfig, load_settings
from dualrag.diff import ProjectType, RiskTier, ingest
from dualrag.diff.classify import TierRules
from dualrag.source.patterns import PathPatterns


def added(path: str, lines: int) -> bytes:
    """A git diff section adding `path` with `lines` lines."""
    body = "".join(f"+line {i}\n" for i in range(1, lines + 1))
    return (f"diff --git a/{path} b/{path}\nnew file mode 100644\nindex 0000000..1111111\n"
            f"--- /dev/null\n+++ b/{path}\n@@ -0,0 +1,{lines} @@\n{body}").encode()


def files(count: int, lines_each: int = 1, ext: str = "txt") -> bytes:
    return b"".join(added(f"src/f{i}.{ext}", lines_each) for i in range(count))


# ---------------------------------------------------------------------------- project type


@pytest.mark.parametrize(("paths", "expected"), [
    (["flows/order.flow"], ProjectType.EDI),
    (["maps/invoice.dt"], ProjectType.EDI),
    (["src/A.java", "flows/order.flow"], ProjectType.EDI),  # EDI wins over Java
    (["src/A.java", "maps/x.DT"], ProjectType.EDI),
    (["src/A.java", "README.md"], ProjectType.JAVA),
    (["app.py", "pom.xml"], ProjectType.GENERIC),
    (["src/A.kt"], ProjectType.GENERIC),
])
def test_project_type(settings, paths, expected):
    diff = b"".join(added(p, 1) for p in paths)
    assert ingest(diff, settings).project_type is expected


def test_skipped_files_do_not_count_for_project_type(settings):
    diff = added("vendor/acme/Lib.java", 3) + added("third_party/x/route.flow", 3) + added("a.py", 1)
    changes = ingest(diff, settings)
    assert [f.skipped_reason is not None for f in changes.files] == [True, True, False]
    assert changes.project_type is ProjectType.GENERIC
    diff = added("third_party/x/route.flow", 3) + added("src/A.java", 1)
    assert ingest(diff, settings).project_type is ProjectType.JAVA


# ---------------------------------------------------------------------------- tiers


@pytest.mark.parametrize(("lines", "tier"), [
    (1, RiskTier.TRIVIAL), (10, RiskTier.TRIVIAL), (11, RiskTier.LITE),
    (100, RiskTier.LITE), (101, RiskTier.FULL),
])
def test_line_thresholds(settings, lines, tier):
    changes = ingest(added("src/a.txt", lines), settings)
    assert changes.risk_tier is tier
    if tier is RiskTier.FULL:
        assert changes.tier_reasons == (f"{lines} changed lines in 1 files",)
    else:
        assert changes.tier_reasons == ()


def test_removed_lines_count_too(settings):
    diff = (b"diff --git a/a.txt b/a.txt\nindex 1..2 100644\n--- a/a.txt\n+++ b/a.txt\n@@ -1,6 +1,6 @@\n"
            + b"".join(b"-old %d\n" % i for i in range(6)) + b"".join(b"+new %d\n" % i for i in range(6)))
    assert ingest(diff, settings).risk_tier is RiskTier.LITE  # 6 + 6 = 12 > 10


def test_trivial_needs_at_most_20_files(settings):
    # Hunk-less renames have no changed lines, so 20 files can stay trivial.
    def renames(n: int) -> bytes:
        return b"".join(
            f"diff --git a/o{i}.txt b/n{i}.txt\nsimilarity index 100%\nrename from o{i}.txt\n"
            f"rename to n{i}.txt\n".encode() for i in range(n)
        )
    assert ingest(renames(20), settings).risk_tier is RiskTier.TRIVIAL
    changes = ingest(renames(21), settings)
    assert changes.risk_tier is RiskTier.FULL
    assert changes.tier_reasons == ("0 changed lines in 21 files",)


@pytest.mark.parametrize(("count", "tier"), [(20, RiskTier.LITE), (21, RiskTier.FULL)])
def test_file_count_threshold_for_lite(settings, count, tier):
    assert ingest(files(count), settings).risk_tier is tier


def test_above_50_files_is_full_for_the_file_count(settings):
    at50 = ingest(files(50), settings)
    at51 = ingest(files(51), settings)
    assert (at50.risk_tier, at51.risk_tier) == (RiskTier.FULL, RiskTier.FULL)
    assert at50.tier_reasons == ("50 changed lines in 50 files",)
    assert at51.tier_reasons == ("51 files (> 50)",)


def test_full_above_files_decides_alone_when_max_files_is_larger():
    s = load_settings(None, tier={"max_files": 1000})
    assert ingest(files(50), s).risk_tier is RiskTier.LITE
    assert ingest(files(51), s).risk_tier is RiskTier.FULL


def test_skipped_files_do_not_count_for_tier(settings):
    diff = added("src/a.txt", 2) + b"".join(added(f"vendor/v{i}.txt", 50) for i in range(60))
    changes = ingest(diff, settings)
    assert len(changes.files) == 61 and len(changes.reviewable) == 1
    assert changes.risk_tier is RiskTier.TRIVIAL


@pytest.mark.parametrize("path", [
    "src/auth/Login.java", "auth/x.py", "lib/crypto/aes.c", "security/policy.rb",
    "src/AUTH/Session.java", "src/Security/Check.java",
    "src/TokenService.java", "api/refresh_token.go", "conf/DbPassword.properties",
    "config/passwd.txt", "certs/server.pem", "CERTS/SERVER.PEM", "keys/app.key",
    "k8s/rbac.yaml", "iam/policy.json", "conf/AclRules.xml", "src/SecretStore.java",
])
def test_sensitive_paths_force_full(settings, path):
    changes = ingest(added(path, 1), settings)
    assert changes.risk_tier is RiskTier.FULL
    assert changes.tier_reasons == (f"security-sensitive path: {path}",)


@pytest.mark.parametrize("path", [
    "src/AuthorService.java", "docs/crypto.md", "src/securityish/x.py", "src/Login.java", "keys.txt",
])
def test_ordinary_paths_are_not_sensitive(settings, path):
    assert ingest(added(path, 1), settings).risk_tier is RiskTier.TRIVIAL


def test_several_sensitive_paths_are_summed_up(settings):
    diff = added("auth/a.py", 1) + added("auth/b.py", 1) + added("crypto/c.py", 1)
    assert ingest(diff, settings).tier_reasons == ("security-sensitive path: auth/a.py (+2 more)",)


def test_sensitive_file_that_is_skipped_does_not_force_full(settings):
    assert ingest(added("vendor/auth/x.go", 1), settings).risk_tier is RiskTier.TRIVIAL


def test_thresholds_from_dualrag_toml(tmp_path):
    config = tmp_path / CONFIG_FILE_NAME
    config.write_text(
        "[tier]\ntrivial_max_lines = 2\nlite_max_lines = 5\nmax_files = 3\nfull_above_files = 4\n"
        'sensitive_paths = ["billing/"]\n',
        encoding="utf-8",
    )
    s = load_settings(config)
    assert ingest(added("a.txt", 2), s).risk_tier is RiskTier.TRIVIAL
    assert ingest(added("a.txt", 3), s).risk_tier is RiskTier.LITE
    assert ingest(added("a.txt", 5), s).risk_tier is RiskTier.LITE
    assert ingest(added("a.txt", 6), s).risk_tier is RiskTier.FULL
    assert ingest(files(3, 1), s).risk_tier is RiskTier.LITE
    assert ingest(files(4, 1), s).risk_tier is RiskTier.FULL
    assert ingest(files(5, 1), s).tier_reasons == ("5 files (> 4)",)
    assert ingest(added("billing/Invoice.java", 1), s).risk_tier is RiskTier.FULL
    assert ingest(added("auth/Login.java", 1), s).risk_tier is RiskTier.TRIVIAL  # list replaced


# ---------------------------------------------------------------------------- patterns

_SEGMENT = st.sampled_from(["src", "auth", "Auth", "vendor", "a", "lib", "x.min.js", "Token.java",
                            "key.pem", "docs", "gen", "b.txt", "node_modules"])
_PATTERN = st.sampled_from(["auth/", "*token*", "*.pem", "src/", "/docs", "a/**/b.txt", "lib/*.js",
                            "**/gen/", "*.min.js", "vendor", "!src/keep.txt", "b.txt", "!auth/"])


@hsettings(max_examples=150, deadline=None)
@given(st.lists(_PATTERN, min_size=1, max_size=4), st.lists(_SEGMENT, min_size=1, max_size=5),
       st.booleans())
def test_path_patterns_agree_with_pathspec(patterns, segments, fold):
    """The combined-regex fast path answers exactly as pathspec's GitIgnoreSpec does."""
    path = "/".join(segments)
    lines = [p.lower() for p in patterns] if fold else patterns
    expected = pathspec.GitIgnoreSpec.from_lines(lines).match_file(path.lower() if fold else path)
    assert PathPatterns(patterns, ignore_case=fold).match(path) == expected


def test_tier_rules_sensitive_is_case_insensitive():
    rules = TierRules(TierConfig(sensitive_paths=["Secrets/", "*.PFX"]))
    assert rules.sensitive("app/secrets/db.yml") and rules.sensitive("app/SECRETS/db.yml")
    assert rules.sensitive("certs/client.pfx")
    assert not rules.sensitive("app/secret.yml")
