"""The ``irscale`` command line: one module per subcommand (see :mod:`irscale.cli.main`)."""
