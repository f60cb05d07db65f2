"""HTML for notebooks (_repr_html_): analyses, Grundy sequences, quotients.

No plotting dependency: the plot of a sequence is an inline SVG.
"""

from html import escape as _e

_STYLE = ("border-collapse:collapse;font-family:monospace;"
          "text-align:right")
_CELL = "padding:1px 6px;border:1px solid #ccc"


def _table(rows, head=None):
    out = ['<table style="%s">' % _STYLE]
    if head:
        out.append("<tr>%s</tr>" % "".join(
            '<th style="%s">%s</th>' % (_CELL, _e(str(h))) for h in head))
    for r in rows:
        out.append("<tr>%s</tr>" % "".join(
            '<td style="%s">%s</td>' % (_CELL, c) for c in r))
    out.append("</table>")
    return "".join(out)


def _columns(values, labels, total_label):
    """Bouton's sec. 2: the numbers in binary, one column per power of
    two, and the column sums mod 2 (the nim-sum) below."""
    width = max([v.bit_length() for v in values] + [1])
    if width > 64:
        return ""
    rows = []
    x = 0
    for v, label in zip(values, labels):
        x ^= v
        rows.append([_e(label), str(v)] + [
            "<b>1</b>" if v >> b & 1 else "0"
            for b in range(width - 1, -1, -1)])
    rows.append(["<i>%s</i>" % _e(total_label), "<b>%d</b>" % x] + [
        "<b>%d</b>" % (x >> b & 1) for b in range(width - 1, -1, -1)])
    head = ["", "value"] + [str(1 << b) for b in range(width - 1, -1, -1)]
    return _table(rows, head)


def analysis(a):
    p = a.position
    comps = p.components
    who = ("N: the next player wins" if a.outcome == "N"
           else "P: the previous player wins")
    out = ["<div><b>%s</b>%s: %s" % (
        _e(str(p)), " (misère)" if a.misere else "", who)]
    if a.remoteness is not None:
        out.append(", in %d moves under best play" % a.remoteness)
    out.append("</div>")
    if a.component_grundy is not None and comps:
        # Bouton's columns for Nim piles; the nim-sum of the Grundy values
        # (Sprague-Grundy) for any sum.
        all_nim = all(g == "nim" for g, _ in comps)
        labels = ["%s %s" % (g, " ".join(map(str, n))) for g, n in comps]
        vals = [v if v is not None else 0 for v in a.component_grundy]
        out.append(_columns(vals, labels,
                            "nim-sum" if all_nim else "nim-sum of G"))
    pairs = [n for g, n in comps if g.startswith("wythoff")]
    if pairs:
        import bouton
        rows = []
        for (g, n) in comps:
            if not g.startswith("wythoff"):
                continue
            x, y = n
            try:
                k, _, lo, hi = bouton.wythoff_index(min(x, y), game=g,
                                                    misere=a.misere)
                rows.append([_e(g), "(%d, %d)" % (x, y), str(k),
                             "(%d, %d)" % (lo, hi),
                             "P" if (lo, hi) == (min(x, y), max(x, y))
                             else "N"])
            except bouton.Error:
                pass
        if rows:
            out.append("<div>Wythoff's safe pairs:</div>")
            out.append(_table(rows, ["game", "pair", "k", "k-th safe pair",
                                     "outcome"]))
    if a.winning_moves:
        out.append("<div>Winning moves:</div><ul>%s</ul>" % "".join(
            "<li>%s</li>" % _e(m.text) for m in a.winning_moves))
    elif a.outcome == "P":
        out.append("<div>No winning move: every move loses against best "
                   "play.</div>")
    if not a.moves_complete and a.moves_note:
        out.append("<div><i>%s</i></div>" % _e(a.moves_note))
    return "".join(out)


def sequence(s, width=640, height=160):
    """A plot of the values, one dot per heap, the preperiod and each
    period boundary marked; at most 2048 values are drawn."""
    n = min(len(s), 2048)
    vals = memoryview(s)[:n].tolist() if n else []
    top = max(vals + [1])
    pad = 20
    sx = (width - 2 * pad) / max(n - 1, 1)
    sy = (height - 2 * pad) / top
    parts = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" '
             'height="%d" style="background:#fff">' % (width, height)]
    per, pre = s.period, s.preperiod
    if per:
        x = pre
        colour = "#2a7" if s.proved else "#c80"
        first = True
        while x < n:
            parts.append('<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" '
                         'stroke="%s" stroke-width="%s"/>' % (
                             pad + x * sx, pad - 8, pad + x * sx,
                             height - pad, colour, "2" if first else "0.5"))
            first = False
            x += per
    parts.append('<polyline fill="none" stroke="#36c" stroke-width="1" '
                 'points="%s"/>' % " ".join(
                     "%.1f,%.1f" % (pad + i * sx, height - pad - v * sy)
                     for i, v in enumerate(vals)))
    parts.append('<text x="%d" y="%d" font-size="11" font-family="sans-serif">'
                 '%s: G(0..%d), max %d%s</text>' % (
                     pad, 12, _e(s.game.spec), n - 1, top,
                     "" if not per else ", period %d from %d%s" % (
                         per, pre, " (proved)" if s.proved else
                         " (candidate)")))
    parts.append("</svg>")
    return "".join(parts)


def quotient(q):
    rows = [[str(x), _e(w), "P" if p else ""] for x, w, p in q]
    gens = ", ".join("%s = heap %d" % (_e(n), h) for n, h in q.generators)
    rels = ", ".join(_e(r) for r in q.relations)
    return ("<div>Misère quotient of <b>%s</b> (heaps to %d): order %d, "
            "|P| = %d%s</div><div>generators: %s</div><div>relations: "
            "%s</div>%s" % (
                _e(q.game), q.upto, q.order, len(q.p_portion),
                ", proved: period %d, preperiod %d" % (q.period, q.preperiod)
                if q.proved else "", gens, rels,
                _table(rows, ["element", "word", "P"])))
