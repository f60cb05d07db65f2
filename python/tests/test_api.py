"""Every public function of the package, on the seeds' published examples
and on what the C library's contract says (its own tests check the
mathematics; these check that the binding passes it through).
CPU budget: about 4 s (the two leak loops take most of it)."""
import fractions
import math
import os
import gc
import sys
import time
import xml.etree.ElementTree as ET

import pytest

import bouton


def test_bouton_9_5_12_is_safe():
    # Bouton (1901/02), sec. 2: 9, 5, 12 is a safe combination.
    a = bouton.Position("nim 9 5 12").analyze()
    assert a.outcome == "P" and a.grundy == 0 and a.winning_moves == []
    assert a.winner == "previous"
    assert "9" in a.explain() and a.remoteness == 26


def test_ams_column_37_20_29():
    a = bouton.Position.nim([37, 20, 29]).analyze()
    assert a.outcome == "N" and a.grundy == 37 ^ 20 ^ 29
    (m,) = a.winning_moves
    assert (m.component, m.to) == (0, (20 ^ 29,))
    after = m.apply()
    assert after == bouton.Position("nim 9 20 29")
    assert after.analyze().outcome == "P"


def test_beardon_41_163_13():
    p = bouton.Position("41 163 13")          # default game: nim
    a = p.analyze()
    assert [(m.component, m.to) for m in a.winning_moves] == [(1, (41 ^ 13,))]
    assert a.winning_moves[0].text == "take 127 from pile 2"


def test_kayles_period():
    s = bouton.grundy_sequence("kayles", until_proved=True)
    assert (s.period, s.preperiod, s.proved) == (12, 71, True)
    assert s.game.spec == "octal:0.77"
    # G(n) for a heap of any size through the proved period.
    n = 10 ** 40 + 5
    assert s.value_at(n) == s[71 + (n - 71) % 12]


def test_sum_of_families_and_components():
    p = bouton.Position("nim 3 4 5 + wythoff 3 5 + kayles 10")
    assert len(p) == 5
    assert p.components[3] == ("wythoff", (3, 5))
    assert p.games == ["nim", "wythoff", "octal:0.77"]
    a = p.analyze()
    assert a.component_grundy == [3, 4, 5, 0, 2]
    assert a.grundy == 3 ^ 4 ^ 5 ^ 0 ^ 2 and a.outcome == "P"
    q = bouton.Position("nim 3") + bouton.Position.wythoff(1, 2)
    assert str(q) == "nim 3 + wythoff 1 2"


def test_constructors():
    assert bouton.Position.of("kayles", [10, 12]) == \
        bouton.Position("10 12", game="kayles")
    assert bouton.Position.of(bouton.Game("wythoff:2"), [(3, 5)]) == \
        bouton.Position("wythoff:2 3 5")
    assert bouton.Game("kayles").position(4) == bouton.Position("kayles 4")
    assert len(bouton.Position()) == 0
    assert bouton.Position() + bouton.Position("nim 2") == bouton.Position("nim 2")
    assert bouton.Position.of("moore:2", [(3, 5, 6)]).components == \
        [("moore:2", (3, 5, 6))]


def test_game():
    g = bouton.Game("wythoff:2")
    assert (g.spec, g.family, g.arity) == ("wythoff:2", "wythoff", 2)
    assert "Wythoff" in g.rules
    assert bouton.Game("kayles") == bouton.Game("octal:0.77")
    assert bouton.Game("moore:3").arity == 0
    names = [f["name"] for f in bouton.games()]
    assert {"nim", "wythoff", "sub", "octal", "grundy", "moore"} <= set(names)
    # how a front end draws each game
    assert (g.board, g.first_coin) == ("piles", ())
    assert (bouton.Game("mock-turtles").board,
            bouton.Game("mock-turtles").first_coin) == ("row", (0,))
    assert (bouton.Game("tartan:ruler*twins").board,
            bouton.Game("tartan:ruler*twins").first_coin) == ("grid", (1, 0))
    boards = {f["name"]: f["board"] for f in bouton.games()}
    assert boards["nim"] == "piles" and boards["turtles"] == "row"
    assert boards["corners"] == "grid"


