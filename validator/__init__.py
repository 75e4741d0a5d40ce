"""casino-validator: checks casino table games against the law that governs them."""

__version__ = "0.1.0"
