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

from typing import TypeAlias  # noqa: E402

import numpy as np  # noqa: E402 (after the setting above)
import numpy.typing as npt  # noqa: E402

# Declared aliases: where numpy's types are not known (mypyc compiling without numpy installed), arrays are
# then of type Any rather than an error.
Floats: TypeAlias = npt.NDArray[np.float64]
Ints: TypeAlias = npt.NDArray[np.int64]
Bools: TypeAlias = npt.NDArray[np.bool_]
Bytes: TypeAlias = npt.NDArray[np.int8]

__all__ = ["Bools", "Bytes", "Floats", "Ints", "np", "npt"]
