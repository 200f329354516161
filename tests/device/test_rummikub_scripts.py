"""The Rummikub learning-table script of ``docs/scripts`` played as a person plays it (``referee
--simulate --script``, through the synthetic camera and the real tile reader): it reaches its end and
takes its shots, and the device journaled what its comments say — each rack shown face up in the rack
zone read as the rack, and player 1's draw taken while his rack lay there."""

from __future__ import annotations

from pathlib import Path

from tests.device.test_kalooki_scripts import play


def test_the_learning_script_reads_the_racks_in_the_rack_zone_and_runs_to_its_end(tmp_path: Path) -> None:
    journal = play("rummikub-learning.txt", tmp_path, "--seed", "5")
    try:
        (game,) = journal.games()
        kinds = [a.action["kind"] for a in journal.actions(game.id) if isinstance(a.action, dict)]
    finally:
        journal.close()
    show, hint = "rummikub.show_rack", "rummikub.hint"
    # Player 1 shows his rack (the camera), draws; Ola shows hers (refused twice as not clear: no action
    # journaled), two hints, her best move;
    # the script ends with player 1 about to enter the tile he drew with the picker.
    assert kinds[1:] == [show, "rummikub.draw", show, hint, hint, "rummikub.play"], kinds
    shots = sorted(p.name for p in (tmp_path / "rummikub-learning-shots").iterdir())
    assert len(shots) == 10 and shots[-1] == "08-enter-drawn-tile.png", shots
    assert "04b-rack-not-clear.png" in shots  # Ola's rack, laid crowded, read unsure: she lays it again
