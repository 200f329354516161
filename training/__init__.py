"""Training of the learned readers (needs the ``train`` extra: PyTorch; never imported at run time)."""
