#!/usr/bin/env python3
"""The hostile-client suite of `bouton serve` (issue 10): python3 hostile_client.py BOUTON

Starts the server on a free loopback port with small limits and sends it,
over raw sockets, every reproducer of the issue: requests that would take
memory or time without bound, heavy requests against light ones, slowloris
connections, malformed HTTP, SIGTERM while computing.  Each must get a
bounded answer: its status, in less than the time budget plus a slack, the
server's resident memory afterwards within RSS_SLACK of its baseline, and
the server still answering a plain request.  Standard library only.
"""
import json
import os
import random
import re
import signal
import socket
import subprocess
import sys
import threading
import time

BUDGET_MS = 1000          # --time-budget of the server under test


def load_factor():
    """How many times longer the wall clock runs than on a free machine:
    the load average per core when the machine is busier than its cores
    (each process then gets that share of one), else 1.  The wall-time
    bounds below are multiplied by it, so that a loaded machine stretches
    them as it stretches every answer."""
    try:
        return max(1.0, os.getloadavg()[0] / (os.cpu_count() or 1))
    except OSError:
        return 1.0


LOAD = load_factor()
SLACK = 3.0 * LOAD        # seconds past the budget an answer may take
SLACK_SANITIZED = 12.0 * LOAD  # the same under ASan+UBSan (several times slower)
RSS_SLACK = 96 << 20      # bytes above the baseline RSS after a request
RSS_SLACK_SANITIZED = 1 << 30
REQUEST_MEMORY = 128 << 20

STATUS_LINE = re.compile(rb"(?:^|\n)HTTP/1\.[01] \d\d\d ")
fails = 0
checks = 0


def fail(msg):
    global fails
    fails += 1
    print("FAIL: " + msg, file=sys.stderr, flush=True)


def check(cond, msg):
    global checks
    checks += 1
    if not cond:
        fail(msg)
    return cond


def rss(pid):
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    return 0


def read_response(s, timeout):
    """Reads one response; returns (status_line_count, status, headers, body)."""
    s.settimeout(timeout)
    data = b""
    while b"\r\n\r\n" not in data:
        b = s.recv(65536)
        if not b:
            break
        data += b
    head, _, rest = data.partition(b"\r\n\r\n")
    lines = head.split(b"\r\n")
    status = int(lines[0].split()[1]) if lines and lines[0].startswith(b"HTTP/") else 0
    headers = {}
    for l in lines[1:]:
        k, _, v = l.partition(b":")
        headers[k.strip().lower().decode()] = v.strip().decode()
    n = int(headers.get("content-length", "-1"))
    if n >= 0:
        while len(rest) < n:
            b = s.recv(65536)
            if not b:
                break
            rest += b
        extra, body = rest[n:], rest[:n]
    else:
        body, extra = rest, b""
        while True:
            b = s.recv(65536)
            if not b:
                break
            body += b
    # what follows the answer on a closed connection (a second status line)
    try:
        s.settimeout(0.2)
        while True:
            b = s.recv(65536)
            if not b:
                break
            extra += b
    except (socket.timeout, OSError):
        pass
    lines = len(STATUS_LINE.findall(data)) + len(STATUS_LINE.findall(extra))
    return lines, status, headers, body


def raw(port, data, timeout=BUDGET_MS / 1000 + SLACK, src=None):
    """Sends data on a new connection; returns (lines, status, headers, body, seconds)."""
    t = time.monotonic()
    s = socket.create_connection(("127.0.0.1", port), timeout=timeout,
                                 source_address=(src, 0) if src else None)
    try:
        try:
            s.sendall(data)
        except OSError:
            pass
        try:
            r = read_response(s, timeout)
        except (socket.timeout, OSError) as e:
            r = (0, 0, {}, ("no answer: %r" % e).encode())
    finally:
        s.close()
    return r + (time.monotonic() - t,)


def post(port, path, obj, **kw):
    body = obj if isinstance(obj, bytes) else json.dumps(obj).encode()
    req = (b"POST %s HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\n"
           b"Connection: close\r\nContent-Length: %d\r\n\r\n" % (path.encode(), len(body)))
    return raw(port, req + body, **kw)


def is_json_error(body):
    try:
        return "error" in json.loads(body)
    except ValueError:
        return False


