"""bouton: Nim and the games that grew out of it, exactly, at any size.

A Python package over libbouton (the C library of the `bouton` program)::

    >>> import bouton
    >>> bouton.Position("nim 9 5 12").analyze().outcome     # Bouton's example
    'P'
    >>> a = bouton.Position.nim([37, 20, 29]).analyze()
    >>> [m.text for m in a.winning_moves]
    ['take 28 from pile 1']
    >>> s = bouton.grundy_sequence("kayles", until_proved=True)
    >>> s.period, s.preperiod, s.proved
    (12, 71, True)

Numbers are Python ints of any size (and bouton.Nimber is an int whose
+ and * are those of Conway's field of nimbers).  Every failure of the library raises
a subclass of bouton.Error named after its status (ParseError, LimitError,
RangeError, ...) with the library's one-line message.  Every computation
takes the library's limits as keyword arguments (max_search, max_memory,
max_digits, max_components, max_text, max_grundy, max_table_piles,
max_games, and timeout in seconds), runs with the GIL released, and stops
on Ctrl-C (KeyboardInterrupt) through the library's interrupt.
"""

from fractions import Fraction as _Fraction
import random as _random

from . import _bouton
from ._bouton import (
    Error,
    ArgumentError,
    ParseError,
    LimitError,
    OutOfMemoryError,
    RangeError,
    UndefinedError,
    InterruptError,
)
from . import _html

__version__ = _bouton.library_version

__all__ = [
    "Error", "ArgumentError", "ParseError", "LimitError", "OutOfMemoryError",
    "RangeError", "UndefinedError", "InterruptError",
    "Game", "Position", "Move", "Analysis", "GrundySequence", "Quotient",
    "Record", "Count", "OpponentMove", "games", "grundy_sequence", "table",
    "count", "quotient",
    "opponent_move", "nim_sum", "wythoff_pair", "wythoff_index",
    "wythoff_grundy_table", "Nimber", "nimber_mul", "nimber_pow",
    "nimber_inv", "nimber_sqrt", "nimber_order", "nimber_log",
    "nimber_explain",
    "remoteness", "random_position", "load_quotient", "LIMITS",
]

#: The keyword arguments every computation accepts, in the order the
#: extension takes them (None: the library's default).
LIMITS = ("max_components", "max_digits", "max_text", "max_search",
          "max_grundy", "max_table_piles", "max_memory", "max_games",
          "timeout")


def _limits(kw, where):
    """The extension's limits tuple from keyword arguments; TypeError for
    a keyword that is no limit."""
    bad = [k for k in kw if k not in LIMITS]
    if bad:
        raise TypeError("%s() got an unexpected keyword argument %r "
                        "(limits are %s)" % (where, bad[0], ", ".join(LIMITS)))
    if not kw:
        return None
    return tuple(kw.get(k) for k in LIMITS)


def _seed(seed):
    """A 64-bit generator state from an int seed, or a fresh random one."""
    if seed is None:
        return _random.getrandbits(64)
    return int(seed) & 0xFFFFFFFFFFFFFFFF


# ------------------------------------------------------------------ games

class Game(_bouton.Game):
    """A game of the library's registry: ``Game("kayles")``,
    ``Game("wythoff:2")``, ``Game("sub:1-3,7")``, ``Game("octal:0.77")``.

    ``.spec`` is its canonical text, ``.family`` its family, ``.arity`` the
    numbers of one component (1 for heaps, 2 for a Wythoff pair, 0 for
    Moore's Nim), ``.rules`` the rules in words, ``.board`` how it is
    drawn ("piles", or coins in a "row" or on a "grid") and ``.first_coin``
    a coin game's first coin of each side.  ParseError for a text that
    names no game."""

    __slots__ = ()

    def __repr__(self):
        return "bouton.Game(%r)" % self.spec

    def __eq__(self, other):
        return isinstance(other, _bouton.Game) and other.spec == self.spec

    def __hash__(self):
        return hash(self.spec)

    def __reduce__(self):
        return (Game, (self.spec,))

    def position(self, *components, **limits):
        """A position of this game: ``Game("kayles").position(10, 12)``
        (heaps), ``Game("wythoff").position((3, 5))`` (pairs)."""
        return Position.of(self, components, **limits)

    def grundy_sequence(self, upto=None, **kw):
        """``bouton.grundy_sequence(self, ...)``."""
        return grundy_sequence(self, upto, **kw)