def test_huge_integers_round_trip():
    big = [3 ** 2000, 2 ** 4000 + 1, 7 ** 1500]
    p = bouton.Position.nim(big)
    assert [n for _, (n,) in p.components] == big
    a = p.analyze(remoteness=False)
    assert a.grundy == big[0] ^ big[1] ^ big[2]
    for m in a.winning_moves:
        after = list(big)
        after[m.component] = m.to[0]
        assert after[0] ^ after[1] ^ after[2] == 0
    # Decimal text of more digits than Python's own str() limit.
    text = "nim " + "9" * 6000
    assert bouton.Position(text).components[0][1][0] == int("9" * 6000) \
        if sys.get_int_max_str_digits() == 0 else True
    assert bouton.nim_sum(2 ** 100000, 1) == 2 ** 100000 + 1
    lo, hi = bouton.wythoff_pair(10 ** 60)
    assert hi - lo == 10 ** 60
    n, member, lo2, hi2 = bouton.wythoff_index(hi)
    assert (n, member, lo2, hi2) == (10 ** 60, "upper", lo, hi)


def test_moves_and_move_to():
    p = bouton.Position("nim 1 2")
    ms = p.moves()
    assert sorted((m.component, m.to) for m in ms) == \
        [(0, (0,)), (1, (0,)), (1, (1,))]
    m = p.move_to("nim 1 1")
    assert (m.component, m.to) == (1, (1,))
    with pytest.raises(bouton.ArgumentError):
        p.move_to("nim 2 2")
    assert bouton.Position("nim 0 0").is_terminal
    assert not p.is_terminal


def test_misere():
    a = bouton.Position("nim 1 1 2").analyze(misere=True)
    assert a.outcome == "N" and a.grundy is None and a.misere
    assert [(m.component, m.to) for m in a.winning_moves] == [(2, (1,))]
    assert bouton.Position("nim 1 1 1").analyze(misere=True).outcome == "P"


def test_grundy_sequence_buffer():
    s = bouton.grundy_sequence("octal:0.6", upto=20)
    assert list(s) == [0, 0, 1, 2, 0, 1, 2, 3, 1, 2, 3, 4, 0, 3, 4, 2, 1, 3,
                       2, 1]
    mv = memoryview(s)
    assert (mv.format, mv.itemsize, mv.shape, mv.readonly) == \
        ("H", 2, (20,), True)
    assert mv.tolist() == list(s)
    with pytest.raises(BufferError):
        s.compute(40)        # the view holds the values
    mv.release()
    s.compute(40)
    assert len(s) >= 40 and s.period is None or isinstance(s.period, int)
    with pytest.raises(IndexError):
        s[len(s)]
    with pytest.raises(bouton.RangeError):
        bouton.grundy_sequence("grundy", upto=10).value_at(10 ** 9)
    # The plot is an inline SVG that parses, with one line per period
    # boundary once a period is known.
    k = bouton.grundy_sequence("kayles", upto=200)
    svg = ET.fromstring(k._repr_html_())
    assert svg.tag.endswith("svg")
    lines = [e for e in svg if e.tag == "{http://www.w3.org/2000/svg}line"]
    assert len(lines) == len(range(71, min(len(k), 2048), 12))
    assert isinstance(s.values(), (memoryview,)) or s.values().dtype.itemsize == 2


