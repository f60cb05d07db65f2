"""Threads and signals: the GIL is released while the library computes,
two threads compute at once, and Ctrl-C (SIGINT) stops a long run through
the library's interrupt with KeyboardInterrupt.

CPU budget: about 6 s (two runs stopped after about 1 s each, a few short
sequences)."""
import os
import signal
import threading
import time

import pytest

import bouton

# Grundy's game by the plain O(n^2) mex: 10^6 values take minutes, so
# every run below ends only when it is stopped.
LONG = dict(game="grundy", upto=10 ** 6, method="plain")


def long_run(**limits):
    return bouton.grundy_sequence(LONG["game"], upto=LONG["upto"],
                                  method=LONG["method"], **limits)


def test_keyboard_interrupt_stops_a_long_run():
    # Python's own handler, whatever this process inherited (a shell runs
    # background jobs with SIGINT ignored, and Python then keeps SIG_IGN).
    old = signal.signal(signal.SIGINT, signal.default_int_handler)
    timer = threading.Timer(0.5, os.kill, (os.getpid(), signal.SIGINT))
    t0 = time.monotonic()
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            long_run()
    finally:
        timer.cancel()
        signal.signal(signal.SIGINT, old)
    elapsed = time.monotonic() - t0
    assert elapsed < 2.5, "KeyboardInterrupt took %.2f s" % elapsed


def test_gil_released_while_computing():
    """The main thread runs Python code while another computes: with the
    GIL held it could not run at all until the computation ended."""
    done = threading.Event()
    errors = []

    def work():
        try:
            long_run(timeout=1.0)
        except bouton.InterruptError:
            pass
        except BaseException as e:   # pragma: no cover - reported below
            errors.append(e)
        finally:
            done.set()

    t = threading.Thread(target=work)
    t.start()
    time.sleep(0.1)                  # the worker is in the library now
    ticks = 0
    t0 = time.monotonic()
    while not done.is_set():
        ticks += 1
        time.sleep(0.001)
    t.join()
    assert not errors, errors
    # About 900 ticks of 1 ms in the 0.9 s left; a held GIL gives 0-1.
    assert ticks > 50, "only %d ticks in %.2f s" % (ticks,
                                                   time.monotonic() - t0)


def test_two_threads_compute_at_once_on_one_game():
    """Threads sharing one Game (its cached sequence) and positions of it:
    the results are those of one thread."""
    g = bouton.Game("octal:0.137")
    expect = list(bouton.grundy_sequence(g, upto=4000))
    pos = bouton.Position("octal:0.137 1000 333 77")
    want = pos.analyze()
    results = []

    def work():
        s = bouton.grundy_sequence(g, upto=4000)
        # A position of the Game itself shares its caches (and its lock).
        a = g.position(1000, 333, 77).analyze()
        assert a.grundy == pos.analyze().grundy
        results.append((list(s)[:4000], a.grundy,
                        [(m.component, m.to) for m in a.winning_moves]))

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(results) == 4
    for values, grundy, moves in results:
        assert values == expect[:4000]
        assert grundy == want.grundy
        assert moves == [(m.component, m.to) for m in want.winning_moves]


def test_reads_while_another_thread_computes():
    """A sequence read from one thread while another extends it: reads
    wait for the values to settle, a view is refused while they move."""
    s = bouton.grundy_sequence("grundy", upto=10, method="plain")
    done = threading.Event()

    def work():
        try:
            s.compute(60000)
        finally:
            done.set()

    t = threading.Thread(target=work)
    t.start()
    refused = reads = 0
    while not done.is_set():
        n = len(s)
        assert n >= 10 and s[n - 1] >= 0 and s[0] == 0
        try:
            with memoryview(s) as mv:
                assert mv.tolist()[:10] == list(s)[:10]
        except BufferError:
            refused += 1
        reads += 1
        time.sleep(0.001)
    t.join()
    assert len(s) >= 60000 and reads > 0
