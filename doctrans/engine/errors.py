"""Engine errors (a module of their own so bundle.py and __init__.py can share them)."""

from __future__ import annotations

from doctrans.errors import UserError


class BundleError(UserError):
    """A model bundle is missing, incomplete or incompatible (one clear line for the user)."""
