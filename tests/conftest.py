"""Shared fixtures: the shipped recogniser, loaded once per test run."""

import os

import pytest


@pytest.fixture(scope="session")
def recognizer():
    from sisepai.vision.recognition.recognize import Recognizer

    return Recognizer.load()


@pytest.fixture(scope="session")
def postgres_server():
    """A PostgreSQL server of the tests' own (``tests/postgres.py``), started once and stopped at
    the end; the tests that need one skip, saying why, where it cannot start."""
    pytest.importorskip("psycopg", reason="the PostgreSQL driver is not installed (pip install 'psycopg[binary]')")
    from tests.postgres import NoPostgres, TemporaryPostgres

    server = TemporaryPostgres()
    try:
        server.start()
    except NoPostgres as exc:
        if os.environ.get("SISEPAI_REQUIRE_POSTGRES"):  # CI (.ci/run): the club ledger's tests must run
            pytest.fail(f"SISEPAI_REQUIRE_POSTGRES is set and no PostgreSQL server could start: {exc}")
        pytest.skip(f"no PostgreSQL server for these tests: {exc}")
    yield server
    server.stop()


@pytest.fixture
def postgres_url(postgres_server, request):
    """A fresh, empty database on the tests' PostgreSQL server, one per test."""
    import re

    return postgres_server.fresh_database("t_" + re.sub(r"\W", "_", request.node.name)[:50].lower())
