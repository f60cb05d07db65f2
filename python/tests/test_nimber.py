"""The nimber operations against Conway's definition and the field's laws:
a brute force from the definition (a*b = mex of a'*b + a*b' + a'*b' over
a' < a, b' < b, with + the nim-sum) on every pair below 32, Conway's rules
on Fermat 2-powers at sizes no table reaches, and the laws of a field on
random numbers of a few thousand bits.  CPU budget: about 2 s."""
import functools
import random

import pytest

import bouton
from bouton import Nimber


@functools.lru_cache(maxsize=None)
def conway(a, b):
    """The nim-product from its definition (On Numbers and Games, ch. 6)."""
    seen = {conway(x, b) ^ conway(a, y) ^ conway(x, y)
            for x in range(a) for y in range(b)}
    m = 0
    while m in seen:
        m += 1
    return m


def test_products_below_32_are_conways():
    for a in range(32):
        for b in range(32):
            assert bouton.nimber_mul(a, b) == conway(a, b), (a, b)


def test_fermat_powers():
    # F * F = 3F/2, x * F = x F for x < F (F = 2^(2^k)), up to 2^1024.
    rng = random.Random(1)
    for k in range(11):
        f = 1 << (1 << k)
        assert bouton.nimber_mul(f, f) == 3 * f // 2
        x = rng.randrange(1, f)
        assert bouton.nimber_mul(x, f) == x * f


@pytest.mark.parametrize("bits", [7, 64, 300, 2048])
def test_field_laws(bits):
    rng = random.Random(bits)
    for _ in range(6):
        x, y, z = (Nimber(rng.getrandbits(bits) | 1) for _ in range(3))
        assert x * y == y * x
        assert (x * y) * z == x * (y * z)
        assert x * (y + z) == x * y + x * z
        assert x * x.inverse() == 1 and x / x == 1
        assert x.sqrt() * x.sqrt() == x
        assert x ** 3 == x * x * x and x ** -2 == (x * x).inverse()
        assert x - y == x + y and -x == x


def test_order_log_and_explain():
    g = Nimber(2)
    n = g.order()
    assert g ** n == 1 and (2 ** 64 - 1) % n == 0
    x = g ** 12345
    assert bouton.nimber_log(2, int(x)) == 12345 % n
    assert "16" in bouton.nimber_explain(16, 16) or \
        bouton.nimber_explain(16, 16)
    assert repr(Nimber(5)) == "Nimber(5)" and Nimber(2) * 2 == 3


def test_nimber_errors():
    with pytest.raises(bouton.ArgumentError):
        bouton.nimber_inv(0)
    with pytest.raises(bouton.ArgumentError):
        bouton.nimber_mul(-1, 3)
    with pytest.raises(bouton.RangeError):
        bouton.nimber_order(2 ** 64)
    with pytest.raises(bouton.LimitError):
        bouton.nimber_explain(1000, 3)
    with pytest.raises(bouton.LimitError):
        bouton.nimber_mul(10 ** 50, 3, max_digits=10)
    with pytest.raises(ValueError):
        Nimber(-2)