class Server:
    def __init__(self, bouton, *args, preexec=None):
        self.p = subprocess.Popen(
            [bouton, "serve", "--port", "0", "--quiet", *args],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, preexec_fn=preexec)
        line = self.p.stdout.readline().decode()
        self.port = int(line.rsplit(":", 1)[1].split("/")[0])
        # under ASan the allocator keeps freed memory in quarantine
        with open("/proc/%d/maps" % self.p.pid) as f:
            self.sanitized = "libasan" in f.read()

    def alive(self, what):
        r = post(self.port, "/v1/analyze", {"position": "3 4 5"}, timeout=5)
        check(r[1] == 200, "%s: then a plain analyze got %s %r" % (what, r[1], r[3][:200]))

    def stop(self):
        if self.p.poll() is None:
            self.p.kill()
            self.p.wait()


def bounded(srv, what, path, obj, statuses, base_rss):
    slack = SLACK_SANITIZED if srv.sanitized else SLACK
    lines, status, _, body, secs = post(srv.port, path, obj, timeout=BUDGET_MS / 1000 + slack)
    check(status in statuses, "%s: status %s (expected %s): %r" % (what, status, statuses, body[:200]))
    check(secs <= BUDGET_MS / 1000 + slack, "%s: %.2f s, over the budget plus %.0f s" % (what, secs, slack))
    if srv.p.poll() is not None:
        fail("%s: the server died (exit %s)" % (what, srv.p.returncode))
        return body
    grown = rss(srv.p.pid) - base_rss
    check(grown <= (RSS_SLACK_SANITIZED if srv.sanitized else RSS_SLACK), "%s: RSS %d MiB over its baseline afterwards" % (what, grown >> 20))
    srv.alive(what)
    print("  %-44s %3s in %5.2f s, RSS %+d MiB" % (what, status, secs, grown >> 20), flush=True)
    return body


def items_1_2(srv, has_memory_budget):
    """Memory and time without bound (issue items 1 and 2)."""
    base = rss(srv.p.pid)
    bounded(srv, "grundy grundys-game upto 4194304", "/v1/grundy",
            {"game": "grundys-game", "upto": 4194304, "no_values": True}, (200, 422), base)
    rng = random.Random(int(os.environ.get("BOUTON_SEED", "10")))
    if has_memory_budget:
        bounded(srv, "analyze octal:4.37 9000", "/v1/analyze",
                {"position": "octal:4.37 9000"}, (200, 422), base)
        bounded(srv, "analyze octal:4.37 3000", "/v1/analyze",
                {"position": "octal:4.37 3000"}, (200, 422), base)
        pairs = " + ".join("wythoff %d %d" % (rng.randint(0, 50), rng.randint(0, 50))
                           for _ in range(300))
        bounded(srv, "analyze 300 wythoff pairs", "/v1/analyze",
                {"position": pairs}, (200, 422), base)
        bounded(srv, "analyze grundys-game 3000", "/v1/analyze",
                {"position": "grundys-game 3000"}, (200, 422), base)
    else:
        print("  SKIP the memory reproducers: this build has no --max-memory", flush=True)
    bounded(srv, "table wythoff min 10^10 below 10^30", "/v1/table",
            {"game": "wythoff", "below": "1" + "0" * 30, "min": "10000000000", "limit": 3},
            (200, 422), base)
    bounded(srv, "move with 20001 piles of 1", "/v1/move",
            {"position": " ".join(["1"] * 20001)}, (200, 422), base)
    record = " -A-> ".join("(%d)" % k for k in range(50000, 0, -1))
    bounded(srv, "record of 50000 moves", "/v1/record", {"record": record}, (200, 400, 422), base)


def latency(port, body, seconds, src):
    """Plain analyze requests one after another on one kept-alive connection;
    returns the sorted latencies in seconds."""
    req = (b"POST /v1/analyze HTTP/1.1\r\nHost: t\r\nContent-Length: %d\r\n\r\n" % len(body)) + body
    s = socket.create_connection(("127.0.0.1", port), source_address=(src, 0))
    out = []
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        t = time.monotonic()
        s.sendall(req)
        _, status, _, _ = read_response_keepalive(s)
        out.append(time.monotonic() - t)
        if status != 200:
            fail("fairness: a plain analyze got %s" % status)
            break
    s.close()
    return sorted(out)


