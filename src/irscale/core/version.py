"""irscale's version: the engine's (``rust/Cargo.toml`` holds the one version number, which
maturin writes into the package's metadata and the engine hands over), for the modules
that print or key on it; ``irscale.__version__`` is the same."""

from .._engine import __version__

__all__ = ["__version__"]
