"""``python -m fairness``: the core's own command line (fairness/core.py ``main``)."""

import sys

from fairness.core import main

sys.exit(main())
