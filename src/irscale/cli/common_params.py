"""The arguments many subcommands share and no Python function takes, declared once
(:class:`~irscale.core.params.Param`) and built by :func:`irscale.cli.options.add_param`:
the help is the doc, the default stated the same way everywhere."""

from __future__ import annotations

from ..core.params import Param, Switch, Text

#: ``-o/--output FILE``: where a command writes (``-``: standard output).
OUTPUT = Param("output", Text(), "-", "write the output to FILE; an existing file is never "
               "replaced without --force", ("-o", "--output"), "FILE",
               unset="standard output")
#: ``--force``: replace the outputs that exist (never an input of the call).
FORCE = Param("force", Switch(), False, "replace output files that exist already (inputs "
              "never are)", ("--force",))
#: ``--no-progress``: no estimate and no progress on standard error.
NO_PROGRESS = Param("no_progress", Switch(), False, "no estimate and no progress on standard "
                    "error (default: for long work, a bar on a terminal, else a plain line "
                    "every 30 s and 10%)", ("--no-progress",))
#: ``--scheduler ADDRESS``: a Dask cluster (checked when the command starts).
SCHEDULER = Param("scheduler", Text(), None, "run {what} on a Dask cluster: tcp://HOST:PORT (a "
                  "running scheduler) or local:N (N worker processes on this machine); needs "
                  "the irscale[dask] extra; same results", ("--scheduler",), "ADDRESS",
                  unset="threads of this process")
