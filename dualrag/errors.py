"""Errors that are the user's to fix: the CLI prints one line and exits 2."""


class UserError(Exception):
    """Bad input or configuration. The message is the whole explanation, one line."""

    exit_code = 2


class DiffError(UserError):
    """The input is not a diff we can read (malformed, combined, too large...)."""


class SourceError(UserError):
    """The place the diff comes from is wrong: missing file, not a repository, unknown ref."""


class ConfigError(UserError):
    """A configuration key or value is wrong; the message names the key and where it came from."""
