"""Errors a user can cause. The CLI turns each into one line on stderr and a non-zero exit.

Anything raised as a :class:`UserError` must carry a message a user can act on (which file, what
is wrong with it, what to do); everything else is a bug and is reported as one.
"""

from __future__ import annotations


class UserError(Exception):
    """A problem with the user's input, output path or options (not a bug)."""


class DocumentError(UserError):
    """A document cannot be read or written: missing, empty, encrypted, corrupt, wrong format."""