def test_grundy_sequence_buffer_widths():
    # The engine keeps one byte a value while every value is below 256 (a
    # view is then a uint16 copy) and two from the first that is not (the
    # view is the engine's table): the same buffer either way.
    for upto in (200, 1500):
        s = bouton.grundy_sequence("sub:1-1000", upto=upto)
        with memoryview(s) as mv:
            assert (mv.format, mv.itemsize) == ("H", 2)
            assert mv.tolist() == [n % 1001 for n in range(upto)]
            with memoryview(s) as again:    # a second view of the same
                assert again.tolist() == mv.tolist()
        s.compute(upto + 10)              # released: computing goes on
        assert list(s)[-1] == (len(s) - 1) % 1001


def test_grundy_sequence_numpy():
    np = pytest.importorskip("numpy")
    s = bouton.grundy_sequence("kayles", upto=100)
    a = np.asarray(s)
    assert a.dtype == np.uint16 and a.tolist() == list(s)
    assert not a.flags.writeable


def test_grundy_sequence_threads_same_values():
    one = bouton.grundy_sequence("octal:0.007", upto=3000)
    many = bouton.grundy_sequence("octal:0.007", upto=3000, threads=4)
    assert many.threads == 4
    assert 1 <= many.threads_used <= 4
    assert list(many)[:3000] == list(one)[:3000]
    plain = bouton.grundy_sequence("octal:0.007", upto=3000, method="plain")
    assert list(plain)[:3000] == list(one)[:3000]


def test_table_iterator():
    rows = list(bouton.table("nim", piles=3, min=1, below=16))
    assert len(rows) == 35                      # Bouton, sec. 3
    assert all(a ^ b ^ c == 0 and a <= b <= c for a, b, c in rows)
    it = bouton.table("wythoff", piles=1, min=0, below=30)
    assert next(it) == (0, 0) and next(it) == (1, 2)
    assert iter(it) is it


def test_count():
    c = bouton.count("nim", 3, 1, 15)
    assert (c.positions, c.p_positions) == (680, 35)
    assert c.probability == fractions.Fraction(35, 680)
    big = bouton.count("nim", 4, 0, 2 ** 200, ordered=True)
    assert big.positions == (2 ** 200 + 1) ** 4
    with pytest.raises(bouton.UndefinedError):
        bouton.count("kayles", 3, 0, 10)


def test_quotient():
    q = bouton.quotient("octal:0.75", 200, until_proved=True)
    assert q.proved and q.order == 8 and len(q.p_portion) == 2
    assert q.mul(0, 3) == 3 and q.word(0) == "1"
    assert q.heap(10 ** 30) == q.heap(q.preperiod + (10 ** 30 - q.preperiod)
                                      % q.period)
    x = q.element("octal:0.75 1 1")
    assert q.is_p(x) == (bouton.Position("octal:0.75 1 1")
                         .analyze(misere=True).outcome == "P")
    assert len(list(q)) == q.order
    again = bouton.load_quotient(q.save())
    assert (again.order, again.relations) == (q.order, q.relations)
    nim = bouton.quotient("nim", 7)
    assert nim.tame and nim.order == 2 ** 3 + 2
    with pytest.raises(bouton.ParseError):
        bouton.load_quotient("not a quotient")
    assert "order" in q._repr_html_()


def test_opponent_and_remoteness():
    m = bouton.opponent_move("nim 1 2 4")
    assert m.rule == "remoteness" and m.outcome == "N"
    assert m.apply().analyze().outcome == "P"
    assert bouton.remoteness("nim 9 5 12") == 26
    assert bouton.Position("nim 1 2 3").remoteness() == 6
    # The same seed, the same random move at level easy.
    a = bouton.opponent_move("nim 5 6 7 8 9", level="easy", seed=7)
    b = bouton.opponent_move("nim 5 6 7 8 9", level="easy", seed=7)
    assert (a.component, a.to, a.seed) == (b.component, b.to, b.seed)
    with pytest.raises(bouton.ParseError):
        bouton.opponent_move("nim 1 2", level="grandmaster")
    with pytest.raises(bouton.ArgumentError):
        bouton.opponent_move("nim 0 0")