def _game(g):
    return g if isinstance(g, _bouton.Game) else Game(str(g))


def games():
    """The families of the registry: a list of dicts (name, syntax,
    summary, aliases, title, example, arity, board)."""
    return _bouton.families()


# -------------------------------------------------------------- positions

class Move:
    """One move: ``.component`` (0-based) is replaced by the numbers
    ``.to`` (a heap's new size, the two heaps after a split, none when the
    heap vanishes, a Wythoff pair's new numbers); ``.text`` says it in
    words.  ``.apply()`` gives the position after it."""

    __slots__ = ("component", "to", "text", "_position")

    def __init__(self, component, to, text, position=None):
        self.component = component
        self.to = tuple(to)
        self.text = text
        self._position = position

    @classmethod
    def _of(cls, t, position):
        return cls(t[0], t[1], t[2], position)

    def apply(self, position=None):
        """The position after this move, from the position it was found in
        (or from `position`)."""
        p = position if position is not None else self._position
        if p is None:
            raise ValueError("bouton.Move.apply: no position to apply it to")
        return Position._wrap(_bouton.apply(p._h, self.component, self.to))

    def __eq__(self, other):
        return (isinstance(other, Move) and self.component == other.component
                and self.to == other.to)

    def __hash__(self):
        return hash((self.component, self.to))

    def __repr__(self):
        return "Move(component=%d, to=%r, text=%r)" % (
            self.component, self.to, self.text)


