"""The social tests share the tables' players."""

from tests.tables.conftest import users  # noqa: F401
