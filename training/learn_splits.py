"""Which development splits a trainer learns from (``--learn``): torch-free, so the tests check it.

Session 7 of issue 32: the shipped nets may learn from ``fit`` and ``val``; ``calib`` fits temperature and
threshold and is the one real split no shipped net learns from, so it is refused.
"""

from __future__ import annotations

import argparse

LEARNABLE = ("fit", "val")


def learned_splits(text: str) -> tuple[str, ...]:
    """The splits of a ``--learn`` value (comma-separated, in ``LEARNABLE``'s order, once each).

    >>> learned_splits("val,fit")
    ('fit', 'val')
    >>> learned_splits("fit")
    ('fit',)
    >>> learned_splits("fit,calib")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    argparse.ArgumentTypeError: calib is never learned from: ...
    """
    names = [name.strip() for name in text.split(",") if name.strip()]
    if "calib" in names:
        raise argparse.ArgumentTypeError(
            "calib is never learned from: it fits temperature and threshold and is the split reported "
            "as unseen"
        )
    unknown = sorted({name for name in names if name not in LEARNABLE})
    if unknown:
        raise argparse.ArgumentTypeError(
            f"no split {', '.join(unknown)}: learn from {' and/or '.join(LEARNABLE)}"
        )
    if "fit" not in names:
        raise argparse.ArgumentTypeError(f"{text!r}: fit is always learned from (e.g. fit or fit,val)")
    return tuple(name for name in LEARNABLE if name in names)


def learned_phrase(splits: tuple[str, ...]) -> str:
    """How a models' notice says what they learned from.

    >>> learned_phrase(("fit", "val"))
    'the "fit" and "val" splits'
    >>> learned_phrase(("fit",))
    'the "fit" split'
    """
    quoted = [f'"{name}"' for name in splits]
    return f"the {' and '.join(quoted)} split{'s' if len(quoted) > 1 else ''}"
