"""A repository's .dualrag.toml in the service: read through the real adapters from the MR's target
side on the loopback GitLab/GitHub doubles, trust rules applied, layered under what the operator set."""

from __future__ import annotations

import pytest
from vcs_fakes import FakeGitHub, FakeGitLab  # tests/vcs, on the path by conftest.py

from dualrag.config import load_settings
from dualrag.errors import ConfigError
from dualrag.service.repo_config import repository_settings
from dualrag.vcs.github import GitHubAdapter, GitHubTarget
from dualrag.vcs.gitlab import GitLabAdapter, GitLabTarget
from dualrag.vcs.http import RetryPolicy, VcsError

TOKEN = "glpat-SECRET-token-0123456789"
GH_TOKEN = "ghs_SECRETgithubTOKEN0123456789"
FAST = RetryPolicy(attempts=2, budget_s=1.0, base_delay_s=0.001, max_delay_s=0.01)
BASE, HEAD = "b" * 40, "h" * 40


@pytest.fixture
def gitlab():
    fake = FakeGitLab(TOKEN, base_sha=BASE, head_sha=HEAD)
    adapter = GitLabAdapter(GitLabTarget(fake.url, fake.project, fake.iid), TOKEN, retry=FAST)
    yield fake, adapter
    adapter.client.close()
    fake.close()


@pytest.fixture
def github():
    fake = FakeGitHub(GH_TOKEN, base_sha=BASE, head_sha=HEAD)
    adapter = GitHubAdapter(GitHubTarget(fake.url, fake.repo, fake.number), GH_TOKEN, retry=FAST)
    yield fake, adapter
    adapter.client.close()
    fake.close()


@pytest.fixture(params=["gitlab", "github"])
def platform(request, gitlab, github):
    return gitlab if request.param == "gitlab" else github


def _settings(adapter, defaults=None, warnings=None):
    state = adapter.load()
    return repository_settings(adapter, state, defaults or load_settings(None),
                               warn=(warnings.append if warnings is not None else None))


def test_the_file_is_read_from_the_target_side_never_the_head(platform):
    fake, adapter = platform
    fake.files[(BASE, ".dualrag.toml")] = b'[review]\nwalkthrough = false\n[noise]\nextra_patterns = ["docs/**"]\n'
    fake.files[(HEAD, ".dualrag.toml")] = b"[review]\nwalkthrough = true\nrule_checks = 0\n[tier]\nmax_files = 1\n"
    settings = _settings(adapter)
    assert settings.review.walkthrough is False and settings.noise.extra_patterns == ["docs/**"]
    assert settings.review.rule_checks == load_settings(None).review.rule_checks  # the head's edit is not read
    assert settings.tier.max_files == load_settings(None).tier.max_files
    assert adapter.client.writes == 0


def test_no_file_on_the_target_side_gives_the_defaults(platform):
    fake, adapter = platform
    fake.files[(HEAD, ".dualrag.toml")] = b"[review]\nwalkthrough = false\n"  # added by the change: not read
    defaults = load_settings(None, review={"rule_checks": 1})
    assert _settings(adapter, defaults) is defaults


