"""Subcommands of ``referee``: each module has ``register(subparsers)`` that adds one command."""