def read_answers(s, timeout):
    """Reads to the close; returns (status_line_count, [(status, body)])."""
    s.settimeout(timeout)
    data = b""
    while True:
        b = s.recv(65536)
        if not b:
            break
        data += b
    answers = []
    rest = data
    while b"\r\n\r\n" in rest:
        head, _, rest = rest.partition(b"\r\n\r\n")
        m = re.match(rb"HTTP/1\.[01] (\d\d\d) ", head)
        n = re.search(rb"(?i)\r\ncontent-length: *(\d+)", head)
        n = int(n.group(1)) if n else len(rest)
        answers.append((int(m.group(1)) if m else 0, rest[:n]))
        rest = rest[n:]
    return len(STATUS_LINE.findall(data)), answers


def read_response_keepalive(s):
    s.settimeout(30)
    data = b""
    while b"\r\n\r\n" not in data:
        b = s.recv(65536)
        if not b:
            raise OSError("closed")
        data += b
    head, _, rest = data.partition(b"\r\n\r\n")
    n = 0
    for l in head.split(b"\r\n")[1:]:
        if l.lower().startswith(b"content-length:"):
            n = int(l.split(b":")[1])
    while len(rest) < n:
        rest += s.recv(65536)
    return 1, int(head.split()[1]), {}, rest[:n]


def item_4(srv):
    """Heavy requests cannot starve light ones (issue item 4)."""
    # the light client comes from another address than the 8 heavy ones:
    # from theirs it may rightly get 429, the per-address cap (it did
    # under ASan, where the heavy requests hold their places longer)
    light = json.dumps({"position": "3 4 5"}).encode()
    idle = latency(srv.port, light, 1.5, "127.0.0.2")
    stop = threading.Event()
    statuses = {}

    def hammer():
        heavy = json.dumps({"game": "grundys-game", "upto": 4194304, "no_values": True}).encode()
        while not stop.is_set():
            r = post(srv.port, "/v1/grundy", heavy, timeout=30)
            statuses[r[1]] = statuses.get(r[1], 0) + 1

    threads = [threading.Thread(target=hammer) for _ in range(8)]
    for t in threads:
        t.start()
    time.sleep(0.3)
    busy = latency(srv.port, light, 3, "127.0.0.2")
    stop.set()
    for t in threads:
        t.join()
    p99 = lambda v: v[min(len(v) - 1, int(len(v) * 0.99))]
    print("  fairness: analyze p99 idle %.2f ms, with 8 heavy clients %.2f ms (%d requests); heavy answers %s"
          % (p99(idle) * 1e3, p99(busy) * 1e3, len(busy), statuses), flush=True)
    # The 2x figure is measured in bench/ on a quiet machine; on a shared
    # test machine this asserts only that light requests are not starved.
    check(p99(busy) < 0.05 * LOAD, "fairness: analyze p99 %.1f ms under 8 heavy clients" % (p99(busy) * 1e3))
    check(set(statuses) <= {422, 429, 503}, "fairness: heavy answers %s" % statuses)
    srv.alive("fairness")


def item_5(srv, header_timeout):
    """Slowloris (issue item 5): a few hundred trickling connections."""
    conns = []
    for i in range(300):
        try:
            s = socket.create_connection(("127.0.0.1", srv.port), timeout=2)
            s.setblocking(False)
            s.send(b"GET / HTTP/1.1\r\n")
            conns.append(s)
        except OSError:
            pass
    t0 = time.monotonic()
    served = 0
    worst = 0.0
    while time.monotonic() - t0 < header_timeout / 1000 + 1.5:
        for s in conns:
            try:
                s.send(b"X-a: b\r\n")
            except OSError:
                pass
        for src in ("127.0.0.1", "127.0.0.2"):
            r = post(srv.port, "/v1/analyze", {"position": "3 4 5"}, timeout=5, src=src)
            worst = max(worst, r[4])
            served += check(r[1] == 200, "slowloris: a plain request from %s got %s %r" % (src, r[1], r[3][:120]))
        time.sleep(0.2)
    # every trickling connection is closed past the header timeout
    open_left = 0
    for s in conns:
        try:
            s.setblocking(True)
            s.settimeout(0.5)
            while True:
                b = s.recv(65536)
                if not b:
                    break
        except (socket.timeout, BlockingIOError):
            open_left += 1
        except OSError:
            pass
        s.close()
    print("  slowloris: %d trickling connections, %d plain requests served (slowest %.0f ms), %d left open"
          % (len(conns), served, worst * 1e3, open_left), flush=True)
    check(worst < 1.0 * LOAD, "slowloris: a plain request took %.2f s" % worst)
    check(open_left == 0, "slowloris: %d trickling connections still open past the header timeout" % open_left)
    srv.alive("slowloris")


