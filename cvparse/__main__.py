"""``python -m cvparse`` is the ``cvparse`` command."""

import sys

from .cli import main

sys.exit(main())