class Position:
    """A sum of components, each a position of one game, in the position
    language of the CLI and the API::

        Position("nim 3 4 5 + wythoff 3 5 + kayles 10")
        Position("3 4 5")                  # nim
        Position("10 12", game="kayles")
        Position.nim([3, 4, 5])
        Position.of("wythoff", [(3, 5)])

    Positions are immutable values: a move gives a new one.  ``len(p)`` is
    the number of components, ``p.components`` a list of (game spec,
    numbers), ``str(p)`` the text, ``p + q`` the sum."""

    __slots__ = ("_h", "__weakref__")

    def __init__(self, text="", game="nim", **limits):
        if isinstance(text, Position):
            self._h = text._h
            return
        if not isinstance(text, str):
            raise TypeError("bouton.Position: a text in the position language "
                            "(use Position.of or Position.nim for lists)")
        g = game.spec if isinstance(game, _bouton.Game) else game
        self._h = _bouton.parse(text, g, _limits(limits, "Position"))

    @classmethod
    def _wrap(cls, h):
        p = cls.__new__(cls)
        p._h = h
        return p

    @classmethod
    def of(cls, game, components, **limits):
        """A position of one game from a list: ints for heaps
        (``of("kayles", [10, 12])``), sequences for pairs or Moore's Nim
        (``of("wythoff", [(3, 5)])``).  Given a Game (not its text), the
        position shares the game's caches (its Grundy sequence, proved
        once), and so takes turns with the other users of that Game when
        threads compute."""
        g = game if isinstance(game, _bouton.Game) else str(game)
        comps = [c if isinstance(c, (tuple, list)) else (c,)
                 for c in components]
        for i, c in enumerate(comps):
            if not all(isinstance(x, int) or hasattr(x, "__index__")
                       for x in c):
                raise TypeError("bouton: component %d is %r: the numbers "
                                "of a position are ints" %
                                (i + 1, components[i]))
        return cls._wrap(_bouton.build(g, comps, _limits(limits, "of")))

    @classmethod
    def nim(cls, piles, **limits):
        """Nim piles: ``Position.nim([3, 4, 5])``."""
        return cls.of("nim", piles, **limits)

    @classmethod
    def wythoff(cls, x, y, a=1, **limits):
        """One pair of Wythoff's game (``a`` its difference parameter)."""
        return cls.of("wythoff" if a == 1 else "wythoff:%d" % a,
                      [(x, y)], **limits)

    @classmethod
    def random(cls, game, k, min=1, max=15, seed=None, **limits):
        """A random start: k components, each number uniform in
        [min, max], from a seeded generator (the same seed, the same
        position)."""
        return random_position(game, k, min, max, seed, **limits)

    @property
    def components(self):
        """A list of (game spec, tuple of numbers), in order."""
        return _bouton.components(self._h)

    @property
    def games(self):
        """The distinct games of the components, in order of appearance."""
        seen = []
        for g, _ in self.components:
            if g not in seen:
                seen.append(g)
        return seen

    def __len__(self):
        return _bouton.size(self._h)

    def __str__(self):
        return _bouton.format(self._h)

    def __repr__(self):
        return "bouton.Position(%r)" % str(self)

    def __eq__(self, other):
        return isinstance(other, Position) and _bouton.equal(self._h, other._h)

    def __hash__(self):
        return hash(str(self))

    def __reduce__(self):
        # The position language is exact: the text is the position.
        return (Position, (str(self),))

    def __add__(self, other):
        if not isinstance(other, Position):
            return NotImplemented
        if not len(other):
            return self
        if not len(self):
            return other
        return Position(str(self) + " + " + str(other))

    def analyze(self, misere=False, *, explain=True, remoteness=True,
                **limits):
        """Who wins, the Grundy values, every winning move, remoteness and
        the explanation: an Analysis.  In misère play a family's theorem,
        a proved quotient or an exhaustive search bounded by max_search
        (LimitError past it: never a guess)."""
        d = _bouton.analyze(self._h, misere, explain, remoteness,
                            _limits(limits, "analyze"))
        return Analysis(self, d)

    def moves(self, **limits):
        """Every legal move (LimitError past max_search of them)."""
        return [Move._of(t, self)
                for t in _bouton.moves(self._h, _limits(limits, "moves"))]

    def move_to(self, other, **limits):
        """The legal move from self to `other`; ArgumentError naming the
        difference when no single legal move leads there."""
        if not isinstance(other, Position):
            other = Position(other)
        return Move._of(_bouton.find_move(self._h, other._h,
                                          _limits(limits, "move_to")), self)

    @property
    def is_terminal(self):
        """True when no move is left."""
        return _bouton.is_terminal(self._h)

    def remoteness(self, misere=False, **limits):
        """Smith's remoteness: moves to the end under best play."""
        return remoteness(self, misere, **limits)

    def opponent_move(self, misere=False, level="perfect", seed=None,
                      **limits):
        """The computer's move (bouton.opponent_move)."""
        return opponent_move(self, misere, level, seed, **limits)


def _position(p, **limits):
    if isinstance(p, Position):
        return p
    if isinstance(p, str):
        return Position(p, **limits)
    return Position.nim(p, **limits)


class Analysis:
    """What bouton.Position.analyze() finds.

    ``.outcome`` 'P' (the previous player wins) or 'N' (the next player
    wins); ``.grundy`` the Grundy value of the sum (None in misère play);
    ``.component_grundy`` the value of each component; ``.winning_moves``
    every winning move (Move objects); ``.moves_complete`` False when a
    huge component had more than the limits let the library list
    (``.moves_note`` says which); ``.remoteness`` (None when left out,
    ``.remoteness_reason`` says why); ``.explain()`` the explanation."""

    __slots__ = ("position", "outcome", "misere", "grundy",
                 "component_grundy", "winning_moves", "moves_complete",
                 "moves_note", "remoteness", "remoteness_reason",
                 "_explanation")

    def __init__(self, position, d):
        self.position = position
        self.outcome = d["outcome"]
        self.misere = d["misere"]
        self.grundy = d["grundy"]
        self.component_grundy = d["component_grundy"]
        self.winning_moves = [Move._of(t, position) for t in d["moves"]]
        self.moves_complete = d["moves_complete"]
        self.moves_note = d["moves_note"]
        self.remoteness = d["remoteness"]
        self.remoteness_reason = d["remoteness_reason"]
        self._explanation = d["explanation"]

    @property
    def winner(self):
        """'next' or 'previous': who wins under best play."""
        return "next" if self.outcome == "N" else "previous"

    def explain(self):
        """The explanation in words (binary columns, pairs, nim-sums)."""
        return self._explanation or ""

    def __repr__(self):
        return "<bouton.Analysis of %r: %s%s, %d winning move%s>" % (
            str(self.position), self.outcome,
            "" if self.grundy is None else ", grundy %d" % self.grundy,
            len(self.winning_moves),
            "" if len(self.winning_moves) == 1 else "s")

    def _repr_html_(self):
        return _html.analysis(self)