def item_6(srv):
    """The HTTP layer (issue item 6): JSON errors with the right status."""
    cases = [
        ("HTTP/9.9", b"GET / HTTP/9.9\r\nHost: t\r\n\r\n", 505),
        ("PRI * HTTP/2.0", b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", 505),
        ("URL of 20 KB", b"GET /" + b"a" * 20000 + b" HTTP/1.1\r\nHost: t\r\n\r\n", 414),
        ("header of 20 KB", b"GET / HTTP/1.1\r\nHost: t\r\nX: " + b"a" * 20000 + b"\r\n\r\n", 431),
        ("header without colon", b"GET / HTTP/1.1\r\nHost: t\r\nnocolon\r\n\r\n", 400),
        ("Content-Length 10^23", b"POST /v1/analyze HTTP/1.1\r\nHost: t\r\nContent-Length: 99999999999999999999999\r\n\r\n", 413),
        ("Content-Length -1", b"POST /v1/analyze HTTP/1.1\r\nHost: t\r\nContent-Length: -1\r\n\r\n", 400),
        ("Content-Length abc", b"POST /v1/analyze HTTP/1.1\r\nHost: t\r\nContent-Length: abc\r\n\r\n", 400),
        ("two Content-Length", b"POST /v1/analyze HTTP/1.1\r\nHost: t\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}x", 400),
        ("Transfer-Encoding gzip", b"POST /v1/analyze HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: gzip\r\n\r\n", 501),
        ("HTTP/1.1 without Host", b"GET /v1/info HTTP/1.1\r\n\r\n", 400),
        ("bad chunked encoding", b"POST /v1/analyze HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", 400),
        ("chunk longer than its size", b"POST /v1/analyze HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabcX\r\n0\r\n\r\n", 400),
        ("TE and Content-Length", b"POST /v1/analyze HTTP/1.1\r\nHost: t\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", 400),
    ]
    for what, data, want in cases:
        lines, status, _, body, secs = raw(srv.port, data)
        check(status == want, "%s: status %s, expected %s: %r" % (what, status, want, body[:200]))
        check(is_json_error(body), "%s: not a JSON error: %r" % (what, body[:200]))
        check(lines == 1, "%s: %d status lines" % (what, lines))
    # the same checks on the later requests of a kept-alive connection
    # (which the front relays, checking each head), after a good request
    # answered first, or sent in the same segment (pipelined); a list of
    # parts is sent with a pause between them, so that the error comes
    # after a good head has been passed on
    chunked = b"POST /v1/analyze HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n"
    keepalive = [
        ("without Host", b"GET /v1/info HTTP/1.1\r\n\r\n", 400),
        ("Transfer-Encoding gzip", b"POST /v1/analyze HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: gzip\r\n\r\n", 501),
        ("header without colon", b"GET /v1/info HTTP/1.1\r\nHost: t\r\nnocolon\r\n\r\n", 400),
        ("Content-Length abc", b"POST /v1/analyze HTTP/1.1\r\nHost: t\r\nContent-Length: abc\r\n\r\n", 400),
        ("Content-Length -1", b"POST /v1/analyze HTTP/1.1\r\nHost: t\r\nContent-Length: -1\r\n\r\n", 400),
        ("Content-Length 10^23", b"POST /v1/analyze HTTP/1.1\r\nHost: t\r\nContent-Length: 99999999999999999999999\r\n\r\n", 413),
        ("header of 20 KB", b"GET /v1/info HTTP/1.1\r\nHost: t\r\nX: " + b"a" * 20000 + b"\r\n\r\n", 431),
        ("URL of 20 KB", b"GET /" + b"a" * 20000 + b" HTTP/1.1\r\nHost: t\r\n\r\n", 414),
        ("HTTP/9.9", b"GET / HTTP/9.9\r\nHost: t\r\n\r\n", 505),
        ("bad chunk size after a good head", [chunked + b"3\r\nabc\r\n", b"zz\r\n"], 400),
        ("chunk longer than its size after a good head", [chunked, b"3\r\nabcX\r\n0\r\n\r\n"], 400),
        ("chunked body over --max-body", [chunked, b"%x\r\n" % (2 << 20)], 413),
    ]
    good = b"GET /v1/info HTTP/1.1\r\nHost: t\r\n\r\n"
    for what, data, want in keepalive:
        parts = data if isinstance(data, list) else [data]
        for pipelined in (False, True):
            s = socket.create_connection(("127.0.0.1", srv.port), timeout=5)
            try:
                if pipelined:
                    s.sendall(good + parts[0])
                else:
                    s.sendall(good)
                    _, first, _, _ = read_response_keepalive(s)
                    check(first == 200, "keep-alive %s: first answer %s" % (what, first))
                    s.sendall(parts[0])
                for part in parts[1:]:
                    time.sleep(0.05)
                    s.sendall(part)
                if pipelined:
                    # both answers, read to the close: the good request's,
                    # then exactly one more
                    lines, answers = read_answers(s, 5)
                    check(len(answers) == 2 and answers[0][0] == 200,
                          "keep-alive %s (pipelined): answers %r" % (what, answers))
                    status, body = answers[-1] if answers else (0, b"")
                    lines -= 1
                else:
                    lines, status, _, body = read_response(s, 5)
            except (socket.timeout, OSError) as e:
                lines, status, body = 0, 0, ("no answer: %r" % e).encode()
            s.close()
            tag = "keep-alive %s%s" % (what, " (pipelined)" if pipelined else "")
            check(status == want, "%s: status %s, expected %s: %r" % (tag, status, want, body[:200]))
            check(is_json_error(body), "%s: not a JSON error: %r" % (tag, body[:200]))
            check(lines == 1, "%s: %d status lines" % (tag, lines))
    # a chunked body of 20 MB: read and answered 413
    s = socket.create_connection(("127.0.0.1", srv.port), timeout=10)
    s.sendall(b"POST /v1/analyze HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n")
    chunk = b"10000\r\n" + b"x" * 65536 + b"\r\n"
    try:
        for _ in range(320):
            s.sendall(chunk)
        s.sendall(b"0\r\n\r\n")
    except OSError:
        pass
    lines, status, _, body = read_response(s, 10)
    s.close()
    check(status == 413 and is_json_error(body), "20 MB chunked body: %s %r" % (status, body[:200]))
    srv.alive("HTTP layer")
    print("  HTTP layer: %d malformed requests answered with JSON errors, %d on kept-alive connections"
          % (len(cases) + 1, 2 * len(keepalive)), flush=True)


def item_3(bouton):
    """SIGTERM while workers compute (issue item 3)."""
    # one HTTP thread: it relays, runs the library and stops it alone
    srv = Server(bouton, "--time-budget", str(BUDGET_MS * 5), "--compute-threads", "2",
                 "--threads", "1")
    heavy = {"game": "grundys-game", "upto": 4194304, "no_values": True}
    res = []
    threads = [threading.Thread(target=lambda: res.append(post(srv.port, "/v1/grundy", heavy, timeout=30)))
               for _ in range(4)]
    for t in threads:
        t.start()
    time.sleep(0.5)
    t = time.monotonic()
    srv.p.send_signal(signal.SIGTERM)
    try:
        rc = srv.p.wait(timeout=BUDGET_MS * 5 / 1000 + 1)
        secs = time.monotonic() - t
        if not check(rc == 0, "SIGTERM: exit status %s" % rc):
            # the server's own words say why (a sanitizer's report)
            print(srv.p.stderr.read().decode(errors="replace")[-4000:], file=sys.stderr)
        check(secs <= 1.0, "SIGTERM: exit after %.2f s with busy workers" % secs)
        print("  SIGTERM with 4 heavy requests: exit %d after %.3f s" % (rc, secs), flush=True)
    except subprocess.TimeoutExpired:
        fail("SIGTERM: no exit within the budget plus 1 s")
    srv.stop()
    for th in threads:
        th.join()
    check(all(r[1] in (503, 0) for r in res), "SIGTERM: the heavy requests got %s" % [r[1] for r in res])


def item_gmp(bouton):
    """GMP's numbers count against --request-memory (issue 26).

    The analysis of 3 001 Nim piles of 2 000 digits (9 then digits of one
    random text: every pile is a winning move) copies each value and lists
    3 001 moves, about 5 MB of numbers beyond the 2.5 MB position, which
    its parse charges.  With --request-memory 4 MiB it is refused 422
    ELIMIT at the limit (it was answered 200, its numbers uncharged); the
    server, under a 1 GB address-space cap where the build allows one,
    stays up and its RSS comes back near its baseline.  Since the server's
    own allocations count too (item_json), the request's 6 MB of JSON
    passes the figure first: the refusal names either (a Nim position's
    text is 2.4 bytes a limb, and its JSON more, so no Nim request reaches
    the numbers' half first; test_budget.c checks that half alone)."""
    import resource

    def cap():
        resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))

    capped = subprocess.run([bouton, "--version"], preexec_fn=cap,
                            capture_output=True).returncode == 0
    rng = random.Random(26)
    digits = "".join(rng.choice("0123456789") for _ in range(20000))
    text = "nim " + " ".join("9" + digits[(i * 7919) % 18000:][:1999]
                             for i in range(3001))
    args = ["--request-memory", str(4 << 20), "--max-body", str(16 << 20),
            "--time-budget", str(BUDGET_MS), "--threads", "2"]
    srv = Server(bouton, *args, preexec=cap if capped else None)
    try:
        srv.alive("gmp: start")
        base = rss(srv.p.pid)
        body = bounded(srv, "analyze 3001 piles of 2000 digits", "/v1/analyze",
                       {"position": text}, (422,), base)
        check((b"max_memory" in body or b"JSON" in body) and b"ELIMIT" in body,
              "gmp: the refusal names no memory limit: %r" % body[:200])
    finally:
        srv.stop()


