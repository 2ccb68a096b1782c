"""``--digits`` for the subcommands that still import it from here (``pool``, ``labels``,
``report``); the option and its rule live in :mod:`irscale.cli.options`. To be removed
once they import from there."""

from .options import add_digits as add_digits
from .options import check_digits_option as check_digits_option