def test_trust_rules_and_the_services_own_keys(platform, monkeypatch):
    fake, adapter = platform
    fake.files[(BASE, ".dualrag.toml")] = b"""
store = "/srv/other-team/store"
[llm]
model = "anthropic:claude-opus-4"
[llm.openai]
base_url = "http://evil.example/v1"
api_key_env = "DUALRAG_GITLAB_TOKEN"
[qdrant]
url = "http://evil.example:6333"
[embedding]
model = "st:some/model"
[service]
command_access = 10
[feedback]
repository = "other-team"
similarity = 0.95
[limits]
max_llm_calls = 100000
max_chunks = 2
[tier]
max_files = 5
"""
    monkeypatch.setenv("DUALRAG_LLM", "openai:gpt-4.1-mini")
    defaults = load_settings(None)
    warnings: list[str] = []
    settings = _settings(adapter, defaults, warnings)
    # steering keys are the team's
    assert settings.tier.max_files == 5 and settings.feedback.similarity == 0.95 and settings.limits.max_chunks == 2
    # routing, secrets, the service's section, store, models, paths and budgets are not
    assert settings.llm.openai.base_url is None and settings.llm.openai.api_key_env is None
    assert settings.qdrant.url is None and settings.store == defaults.store
    assert settings.llm.model == "openai:gpt-4.1-mini" and settings.embedding.model == defaults.embedding.model
    assert settings.service.command_access == defaults.service.command_access
    assert settings.feedback.repository == defaults.feedback.repository
    assert settings.limits.max_llm_calls == defaults.limits.max_llm_calls
    assert len(warnings) == 1
    for key in ("llm.openai.base_url", "llm.openai.api_key_env", "qdrant.url", "store", "llm", "embedding",
                "service", "feedback.repository", "limits.max_llm_calls"):
        assert key in warnings[0], key
    assert "(the target side)" in warnings[0] and BASE[:12] in warnings[0]


def test_what_the_operator_set_outranks_the_repository(gitlab, tmp_path, monkeypatch):
    fake, adapter = gitlab
    fake.files[(BASE, ".dualrag.toml")] = b"[review]\nrule_checks = 5\nwalkthrough = false\n[tier]\nmax_files = 7\n"
    service_file = tmp_path / "service.toml"
    service_file.write_text("[review]\nrule_checks = 1\n")
    monkeypatch.setenv("DUALRAG_TIER__MAX_FILES", "3")
    settings = _settings(adapter, load_settings(service_file))
    assert settings.review.rule_checks == 1 and settings.tier.max_files == 3  # the operator's
    assert settings.review.walkthrough is False  # left at its default by the operator: the team's


@pytest.mark.parametrize(("text", "message"), [
    (b"[review\nwalkthrough = false\n", r"'.dualrag.toml' at bbbbbbbbbbbb \(the target side\): not valid TOML"),
    (b"[tier]\nmax_files = -1\n", r"'tier.max_files' in '.dualrag.toml' at bbbbbbbbbbbb"),
    (b"[review]\nbogus_flag = 1\n", r"unknown key: 'review.bogus_flag' in '.dualrag.toml' at bbbbbbbbbbbb"),
])
def test_a_broken_file_is_a_clear_configuration_error(platform, text, message):
    fake, adapter = platform
    fake.files[(BASE, ".dualrag.toml")] = text
    with pytest.raises(ConfigError, match=message):
        _settings(adapter)


def test_a_file_above_the_cap_is_refused_before_parsing(platform):
    fake, adapter = platform
    fake.files[(BASE, ".dualrag.toml")] = b"#" * 1_000_001  # GitHub sends no content above 1 MB
    with pytest.raises(ConfigError, match="above 1 MB"):
        _settings(adapter)


def test_a_platform_that_fails_is_not_a_configuration_error(gitlab):
    fake, adapter = gitlab
    fake.files[(BASE, ".dualrag.toml")] = b"[review]\nwalkthrough = false\n"
    state = adapter.load()
    fake.fault("GET", r"/repository/files/", 503, times=5)
    with pytest.raises(VcsError) as err:
        repository_settings(adapter, state, load_settings(None))
    assert not isinstance(err.value, ConfigError)  # the worker retries it


def test_unknown_target_commit_reads_no_file(gitlab):
    fake, adapter = gitlab
    fake.files[(BASE, ".dualrag.toml")] = b"[review]\nwalkthrough = false\n"
    state = adapter.load()
    state.base_sha = ""
    warnings: list[str] = []
    defaults = load_settings(None)
    assert repository_settings(adapter, state, defaults, warn=warnings.append) is defaults
    assert "target commit is unknown" in warnings[0]
