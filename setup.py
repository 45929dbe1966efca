"""The build step pyproject.toml cannot express: the translation catalogues are compiled.

Every ``src/rollbook/i18n/locale/<lang>/LC_MESSAGES/<domain>.po`` is compiled to its ``.mo``
beside it by Babel's own ``compile_catalog`` command, before the package's files are collected,
so a wheel, ``pip install .`` and ``pip install -e .`` all ship the compiled catalogues the
runtime loads. A domain is any ``*.po`` found there: a new one needs no change here.
"""

from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

LOCALE_DIR = Path(__file__).resolve().parent / "src" / "rollbook" / "i18n" / "locale"


class build_py_with_catalogues(build_py):  # noqa: N801 - setuptools' command naming
    def run(self):
        compile_catalogues(self.distribution)
        super().run()


def compile_catalogues(distribution) -> None:
    from babel.messages.setuptools_frontend import compile_catalog

    domains = sorted({po.stem for po in LOCALE_DIR.glob("*/LC_MESSAGES/*.po")})
    if not domains:
        return
    command = compile_catalog(distribution)
    command.initialize_options()
    command.directory = str(LOCALE_DIR)
    command.domain = " ".join(domains)
    command.finalize_options()
    if command.run():
        raise SystemExit(f"rollbook: the catalogues in {LOCALE_DIR} have errors (see above); nothing was built")


setup(cmdclass={"build_py": build_py_with_catalogues})
