"""Hardware behind small interfaces, each with a real and a fake implementation."""

__all__: list[str] = []
