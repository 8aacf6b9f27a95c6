"""``python -m pokercert.cli``: the ``pokercert`` command."""

import sys

from pokercert.cli.main import main

sys.exit(main())
