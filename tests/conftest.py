"""Shared fixtures: the shipped recogniser, loaded once per test run."""

import pytest


@pytest.fixture(scope="session")
def recognizer():
    from sisepai.vision.recognize import Recognizer

    return Recognizer.load()
