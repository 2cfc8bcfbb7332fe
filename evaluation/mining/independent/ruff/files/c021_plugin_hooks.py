"""Call optional hooks on loaded plugins."""

import logging

log = logging.getLogger("plugins")

HOOKS = ("on_load", "on_request", "on_shutdown")


def plugin_name(plugin) -> str:
    return getattr(plugin, "name", type(plugin).__name__)


def call_hook(plugin, hook: str, *args) -> object:
    handler = getattr(plugin, hook, None)
    if handler is None:
        return None
    log.debug("calling %s.%s", plugin_name(plugin), hook)
    return handler(*args)


def broadcast(plugins: list, hook: str, *args) -> list:
    if hook not in HOOKS:
        raise ValueError(f"unknown hook {hook}")
    return [call_hook(plugin, hook, *args) for plugin in plugins]
