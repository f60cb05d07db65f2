"""Shared fixtures: the `bouton` program the package is checked against
(BOUTON_CLI, set by the ctest that runs this suite), and a seeded random
generator (BOUTON_TEST_SEED, printed when a test fails)."""
import os
import random
import shutil

import pytest


def pytest_report_header(config):
    return "bouton: BOUTON_CLI=%s BOUTON_TEST_SEED=%s" % (
        os.environ.get("BOUTON_CLI"), os.environ.get("BOUTON_TEST_SEED"))


@pytest.fixture(scope="session")
def cli():
    path = os.environ.get("BOUTON_CLI") or shutil.which("bouton")
    if not path or not os.access(path, os.X_OK):
        pytest.skip("no bouton program (set BOUTON_CLI)")
    return path


@pytest.fixture
def rng(request):
    seed = int(os.environ.get("BOUTON_TEST_SEED") or random.randrange(1 << 32))
    request.node.user_properties.append(("seed", seed))
    r = random.Random(seed)
    r.seed_value = seed
    return r
