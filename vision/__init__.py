"""Camera frames -> observations (dice values, tiles, melds) with confidence; calibration."""

__all__: list[str] = []
