"""The moderation tests share the tables' players and clocks."""

from tests.tables.conftest import fast_clocks, users  # noqa: F401