# -------------------------------------------------------- Grundy sequences

class GrundySequence(_bouton.Sequence):
    """The Grundy values G(0), G(1), ... of one heap of a heap game.

    A buffer of uint16 values: ``memoryview(s)``, ``numpy.asarray(s)``
    (zero-copy once a value is 256 or more; while every value is below
    256 the engine keeps one byte each, and a view holds a uint16 copy),
    ``s[i]``, ``len(s)``, ``list(s)``.  ``.period`` and
    ``.preperiod`` (None when no period was found), ``.proved`` (a theorem
    proves it: then ``s.value_at(n)`` answers for a heap of any size)."""

    @property
    def period(self):
        p = self._period
        return None if p is None else p[0]

    @property
    def preperiod(self):
        p = self._period
        return None if p is None else p[1]

    @property
    def game(self):
        return self._game

    def values(self):
        """The values as a memoryview of unsigned 16-bit ints (format 'H');
        a NumPy array when NumPy is installed (zero-copy once the engine
        keeps two bytes a value, see the class)."""
        try:
            import numpy
        except ImportError:
            return memoryview(self)
        return numpy.frombuffer(self, dtype=numpy.uint16)

    def compute(self, upto, **limits):
        """Computes at least G(0..upto-1) (BufferError while a view of
        the values is held)."""
        self._compute(upto, _limits(limits, "compute"))
        return self

    def prove(self, limit=None, **limits):
        """Computes until the period is proved or `limit` values."""
        lim = _limits(limits, "prove")
        if limit is None:
            limit = limits.get("max_grundy") or (1 << 26)
        self._prove(limit, lim)
        return self

    def __iter__(self):
        return iter(memoryview(self).tolist())

    def __reduce__(self):
        # Computed again where it is unpickled: the values follow from the
        # game, and the proof from the values.
        return (_sequence_again, (self.game.spec, len(self), self.proved))

    def __repr__(self):
        per = ("no period found" if self.period is None else
               "period %d, preperiod %d%s" % (self.period, self.preperiod,
                                              ", proved" if self.proved
                                              else ", not proved"))
        return "<bouton.GrundySequence %s: %d values, %s>" % (
            self.game.spec, len(self), per)

    def _repr_html_(self):
        return _html.sequence(self)


def _sequence_again(spec, length, proved):
    s = grundy_sequence(spec, length)
    if proved:
        s.prove(max(length, 1))
    return s


def grundy_sequence(game, upto=None, *, until_proved=False, limit=None,
                    threads=1, method="auto", **limits):
    """The Grundy sequence of a heap game (sub:S, octal codes and their
    names, tb:CODE, grundy): G(0..upto-1), or with ``until_proved=True``
    the values until a theorem proves the period (at most `limit`).
    `threads` (0: one per CPU) computes with the rare-value method's
    threads; the values are the same on any number."""
    g = _game(game)
    s = GrundySequence(g, method)
    s._set_threads(threads)
    lim = _limits(limits, "grundy_sequence")
    if until_proved:
        if limit is None:
            limit = limits.get("max_grundy") or (1 << 26)
        s._prove(limit, lim)
    else:
        if upto is None:
            raise TypeError("grundy_sequence: give upto=N or until_proved=True")
        s._compute(upto, lim)
    return s


# --------------------------------------------------------------- tables

def table(game="nim", piles=3, min=0, below=16, misere=False, **limits):
    """An iterator over the P-positions of `piles` components of `game`
    with every number in [min, below), each once with its numbers in
    non-decreasing order, lexicographically, in constant memory (tuples of
    ints).  For Wythoff's game (piles=1) the pairs (x, y), x <= y."""
    g = _game(game)
    return _bouton.table(g, misere, piles, min, below,
                         _limits(limits, "table"))


