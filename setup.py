"""The build's one custom step: a built package carries the pages, the styles and compiled translations.

``templates/`` and ``static/`` live at the top of the checkout; a wheel ships them inside the package
(``scorekeeper/templates``, ``scorekeeper/static``), where the app looks when there is no checkout
around it. The German catalog is compiled to ``messages.mo`` here, at build time, so the installed
package is never written to at run time. Everything else is in pyproject.toml.
"""

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent


class BuildWithAssets(build_py):
    def run(self) -> None:
        super().run()
        from babel.messages.mofile import write_mo
        from babel.messages.pofile import read_po

        package = Path(self.build_lib) / "scorekeeper"
        for folder in ("templates", "static"):
            shutil.copytree(HERE / folder, package / folder, dirs_exist_ok=True)
        for po in (HERE / "scorekeeper" / "translations").glob("*/LC_MESSAGES/messages.po"):
            mo = package / po.relative_to(HERE / "scorekeeper").with_suffix(".mo")
            mo.parent.mkdir(parents=True, exist_ok=True)
            with po.open("rb") as source, mo.open("wb") as target:
                write_mo(target, read_po(source))


setup(cmdclass={"build_py": BuildWithAssets})
