"""Subcommands of ``referee``: each module has ``register(subparsers)`` that adds one command."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

__all__ = ["Subcommands"]

if TYPE_CHECKING:
    # What ``register`` is given: ``ArgumentParser.add_subparsers()``'s result, a type argparse names
    # only privately (and generic only in typeshed, hence under TYPE_CHECKING).
    Subcommands = argparse._SubParsersAction[argparse.ArgumentParser]