class Count:
    """An exact count: ``.positions``, ``.p_positions`` and
    ``.probability`` (a Fraction: the chance the second player wins)."""

    __slots__ = ("positions", "p_positions")

    def __init__(self, positions, p_positions):
        self.positions = positions
        self.p_positions = p_positions

    @property
    def probability(self):
        return _Fraction(self.p_positions, self.positions) \
            if self.positions else _Fraction(0)

    def __iter__(self):
        return iter((self.positions, self.p_positions))

    def __repr__(self):
        return "Count(positions=%d, p_positions=%d)" % (
            self.positions, self.p_positions)


def count(game="nim", piles=3, min=0, max=15, *, misere=False,
          ordered=False, **limits):
    """Counts the positions of `piles` piles of `game` (Nim, Moore's Nim)
    with every pile in [min, max], and the P-positions among them,
    exactly at any size (Bouton's sec. 3: 3 non-empty piles below 16 give
    680 positions, 35 safe)."""
    g = _game(game)
    return Count(*_bouton.count(g, piles, min, max, misere, ordered,
                                _limits(limits, "count")))


# -------------------------------------------------------------- quotients

class Quotient:
    """The misère quotient of the heaps of a heap game (Plambeck-Siegel):
    a commutative monoid, ``.order`` elements (0 the identity), the
    P-portion, generators and relations as the papers write them.

    Iterating gives the elements as (element, word, is_p)."""

    __slots__ = ("_h", "_info")

    def __init__(self, h):
        self._h = h
        self._info = h.info()

    game = property(lambda self: self._info["game"])
    upto = property(lambda self: self._info["upto"])
    order = property(lambda self: len(self._info["words"]))
    generators = property(lambda self: list(self._info["generators"]))
    relations = property(lambda self: list(self._info["relations"]))
    tame = property(lambda self: self._info["tame"])

    @property
    def p_portion(self):
        return [x for x, p in enumerate(self._info["p"]) if p]

    @property
    def period(self):
        p = self._info["period"]
        return None if p is None else p[0]

    @property
    def preperiod(self):
        p = self._info["period"]
        return None if p is None else p[1]

    @property
    def proved(self):
        return self._info["period"] is not None

    def is_p(self, x):
        return self._info["p"][x]

    def word(self, x):
        return self._info["words"][x]

    def mul(self, x, y):
        return self._h.mul(x, y)

    def heap(self, h):
        """The element of one heap of h counters (any size when proved)."""
        return self._h.heap(h)

    def element(self, position):
        """The element of a sum of this game's heaps."""
        return self._h.element(_position(position)._h)

    def save(self):
        """The quotient as text (bouton quotient --save)."""
        return self._h.save()

    def install(self, **limits):
        """Lends the quotient to every later misère analysis of this
        process (Position.analyze(misere=True), the opponent): sums of this
        game's heaps of at most `upto` counters (any size when proved) are
        answered through it, where a search might pass max_search.  A copy
        is installed (loaded back and checked again); at most 16 quotients,
        for the life of the process (LimitError past them).  Install before
        threads start analysing."""
        self._h.install(_limits(limits, "install"))

    def __reduce__(self):
        return (load_quotient, (self.save(),))

    def __len__(self):
        return self.order

    def __iter__(self):
        for x, (w, p) in enumerate(zip(self._info["words"], self._info["p"])):
            yield (x, w, p)

    def __repr__(self):
        return "<bouton.Quotient of %s to %d: order %d, |P| %d%s>" % (
            self.game, self.upto, self.order, len(self.p_portion),
            ", period %d, preperiod %d" % (self.period, self.preperiod)
            if self.proved else "")

    def _repr_html_(self):
        return _html.quotient(self)


def quotient(game, upto=12, *, until_proved=False, **limits):
    """The misère quotient of the heaps of at most `upto` counters of a
    heap game, or with ``until_proved=True`` computed heap by heap up to
    `upto` until the periodicity theorem proves it that of all heaps."""
    g = _game(game)
    return Quotient(_bouton.quotient(g, upto, until_proved,
                                     _limits(limits, "quotient")))


