"""The misère quotient in an analysis, checked by another path.

    python3 misere_check.py BOUTON ANALYSIS MOVES

ANALYSIS is the answer of POST /v1/analyze (misère, explain) for a sum of
heaps of one heap game, MOVES that of POST /v1/moves for the same
position.  Their "quotient" names the quotient's game and bound; this
script asks `bouton quotient --game G --upto N --table --json` for that
quotient (computed apart, by bt_quotient_new, not by the analysis) and
checks, with its multiplication table, every element the answers give:
each heap's, the position's (the product) and whether it lies in P, the
element each winning move leaves and each move of MOVES (in P exactly
when the move wins), and that the explanation's text (the CLI's) names
the same elements.  Prints one line per fault; exits 1 if any.
"""
import json
import re
import subprocess
import sys

bouton, analysis_file, moves_file = sys.argv[1:4]
with open(analysis_file, encoding="utf-8") as f:
    ana = json.load(f)
with open(moves_file, encoding="utf-8") as f:
    moves = json.load(f)
faults = []


def check(ok, what):
    if not ok:
        faults.append(what)


q = ana.get("quotient")
if q is None:
    print("no \"quotient\" in the analysis: %s" % json.dumps(ana)[:300])
    sys.exit(1)
out = subprocess.run(
    [bouton, "quotient", "--json", "--table", "--game", q["game"],
     "--upto", str(q["upto"])],
    check=True, capture_output=True, text=True).stdout
ref = json.loads(out)
words = ref["elements"]
index = {w: i for i, w in enumerate(words)}
table = ref["table"]
pset = set(ref["p"])
for key in ("game", "upto", "order", "p_portion", "p"):
    check(q[key] == ref[key], "quotient %s: %r, `bouton quotient` %r"
          % (key, q[key], ref[key]))


def heap(h):
    """The element (index) of a heap of h counters, h <= upto."""
    return index[ref["heaps"][h]]


def product(heaps):
    x = index["1"]
    for h in heaps:
        x = table[x][heap(h)]
    return words[x]


heaps = [int(h) for h in ana["position"]]
for c, h in zip(ana["components"], heaps):
    check(c.get("element") == ref["heaps"][h],
          "heap %d: element %r, `bouton quotient` %r"
          % (h, c.get("element"), ref["heaps"][h]))
x = product(heaps)
check(q["element"] == x, "the position's element %r, the product %r"
      % (q["element"], x))
check(q["in_p"] == (x in pset), "in_p %r for %r" % (q["in_p"], x))
check((ana["outcome"] == "P") == (x in pset),
      "outcome %s, element %r" % (ana["outcome"], x))


def after(move):
    """The heaps after a move: component's heap replaced by "to"."""
    k = move["component"] - 1
    return heaps[:k] + [int(t) for t in move["to"]] + heaps[k + 1:]


for m in ana["winning_moves"]:
    y = product(after(m))
    check(m.get("element") == y, "winning move %r: element %r, the product %r"
          % (m["text"], m.get("element"), y))
    check(y in pset, "winning move %r leaves %r, not in P" % (m["text"], y))
check(len(ana["winning_moves"]) > 0 or ana["outcome"] == "P",
      "an N-position without winning moves")

# the explanation's text names the same elements
text = ana.get("explanation", "")
named = re.findall(r"heap (\d+) = ([^;\s]+);", text)
check(len(named) > 0, "the explanation names no heap's element: %r" % text)
for h, w in named:
    check(ref["heaps"][int(h)] == w,
          "explanation: heap %s = %s, `bouton quotient` %r"
          % (h, w, ref["heaps"][int(h)]))
m = re.search(r"the product is x = (\S+), which is (not )?in P", text)
check(m is not None and m.group(1) == x and (m.group(2) is None) == (x in pset),
      "explanation's product: %r, want %r" % (m and m.group(0), x))
m = re.search(r"of order (\d+) with (\d+) elements? in its P-portion", text)
check(m is not None and int(m.group(1)) == ref["order"] and
      int(m.group(2)) == ref["p_portion"],
      "explanation's order and P-portion: %r" % (m and m.group(0)))

# every move of /v1/moves, through the same quotient
check(moves.get("quotient") == q, "/v1/moves' quotient %r, the analysis' %r"
      % (moves.get("quotient"), q))
for mv in moves["moves"]:
    rest = after(mv)
    if not rest:
        continue  # the empty sum: no heap, no element given
    y = product(rest)
    check(mv.get("element") == y, "move %r: element %r, the product %r"
          % (mv["text"], mv.get("element"), y))
    check((mv["outcome"] == "P") == (y in pset),
          "move %r: outcome %s, element %r" % (mv["text"], mv["outcome"], y))

for f in faults:
    print(f)
sys.exit(1 if faults else 0)
