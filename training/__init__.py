"""The workshop: training of the learned readers (needs the ``train`` extra: PyTorch).

Not part of the runtime package the Pi installs (``pyproject.toml`` packages ``rules``, ``vision``,
``drivers`` and ``device`` only); never imported at run time. What it writes (``vision/models``,
``vision/data``) is what the readers load. The commands: ``docs/data.md``.
"""
