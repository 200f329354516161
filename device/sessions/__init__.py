"""The games the appliance can referee: importing this package registers their sessions in
``device.session.SESSIONS`` (one module per family of games) and their simulated tables in
``device.sessions.simulated.TABLES`` (``*_sim`` beside each session)."""

from device.sessions import (
    dice,
    dice_sim,
    kalooki,
    kalooki_sim,
    rummikub,
    rummikub_puzzle,
    rummikub_puzzle_sim,
    rummikub_sim,
    zatre,
    zatre_sim,
)

__all__ = [
    "dice",
    "dice_sim",
    "kalooki",
    "kalooki_sim",
    "rummikub",
    "rummikub_puzzle",
    "rummikub_puzzle_sim",
    "rummikub_sim",
    "zatre",
    "zatre_sim",
]
