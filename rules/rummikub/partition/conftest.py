"""pytest: when the solver runs compiled, its modules' docstring examples are not collected here
(pytest would import the ``.py`` file and find the extension already imported under that name).
``tests/rules/rummikub/test_compiled.py`` runs them, and the solver's tests, on the sources."""

from rules.rummikub.partition import COMPILED, compiled

collect_ignore = [f"{name}.py" for name in compiled.MODULES] if COMPILED else []
