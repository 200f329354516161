"""The appliance: event loop, game sessions, move timer, journal, screens, config, CLI."""

__all__: list[str] = []
