"""The native engine (``rust/``, compiled by maturin): its functions as Python sees them."""

__version__: str

def build_info() -> tuple[str, bool]:
    """The crate's name and whether it was compiled with optimisations."""