def load_quotient(text, **limits):
    """A quotient from its saved text, checked again (never trusted)."""
    return Quotient(_bouton.quotient_load(text, _limits(limits,
                                                        "load_quotient")))


# ------------------------------------------------------------------ play

def nim_sum(*numbers):
    """The nim-sum (XOR) of non-negative ints of any size."""
    r = 0
    for n in numbers:
        r = _bouton.nim_sum(r, n)
    return r


def wythoff_pair(n, game="wythoff", misere=False, **limits):
    """The n-th P-position (lo, hi) of a game of the Wythoff family."""
    return _bouton.wythoff_pair(_game(game), n, misere,
                                _limits(limits, "wythoff_pair"))


def wythoff_index(x, game="wythoff", misere=False, **limits):
    """The P-position containing x: (n, 'lower' or 'upper', lo, hi)."""
    return _bouton.wythoff_index(_game(game), x, misere,
                                 _limits(limits, "wythoff_index"))


def wythoff_grundy_table(below, game="wythoff", **limits):
    """The Sprague-Grundy values G(x, y), x, y < below, of a game of the
    Wythoff family in normal play: a below x below memoryview of uint16
    (``t[x, y]``; ``numpy.asarray(t)`` is a 2-D array).  The library bounds
    it: below * min(a, below) <= 16384 (LimitError past it)."""
    raw = _bouton.wythoff_table(_game(game), below,
                                _limits(limits, "wythoff_grundy_table"))
    return memoryview(raw).cast("H", (below, below)) if below else \
        memoryview(raw).cast("H")


def remoteness(position, misere=False, **limits):
    """Smith's remoteness of a position (closed forms for Nim at any size,
    else a search bounded by max_search)."""
    p = _position(position)
    return _bouton.remoteness(p._h, misere, _limits(limits, "remoteness"))


class OpponentMove(Move):
    """The computer's move, with how it chose: ``.rule`` (remoteness,
    proxy, heuristic, random), ``.outcome`` of the position when known,
    ``.remoteness_known``, ``.seed`` (the generator's state after it)."""

    __slots__ = ("rule", "outcome", "remoteness_known", "seed")


def opponent_move(position, misere=False, level="perfect", seed=None,
                  **limits):
    """The computer's move from a position (docs/opponent.md): the fastest
    win, or in a lost position the longest game; at level 'medium' or
    'easy' a random move one time in 5 or 2, from `seed`."""
    p = _position(position)
    mv, info, state = _bouton.opponent_move(p._h, misere, level, _seed(seed),
                                            _limits(limits, "opponent_move"))
    m = OpponentMove(mv[0], mv[1], mv[2], p)
    m.outcome = info[1] if info[0] else None
    m.remoteness_known = info[2]
    m.rule = info[3]
    m.seed = state
    return m


def random_position(game, k, min=1, max=15, seed=None, **limits):
    """A random start of k components of `game`, each number uniform in
    [min, max] (the library's SplitMix64 from `seed`)."""
    g = game.spec if isinstance(game, _bouton.Game) else str(game)
    h, _ = _bouton.random_position(g, k, min, max, _seed(seed),
                                   _limits(limits, "random_position"))
    return Position._wrap(h)


# ---------------------------------------------------------------- nimbers

def nimber_mul(a, b, **limits):
    """The nim-product of two non-negative ints of any size: Conway's
    field of nimbers (On Numbers and Games, ch. 6), where the nim-sum is
    the addition (docs/nimbers.md)."""
    return _bouton.nimber_mul(a, b, _limits(limits, "nimber_mul"))


def nimber_pow(x, e, **limits):
    """x to the nim-power e (any int e: a negative one is a power of the
    inverse)."""
    return _bouton.nimber_pow(x, e, _limits(limits, "nimber_pow"))


def nimber_inv(x, **limits):
    """The nim-inverse of x != 0 (ArgumentError for 0)."""
    return _bouton.nimber_inv(x, _limits(limits, "nimber_inv"))


def nimber_sqrt(x, **limits):
    """The nimber whose nim-square is x (one for every x)."""
    return _bouton.nimber_sqrt(x, _limits(limits, "nimber_sqrt"))


def nimber_order(x):
    """The multiplicative order of 0 < x < 2^64 (RangeError past it)."""
    return _bouton.nimber_order(x)


