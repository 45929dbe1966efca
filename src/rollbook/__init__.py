"""rollbook: dice and rules engine with checkable receipts."""

from importlib.metadata import PackageNotFoundError, version

try:
    # the one place the version is written is pyproject.toml; the installed package's metadata carries it
    __version__ = version("rollbook")
except PackageNotFoundError:  # pragma: no cover - a checkout on sys.path without installing
    __version__ = "0+unknown"
