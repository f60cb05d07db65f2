"""Round trips against the program's JSON: random positions of every
family (and sums of them) analysed by the package and by `bouton`, which
must agree on the outcome, the Grundy values, every winning move and the
remoteness.

One process per position costs about 25 ms of CPU, so the bulk goes
through one `bouton serve` on loopback, whose /v1/analyze prints the very
JSON of `bouton analyze --json` (json.c writes both); a few positions of
each family go through the CLI itself, and the two must agree too.
CPU budget: about 3 s for some 1 800 positions (the server's included)."""
import http.client
import json
import os
import re
import subprocess
import time

import pytest

import bouton

# (game, numbers per component, largest number): every family of the
# registry, a few parameters each.
FAMILIES = [
    ("nim", 1, 2 ** 70), ("nim", 1, 40), ("wythoff", 2, 60),
    ("wythoff:2", 2, 60), ("sub:1-3,7", 1, 200), ("kayles", 1, 200),
    ("octal:0.07", 1, 200), ("octal:4.07", 1, 60), ("grundy", 1, 120),
    ("tb:4.[3]", 1, 200), ("moore:2", 0, 20),
]
PER_FAMILY = 150


def random_term(rng, game, arity, top):
    if arity == 0:
        nums = [rng.randint(0, top) for _ in range(rng.randint(1, 4))]
        return "%s %s" % (game, " ".join(map(str, nums)))
    k = rng.randint(1, 4)
    nums = [rng.randint(1 if game == "octal:4.07" else 0, top)
            for _ in range(k * arity)]
    return "%s %s" % (game, " ".join(map(str, nums)))


def positions(rng):
    out = []
    for game, arity, top in FAMILIES:
        for _ in range(PER_FAMILY):
            misere = game == "nim" and rng.random() < 0.3
            out.append((random_term(rng, game, arity, top), misere))
    for _ in range(PER_FAMILY):            # sums of families
        fam = rng.sample([f for f in FAMILIES if f[0] != "moore:2"], 3)
        out.append((" + ".join(random_term(rng, g, a, min(t, 40))
                               for g, a, t in fam), False))
    return out


def wants_remoteness(text):
    # Remoteness of Nim has closed forms; elsewhere it is a search under a
    # CPU-time budget, computed or left out by the speed of the moment, so
    # it is compared for Nim only.
    return all(t.split()[0] == "nim" for t in text.split("+"))


def ours(text, misere):
    try:
        a = bouton.Position(text).analyze(misere=misere,
                                          remoteness=wants_remoteness(text))
    except bouton.Error as e:
        return {"error": e.status}
    d = {"outcome": a.outcome,
         "winning_moves": [{"component": m.component + 1,
                            "to": [str(n) for n in m.to], "text": m.text}
                           for m in a.winning_moves],
         "remoteness": None if a.remoteness is None else str(a.remoteness)}
    if not misere:
        d["grundy"] = None if a.grundy is None else str(a.grundy)
    return d


def theirs(j, misere, text):
    if "error" in j:
        # The API names the status; the CLI prints a line (any status).
        return {"error": j["error"]["code"] if isinstance(j["error"], dict)
                else "?"}
    d = {"outcome": j["outcome"], "winning_moves": j["winning_moves"],
         "remoteness": j["remoteness"] if wants_remoteness(text) else None}
    if not misere:
        d["grundy"] = j.get("grundy")
    return d


def cli_analyze(cli, text, misere):
    out = subprocess.run([cli, "analyze", "--json"] +
                         (["--misere"] if misere else []) + [text],
                         capture_output=True, text=True, timeout=60)
    if out.returncode == 0:
        return json.loads(out.stdout)
    return {"error": out.stderr.strip()}


