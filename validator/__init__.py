"""casino-validator: checks casino table games against the law that governs them."""

import os as _os

__version__ = "0.1.0"

# An installed wheel may hold modules compiled with mypyc (validator/compiled.py); this runs their
# plain Python sources instead, before any of them is imported.
if _os.environ.get("CASINO_VALIDATOR_PURE", "") not in ("", "0"):
    from validator.compiled import prefer_sources as _prefer_sources

    _prefer_sources(__name__)