def test_random_position():
    a = bouton.random_position("kayles", 5, 1, 30, seed=42)
    b = bouton.Position.random("kayles", 5, 1, 30, seed=42)
    assert a == b and len(a) == 5
    assert all(1 <= n[0] <= 30 for _, n in a.components)


def test_record():
    r = bouton.Record("nim 41 163 13")
    r.play(r.current.analyze().winning_moves[0])
    r.play("nim 25 36 13")
    assert len(r) == 2 and r.player() == "A" and r.winner is None
    r["A"] = "you"
    text = str(r)
    assert "(41,163,13)" in text and "-A-> (41,36,13)" in text
    back = bouton.Record.parse(text)
    assert len(back) == 2 and back["A"] == "you"
    assert back.positions[1] == bouton.Position("nim 41 36 13")
    with pytest.raises(bouton.ArgumentError):
        r.play("nim 26 36 14")
    r.undo(2)
    assert len(r) == 0
    with pytest.raises(bouton.ParseError):
        bouton.Record.parse("(1,2)\n-A-> (3,3)\n")


def test_errors_carry_status_and_offset():
    with pytest.raises(bouton.ParseError) as e:
        bouton.Position("nim 3 x")
    assert e.value.status == "EPARSE" and e.value.offset == 6
    assert "'x'" in str(e.value)
    assert isinstance(e.value, ValueError) and isinstance(e.value, bouton.Error)
    with pytest.raises(bouton.ParseError):
        bouton.Game("no-such-game")
    with pytest.raises(bouton.LimitError) as e:
        bouton.Position("nim " + "9" * 50, max_digits=10)
    assert e.value.status == "ELIMIT"
    with pytest.raises(bouton.LimitError):
        bouton.Position("kayles 10 11 12 13 14 15").analyze(
            misere=True, max_search=10)
    with pytest.raises(bouton.ArgumentError):
        bouton.grundy_sequence("wythoff", upto=10)
    with pytest.raises(bouton.RangeError):
        bouton.Position("wythoff 5000 9000 + nim 1").analyze()
    with pytest.raises(TypeError):
        bouton.Position("nim 1").analyze(max_serch=3)
    with pytest.raises(ValueError, match="max_search must be an int"):
        bouton.Position("nim 1").analyze(max_search=-3)
    with pytest.raises(ValueError, match="timeout"):
        bouton.Position("nim 1").analyze(timeout=-1)
    with pytest.raises(TypeError, match="component 2 is '4'"):
        bouton.Position.nim([3, "4"])
    with pytest.raises(TypeError, match=r"component 1 is \(3, 'x'\)"):
        bouton.Position.of("wythoff", [(3, "x")])
    with pytest.raises(TypeError):
        bouton.Position(3)
    with pytest.raises(bouton.ArgumentError):
        bouton.Position.nim([-1])
    with pytest.raises(ValueError):
        bouton.nim_sum(-1, 2)


def test_timeout_stops_a_long_run():
    with pytest.raises(bouton.InterruptError) as e:
        bouton.grundy_sequence("grundy", upto=10 ** 6, method="plain",
                               timeout=0.2)
    assert e.value.status == "EINTR" and isinstance(e.value, TimeoutError)


def test_html():
    h = bouton.Position("nim 9 5 12").analyze()._repr_html_()
    assert "nim-sum" in h and "<table" in h
    h = bouton.Position("wythoff 3 5 + nim 2").analyze()._repr_html_()
    assert "Wythoff" in h and "(3, 5)" in h


def test_no_leak_in_a_loop():
    """Reference counts: the objects the package makes are freed (a loop
    of every kind of call leaves no Python object behind)."""
    def once():
        p = bouton.Position("nim 3 4 5 + kayles 7 + wythoff 2 3")
        a = p.analyze()
        [m.apply() for m in a.winning_moves]
        p.moves()
        s = bouton.grundy_sequence("kayles", upto=50)
        memoryview(s).tolist()
        list(bouton.table("nim", 2, 0, 8))
        bouton.count("nim", 2, 0, 7)
        try:
            bouton.Position("nim x")
        except bouton.ParseError:
            pass
        r = bouton.Record("nim 1 2")
        r.play("nim 1 1")
        str(r)
        bouton.quotient("octal:0.75", 6)
    for _ in range(20):
        once()
    gc.collect()
    before = len(gc.get_objects())
    for _ in range(100):
        once()
    gc.collect()
    assert len(gc.get_objects()) - before < 50


