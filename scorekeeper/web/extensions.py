"""Every Flask extension, created once here and bound to the app in the factory (``web.app``)."""

from flask_babel import Babel
from flask_login import LoginManager
from flask_wtf import CSRFProtect

csrf = CSRFProtect()
login_manager = LoginManager()
babel = Babel()
