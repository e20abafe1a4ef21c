"""Flask extensions, created once and bound to the app in the factory."""

from flask_wtf import CSRFProtect

csrf = CSRFProtect()
