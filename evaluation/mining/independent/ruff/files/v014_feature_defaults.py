"""Apply environment-specific defaults to the settings object."""

from types import SimpleNamespace


def base_settings() -> SimpleNamespace:
    return SimpleNamespace(debug=False, cache_ttl=300, log_level="INFO", workers=4)


def apply_profile(settings: SimpleNamespace, profile: str) -> SimpleNamespace:
    if profile == "dev":
        setattr(settings, "debug", True)
        settings.cache_ttl = 0
        settings.log_level = "DEBUG"
    elif profile == "ci":
        settings.workers = 1
    return settings


if __name__ == "__main__":
    print(apply_profile(base_settings(), "dev"))
    print(apply_profile(base_settings(), "ci"))
    print(apply_profile(base_settings(), "prod"))
    print(base_settings())