def nimber_log(g, x):
    """The least e >= 0 with g^e = x (nim-powers), for g, x below 2^64;
    UndefinedError when x is no power of g."""
    return _bouton.nimber_log(g, x)


def nimber_explain(a, b):
    """The nim-product of a, b < 256 worked by hand, Conway's rules on
    Fermat 2-powers step by step."""
    return _bouton.nimber_explain(a, b)


class Nimber(int):
    """A non-negative int in Conway's field of nimbers: ``+`` and ``-``
    are the nim-sum, ``*`` the nim-product, ``/`` by the nim-inverse,
    ``**`` the nim-power; any size.  ``Nimber(2) * Nimber(2) == 3``."""

    __slots__ = ()

    def __new__(cls, value=0):
        v = int.__new__(cls, value)
        if v < 0:
            raise ValueError("bouton.Nimber: a nimber is >= 0, not %d" % v)
        return v

    def __add__(self, other):
        if not isinstance(other, int):
            return NotImplemented
        return Nimber(_bouton.nim_sum(int(self), int(other)))

    __radd__ = __sub__ = __rsub__ = __add__

    def __neg__(self):
        return self

    def __mul__(self, other):
        if not isinstance(other, int):
            return NotImplemented
        return Nimber(nimber_mul(int(self), int(other)))

    __rmul__ = __mul__

    def __truediv__(self, other):
        if not isinstance(other, int):
            return NotImplemented
        return self * nimber_inv(int(other))

    def __rtruediv__(self, other):
        if not isinstance(other, int):
            return NotImplemented
        return Nimber(other) * nimber_inv(int(self))

    def __pow__(self, e, mod=None):
        if mod is not None or not isinstance(e, int):
            return NotImplemented
        return Nimber(nimber_pow(int(self), int(e)))

    def inverse(self):
        return Nimber(nimber_inv(int(self)))

    def sqrt(self):
        return Nimber(nimber_sqrt(int(self)))

    def order(self):
        return nimber_order(int(self))

    def __repr__(self):
        return "Nimber(%d)" % int(self)

    __str__ = int.__repr__



# ---------------------------------------------------------------- records

class Record:
    """A game record in the notation of Beardon's notes: the start, each
    move and who made it.  ``Record(start)`` starts one;
    ``Record.parse(text)`` reads one (every move checked);
    ``str(r)`` is the text."""

    __slots__ = ("_h",)

    def __init__(self, start, misere=False, first="A"):
        self._h = _bouton.record_new(_position(start)._h, misere, first)

    @classmethod
    def parse(cls, text, **limits):
        r = cls.__new__(cls)
        r._h = _bouton.record_parse(text, _limits(limits, "Record.parse"))
        return r

    @property
    def misere(self):
        return self._h.misere()

    def __len__(self):
        """The number of moves played."""
        return self._h.length()

    @property
    def positions(self):
        return [Position._wrap(self._h.position(i))
                for i in range(len(self) + 1)]

    @property
    def current(self):
        return Position._wrap(self._h.position(len(self)))

    @property
    def moves(self):
        return [Move._of(self._h.move(i), Position._wrap(self._h.position(i)))
                for i in range(len(self))]

    def player(self, i=None):
        """Who makes move i ('A' or 'B'); by default the player to move."""
        return self._h.player(len(self) if i is None else i)

    @property
    def winner(self):
        """'A' or 'B' when the game is over, else None."""
        return self._h.winner()

    def play(self, move, **limits):
        """Plays a move (a Move, or a position to move to), checked against
        the rules; ArgumentError when it is not legal."""
        if not isinstance(move, Move):
            move = self.current.move_to(_position(move))
        self._h.play(move.component, move.to, _limits(limits, "play"))

    def undo(self, n=1):
        self._h.undo(n)

    def __getitem__(self, key):
        return self._h.get(key)

    def __setitem__(self, key, value):
        self._h.set(key, value)

    def __str__(self):
        return self._h.format()

    def __reduce__(self):
        return (Record.parse, (str(self),))

    def __repr__(self):
        return "<bouton.Record of %d moves from %r>" % (
            len(self), str(self.positions[0]))
