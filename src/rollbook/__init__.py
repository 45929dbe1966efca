"""rollbook: dice and rules engine with checkable receipts."""

__version__ = "0.1.0"
