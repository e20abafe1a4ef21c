"""Importing a file once: the one transaction every import of a file with a uid goes through."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from sqlalchemy.exc import IntegrityError
from sqlmodel import Session

T = TypeVar("T")


def import_once(*, db: Session, write: Callable[[], tuple[T, bool]], find: Callable[[], T | None]) -> tuple[T, bool]:
    """``write()`` what a checked file holds, unless it is there already, and commit: ``(what, created)``.

    ``write`` returns what it wrote with ``created`` True, or what was there already (the same uid)
    with False, and then nothing is committed. Where another import wrote the same uid meanwhile
    (an ``IntegrityError`` at the write), ``find()`` looks it up and it comes back with False.
    On any error nothing is written: the session is rolled back, with whatever else it held.
    """
    try:
        try:
            made, created = write()
            if created:
                db.commit()
            return made, created
        except IntegrityError:
            db.rollback()
            existing = find()  # another import wrote it meanwhile
            if existing is None:
                raise
            return existing, False
    except BaseException:
        db.rollback()
        raise
