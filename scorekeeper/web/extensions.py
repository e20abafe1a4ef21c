"""Every Flask extension, created once here and bound to the app in the factory (``web.app``)."""

from flask_babel import Babel
from flask_compress import Compress
from flask_login import LoginManager
from flask_wtf import CSRFProtect

csrf = CSRFProtect()
login_manager = LoginManager()
babel = Babel()
compress = Compress()  # gzip or brotli for pages and JSON (settings in web/app.py)
