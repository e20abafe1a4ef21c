"""The password hashes: an unknown name is checked as slowly as a known one, and no process pays for
that at its start."""

from __future__ import annotations

import subprocess
import sys

from werkzeug.security import check_password_hash, generate_password_hash

from scorekeeper.core import accounts


def test_an_unknown_names_password_is_checked_against_a_hash_made_as_the_stored_ones_are():
    """The dummy hash costs what a stored password's does: the same method and work factor."""
    method = generate_password_hash("any password").split("$")[0]  # werkzeug's default, as hash_password
    assert accounts._DUMMY_HASH.split("$")[0] == method == "scrypt:32768:8:1"
    assert check_password_hash(accounts._DUMMY_HASH, "not a password")  # a real hash, of no one's password
    assert not check_password_hash(accounts._DUMMY_HASH, "x")


def test_importing_the_accounts_module_hashes_nothing():
    """A command or a server worker that never checks a password does not pay a tenth of a second for one."""
    probe = (
        "import hashlib\n"
        "calls = []\n"
        "real = hashlib.scrypt\n"
        "hashlib.scrypt = lambda *a, **k: calls.append(1) or real(*a, **k)\n"
        "import scorekeeper.core.accounts\n"
        "print(len(calls))\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "0"