def _rss_kib():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * (os.sysconf("SC_PAGE_SIZE") // 1024)


@pytest.mark.skipif(not os.path.exists("/proc/self/statm"),
                    reason="no /proc/self/statm")
def test_no_leak_of_numbers():
    """The C side frees what it converts: 200 rounds of numbers of 30 000
    digits in and out would leak some 25 MiB if one of them stayed."""
    big = [7 ** 35000, 3 ** 60000 + 1]

    def once():
        p = bouton.Position.nim(big)
        a = p.analyze(remoteness=False)
        [m.to for m in a.winning_moves]
        p.components
        str(p)
        bouton.nim_sum(*big)
        try:
            bouton.Position.nim([-big[0]])
        except bouton.ArgumentError:
            pass
    for _ in range(20):
        once()
    gc.collect()
    before = _rss_kib()
    for _ in range(200):
        once()
    gc.collect()
    assert _rss_kib() - before < 8 * 1024


def test_the_rest_of_the_api():
    assert list(bouton.grundy_sequence("sub:1-3", upto=10)) == \
        [n % 4 for n in range(10)]
    g = bouton.Game("kayles")
    s = g.grundy_sequence(upto=10)
    assert not s.proved and len(s) == 10
    s.prove(1000)
    assert s.proved and (s.period, s.preperiod) == (12, 71)
    assert s.value_at(10 ** 50 + 3) == s[71 + (10 ** 50 + 3 - 71) % 12]
    assert isinstance(s.method, str) and s.game == g
    # Moves are values: equal when they do the same; positions hash.
    p = bouton.Position("nim 3 3")
    assert set(p.moves()) == set(p.moves()) and len(set(p.moves())) == 6
    assert len({p, bouton.Position("nim 3 3"), bouton.Position("nim 3")}) == 2
    positions, safe = bouton.count("nim", 2, 0, 3)
    assert (positions, safe) == (10, 4)
    assert bouton.count("nim", 3, 1, 15, misere=True).p_positions > 0
    assert list(bouton.table("nim", 2, 0, 3, misere=True)) == [(0, 1), (2, 2)]
    assert bouton.wythoff_pair(0, misere=True) == (0, 1)
    # a = 2: alpha = sqrt(2), the pair (floor(n sqrt 2), that + 2n).
    n = 10 ** 20
    lo = math.isqrt(2 * n * n)
    assert bouton.wythoff_pair(n, game="wythoff:2") == (lo, lo + 2 * n)
    r = bouton.Record("nim 2 2", misere=True, first="B")
    assert r.misere and r.player() == "B" and r.player(0) == "B"
    r.play("nim 2 1")
    (m,) = r.moves
    assert (m.component, m.to) == (1, (1,))
    assert r.positions[0] == bouton.Position("nim 2 2")
    assert "misère" in str(r) or "misere" in str(r)
    a = bouton.Position("nim 1").analyze()
    assert a.winner == "next" and "Analysis" in repr(a)
    assert "GrundySequence" in repr(s) and "Quotient" in repr(
        bouton.quotient("nim", 3))


def test_wythoff_grundy_table():
    t = bouton.wythoff_grundy_table(30)
    assert (t.format, t.shape) == ("H", (30, 30))
    for x, y in ((3, 5), (7, 2), (29, 11), (0, 0)):
        a = bouton.Position.wythoff(x, y).analyze(remoteness=False)
        assert t[x, y] == t[y, x] == a.grundy
    with pytest.raises(bouton.LimitError):
        bouton.wythoff_grundy_table(1000, max_memory=1000)
    with pytest.raises(bouton.ArgumentError):
        bouton.wythoff_grundy_table(10, game="nim")


def test_pickle():
    """Values cross process boundaries (multiprocessing): positions and
    games as their texts, records and quotients as theirs, sequences
    computed again."""
    import pickle
    p = bouton.Position("nim 3 4 5 + wythoff 3 5 + kayles 10 " +
                        str(10 ** 50))
    a = p.analyze(remoteness=False)
    r = bouton.Record("nim 1 2")
    r.play("nim 1 1")
    q = bouton.quotient("octal:0.75", 200, until_proved=True)
    s = bouton.grundy_sequence("kayles", until_proved=True)
    for x in (p, bouton.Game("wythoff:2"), a.winning_moves[0]
              if a.winning_moves else p.moves()[0]):
        assert pickle.loads(pickle.dumps(x)) == x
    b = pickle.loads(pickle.dumps(a))
    assert (b.outcome, b.grundy, b.position) == (a.outcome, a.grundy, p)
    assert str(pickle.loads(pickle.dumps(r))) == str(r)
    q2 = pickle.loads(pickle.dumps(q))
    assert (q2.order, q2.relations, q2.period) == (q.order, q.relations,
                                                   q.period)
    s2 = pickle.loads(pickle.dumps(s))
    assert list(s2)[:len(s)] == list(s) and s2.proved


def test_installed_quotient_answers_misere_sums():
    """Grundy's game has no misère theorem: past small heaps the analysis
    searches (LimitError past max_search).  Its quotient to 28, installed,
    answers at once, and agrees with the quotient's own P-portion."""
    text = "grundy 27 28 9"
    with pytest.raises(bouton.LimitError):
        bouton.Position(text).analyze(misere=True, remoteness=False,
                                      max_search=1000)
    q = bouton.quotient("grundy", 28)
    q.install()
    t0 = time.process_time()
    a = bouton.Position(text).analyze(misere=True, remoteness=False,
                                      max_search=1000)
    assert time.process_time() - t0 < 2
    assert (a.outcome == "P") == q.is_p(q.element(text))
    for m in a.winning_moves:
        after = m.apply()
        assert q.is_p(q.element(str(after)))


def test_type_hints_cover_the_api():
    """__init__.pyi parses and declares every name of __all__, and every
    public method of the classes (the stub cannot fall behind)."""
    import ast
    import inspect
    path = os.path.join(os.path.dirname(bouton.__file__), "__init__.pyi")
    tree = ast.parse(open(path).read())
    top = {n.name: n for n in tree.body
           if isinstance(n, (ast.FunctionDef, ast.ClassDef))}
    assert [n for n in bouton.__all__ if n not in top and n != "LIMITS"] == []
    for name, node in top.items():
        if not isinstance(node, ast.ClassDef) or name.endswith("Error"):
            continue
        declared = {n.name for n in node.body if isinstance(n, ast.FunctionDef)}
        declared |= {t.target.id for t in node.body
                     if isinstance(t, ast.AnnAssign)}
        cls = getattr(bouton, name)
        public = {m for m, _ in inspect.getmembers(cls)
                  if not m.startswith("_")}
        for base in cls.__mro__[1:]:
            if base.__module__ == "bouton._bouton" or base is object:
                continue
            bnode = top.get(base.__name__)
            if bnode is not None:
                declared |= {n.name for n in bnode.body
                             if isinstance(n, ast.FunctionDef)}
                declared |= {t.target.id for t in bnode.body
                             if isinstance(t, ast.AnnAssign)}
        # What the package's own classes define (not the extension's
        # types, not int's methods for Nimber).
        own = {m for m in public
               if any(m in vars(b) for b in cls.__mro__
                      if b.__module__ == "bouton")}
        assert own <= declared, (name, sorted(own - declared))