@pytest.fixture(scope="module")
def analyzer(cli):
    """A function (text, misere) -> the JSON of the analysis: one `bouton
    serve` answering them all, or, in a build without the server, one
    `bouton analyze --json` each (for fewer positions)."""
    proc = subprocess.Popen([cli, "serve", "--host", "127.0.0.1", "--port",
                             "0", "--quiet"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        line = proc.stdout.readline()
        m = re.search(r"serving http://([^:/]+):(\d+)/", line)
        if not m:
            if proc.wait(10) == 0 or "serve" not in proc.stderr.read():
                pytest.fail("bouton serve did not start: %r" % line)
            yield None, lambda text, misere: cli_analyze(cli, text, misere)
            return
        conn = http.client.HTTPConnection(m.group(1), int(m.group(2)),
                                          timeout=60)

        def api(text, misere):
            conn.request("POST", "/v1/analyze",
                         json.dumps({"position": text, "misere": misere,
                                     "remoteness": wants_remoteness(text)}),
                         {"Content-Type": "application/json"})
            return json.loads(conn.getresponse().read())
        yield conn, api
        conn.close()
    finally:
        if proc.poll() is None:
            proc.terminate()
        proc.wait(10)


def test_random_positions_agree_with_the_program(analyzer, rng):
    conn, analyze = analyzer
    ps = positions(rng)
    if conn is None:                   # one process each: a sample
        ps = rng.sample(ps, 100)
    disagree = []
    answered = 0
    for text, misere in ps:
        a = ours(text, misere)
        b = theirs(analyze(text, misere), misere, text)
        answered += "error" not in a
        if a != b and not ("error" in a and b.get("error") == "?"):
            disagree.append((text, misere, a, b))
    assert not disagree, "seed %d: %d of %d differ, first: %r" % (
        rng.seed_value, len(disagree), len(ps), disagree[0])
    assert answered > 0.9 * len(ps)


def test_some_positions_agree_with_the_cli(cli, rng):
    for game, arity, top in FAMILIES:
        for _ in range(2):
            text = random_term(rng, game, arity, top)
            j = cli_analyze(cli, text, False)
            assert "error" not in j, j
            assert ours(text, False) == theirs(j, False, text), \
                "seed %d: %s" % (rng.seed_value, text)


def test_grundy_sequences_agree_with_the_cli(cli):
    for game in ("kayles", "octal:0.6", "sub:1-3,7", "grundy", "tb:4.[3]"):
        out = subprocess.run([cli, "grundy", "--json", "--game", game,
                              "--upto", "300"], capture_output=True,
                             text=True, timeout=60)
        j = json.loads(out.stdout)
        s = bouton.grundy_sequence(game, upto=300)
        assert list(s)[:300] == j["values"]
        assert (s.period, s.preperiod, s.proved) == \
            (j["period"], j["preperiod"], j["proved"])


def test_errors_agree_with_the_cli(cli):
    for text in ("nim 3 x", "nosuchgame 3", "wythoff 1 2 3"):
        out = subprocess.run([cli, "analyze", "--json", text],
                             capture_output=True, text=True, timeout=60)
        assert out.returncode == 2
        with pytest.raises(bouton.ParseError) as e:
            bouton.Position(text)
        assert str(e.value) in out.stderr + out.stdout


def test_wythoff_grundy_tables_agree_with_the_cli(cli):
    for game, below in (("wythoff", 40), ("wythoff:3", 25)):
        out = subprocess.run([cli, "grundy", "--json", "--game", game,
                              "--below", str(below)], capture_output=True,
                             text=True, timeout=60)
        assert bouton.wythoff_grundy_table(below, game=game).tolist() == \
            json.loads(out.stdout)["rows"]


def test_nimbers_agree_with_the_cli(cli, rng):
    """A few expressions of `bouton nimber --json`, one process each."""
    for bits in (8, 64, 200, 3000):
        a, b = rng.getrandbits(bits) | 1, rng.getrandbits(bits) | 1
        cases = [("%d * %d" % (a, b), bouton.nimber_mul(a, b)),
                 ("inv(%d)" % a, bouton.nimber_inv(a)),
                 ("%d ^ -7" % a, bouton.nimber_pow(a, -7))]
        if bits <= 64:
            cases.append(("log(2, %d)" % (bouton.nimber_pow(2, a)),
                          bouton.nimber_log(2, bouton.nimber_pow(2, a))))
        for expr, ours in cases:
            out = subprocess.run([cli, "nimber", "--json", expr],
                                 capture_output=True, text=True, timeout=60)
            assert out.returncode == 0, out.stderr
            assert json.loads(out.stdout)["value"] == str(ours), expr


# These found that in a process whose first nimber operation was a square
# root of a number past 2^64, bt_nimber_sqrt returned a wrong root (its
# steps read tables that only a 64-bit product built); fixed in the
# library, and test_nimber.c checks it first in its process too.
def test_nimber_sqrt_agrees_with_the_cli(cli, rng):
    for bits in (8, 64, 200, 3000):
        x = rng.getrandbits(bits) | 1
        r = bouton.nimber_sqrt(x)
        assert bouton.nimber_mul(r, r) == x
        out = subprocess.run([cli, "nimber", "--json", "sqrt(%d)" % x],
                             capture_output=True, text=True, timeout=60)
        assert json.loads(out.stdout)["value"] == str(r), bits


def test_nimber_sqrt_first_in_a_process():
    import sys
    out = subprocess.run([sys.executable, "-c", """if True:
        import bouton, random
        x = random.Random(200).getrandbits(200) | 1
        r = bouton.nimber_sqrt(x)
        assert bouton.nimber_mul(r, r) == x, "sqrt(x)^2 != x"
        """], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