def item_json(bouton):
    """The server's own allocations count against --request-memory (issue 26).

    A page of a Nim table of 16 piles of 50 000 digits (9 rows, 7.2 MB of
    answer, twice that with its JSON tree) from a request of 100 KB: the
    library's part is small (the table holds two rows), but the answer's
    JSON and text are the server's.  With --request-memory 4 MiB it is
    refused 422 ELIMIT naming the request's JSON (it was answered 200, the
    tree and text uncounted); the server, under a 1 GB address-space cap
    where the build allows one, answers the next request."""
    import resource

    def cap():
        resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))

    capped = subprocess.run([bouton, "--version"], preexec_fn=cap,
                            capture_output=True).returncode == 0
    low = "1" + "0" * 49999
    high = "1" + "0" * 49998 + "2"
    args = ["--request-memory", str(4 << 20), "--time-budget", str(BUDGET_MS),
            "--threads", "2"]
    srv = Server(bouton, *args, preexec=cap if capped else None)
    try:
        srv.alive("json: start")
        base = rss(srv.p.pid)
        body = bounded(srv, "table page of 16 piles of 50000 digits", "/v1/table",
                       {"game": "nim", "piles": 16, "min": low, "below": high},
                       (422,), base)
        check(b"ELIMIT" in body and b"JSON" in body,
              "json: the refusal does not name the request's JSON: %r" % body[:200])
        # a small page of the same table is still answered
        bounded(srv, "table page of 2 piles of 50000 digits", "/v1/table",
                {"game": "nim", "piles": 2, "min": low, "below": high},
                (200,), base)
    finally:
        srv.stop()


