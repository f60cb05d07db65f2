"""The Python examples of the READMEs are doctests: python/README.md's
tour (the seeds' examples: Bouton's 9 5 12, the AMS column's 37 20 29,
Beardon's game, Kayles' period, a misère quotient) and the top README's
section on the package run as written.  CPU budget: about 1 s."""
import doctest
import os

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))


@pytest.mark.parametrize("path,least", [
    (os.path.join(HERE, "..", "README.md"), 20),
    (os.path.join(HERE, "..", "..", "README.md"), 3),
])
def test_readme_examples(path, least):
    r = doctest.testfile(path, module_relative=False, report=True,
                         optionflags=doctest.ELLIPSIS)
    assert r.attempted >= least
    assert r.failed == 0, "%d of %d examples of %s failed" % (
        r.failed, r.attempted, path)
