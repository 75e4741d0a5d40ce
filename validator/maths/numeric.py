"""numpy, as the mathematics uses it: its linear algebra (BLAS) on one thread.

The products of the dealer's drawing are matrix products small enough that threads only add processor
time (OpenBLAS's threads wait for work by spinning: on a busy machine, twice the processor time for the
same figures). The setting must come before numpy is first imported, so every module of the mathematics
imports numpy from here; a user's own setting (the variables already set) is kept.
"""

from __future__ import annotations

import os

for _name in ("OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_name, "1")

import numpy as np  # noqa: E402 (after the setting above)
import numpy.typing as npt  # noqa: E402

Floats = npt.NDArray[np.float64]
Ints = npt.NDArray[np.int64]
Bools = npt.NDArray[np.bool_]

__all__ = ["Bools", "Floats", "Ints", "np", "npt"]
