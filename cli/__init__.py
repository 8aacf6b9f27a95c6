"""pokercert.cli: the ``pokercert`` command line, the only layer that turns errors into
exit codes.  Entry point: :func:`pokercert.cli.main.main`; one module per command group."""
