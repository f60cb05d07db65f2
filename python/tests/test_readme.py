"""python/README.md is a doctest: its tour runs as written (the seeds'
examples: Bouton's 9 5 12, the AMS column's 37 20 29, Beardon's game,
Kayles' period, a misère quotient).  CPU budget: about 1 s."""
import doctest
import os


def test_readme_examples():
    path = os.path.join(os.path.dirname(__file__), "..", "README.md")
    r = doctest.testfile(path, module_relative=False, report=True,
                         optionflags=doctest.ELLIPSIS)
    assert r.attempted > 20
    assert r.failed == 0, "%d of %d README examples failed" % (r.failed,
                                                              r.attempted)
