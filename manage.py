#!/usr/bin/env python3
"""Thin command line over the app: ``python manage.py --help``."""

import sys

from scorekeeper.cli import main

if __name__ == "__main__":
    sys.exit(main())
