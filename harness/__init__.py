"""pokercert.harness: adapters, the runner and results store, the explorers, the self-check."""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("pokercert")
except PackageNotFoundError:  # running from a checkout that was never installed
    __version__ = "0+unknown"
