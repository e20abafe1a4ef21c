#!/usr/bin/env python3
"""The command line of a checkout: the club's commands (``scorekeeper``) and the development
tools' (``bench``, ``demo``): ``python manage.py --help``."""

import sys

from tools.commands import main

if __name__ == "__main__":
    sys.exit(main())
