"""The dice games' coach: optimal advice, expected scores and grades (issue #16).

- :mod:`rules.coach.dice_sets` — rolls and keeps as multisets, the keep→roll chances;
- :mod:`rules.coach.widget` — one turn solved for many states at once;
- :mod:`rules.coach.model` — what a game tells the solver; the games' models are
  :mod:`rules.yahtzee.solver`, :mod:`rules.poker_dice.solver` and the triple heuristic
  :mod:`rules.yahtzee.triple_solver`;
- :mod:`rules.coach.table` — build the value table and read it (its file: ``device/coach_tables.py``);
- :mod:`rules.coach.advice` — ranked choices and the loss of a decision;
- :mod:`rules.coach.simulate` — optimal games, the final-score distribution;
- :mod:`rules.coach.games` — which coach and table serve which game options.

Nothing here does I/O; tables are built on request (``referee coach build``) and kept by the device.
"""