def main():
    bouton = os.path.abspath(sys.argv[1])
    help_text = subprocess.run([bouton, "analyze", "--help"], capture_output=True, text=True).stdout
    has_memory_budget = "--max-memory" in help_text
    for bad in (["--compute-threads", "0"], ["--header-timeout", "0"], ["--body-timeout", "x"],
                ["--max-queue", "-1"], ["--request-memory", "0"], ["--max-connections-per-ip", "1e3"]):
        r = subprocess.run([bouton, "serve", "--port", "0", *bad], capture_output=True, text=True, timeout=10)
        check(r.returncode == 2 and r.stderr.count("\n") == 1 and bad[0] in r.stderr,
              "serve %s: exit %d, %r" % (" ".join(bad), r.returncode, r.stderr))
    srv = Server(bouton, "--time-budget", str(BUDGET_MS), "--max-connections", "64",
                 "--max-connections-per-ip", "16", "--header-timeout", "1000",
                 "--body-timeout", "2000", "--compute-threads", "1", "--max-queue", "8",
                 "--max-heavy-per-ip", "2", "--request-memory", str(REQUEST_MEMORY),
                 # three HTTP threads whatever the CPUs: connections are
                 # handed from the accepting thread to the others
                 "--threads", "3")
    try:
        srv.alive("start")
        item_6(srv)
        item_4(srv)
        item_5(srv, 1000)
        # last: they need the library's polling and memory budget, and a
        # computation that does not poll its budget holds an HTTP thread
        items_1_2(srv, has_memory_budget)
    finally:
        srv.stop()
    item_3(bouton)
    item_gmp(bouton)
    item_json(bouton)
    print("hostile: %d checks, %d failed" % (checks, fails))
    sys.exit(1 if fails else 0)


if __name__ == "__main__":
    main()
