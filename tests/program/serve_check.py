#!/usr/bin/env python3
"""tests/program/serve_check.py - cheskers serve from the outside (TAP): the API
(position, play, analyse as a stream, probe, check, bot, record, rules,
puzzles, the WebSocket of a page) and every point of "safe by default":
the token, Host and Origin, body size, malformed JSON, a slow client,
a thousand sockets, one analysis per page, a search stopped when its
socket closes, a clean stop on SIGINT, and --open (a stand-in browser
opener on PATH; none at all). Run by tests/program/serve_test.sh.
Figures compared are the rules' own (the start has 9 legal moves, tests/
perft_spec.lua), not the program's output."""
import base64, json, os, re, signal, socket, struct, subprocess, sys, tempfile, threading, time
import urllib.request, urllib.error

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CHESKERS = os.environ.get("CHESKERS", os.path.join(ROOT, "cheskers"))
TMP = tempfile.mkdtemp()
n = 0
failed = 0


def ok(cond, name, diag=""):
    global n, failed
    n += 1
    if cond:
        print("ok %d - %s" % (n, name))
    else:
        failed += 1
        print("not ok %d - %s" % (n, name))
        for line in str(diag).splitlines()[:20]:
            print("#   " + line)
    sys.stdout.flush()


def start(*args, env=None):
    global ERR
    ERR = os.path.join(TMP, "serve.err")
    p = subprocess.Popen([CHESKERS, "serve", "--port", "0"] + list(args), stdout=subprocess.PIPE,
                         stderr=open(ERR, "w"), text=True, cwd=TMP, env=env)
    lines = []
    while True:
        line = p.stdout.readline()
        if not line:
            raise SystemExit("Bail out! cheskers serve did not start: " + open(ERR).read())
        lines.append(line)
        m = re.search(r"(http://[^ ]+)/\?token=([0-9a-f]+)", line)
        if m:
            return p, m.group(1), m.group(2), "".join(lines)


def request(base, path, body=None, token=None, headers=None, raw=None):
    data = raw if raw is not None else (json.dumps(body).encode() if body is not None else None)
    req = urllib.request.Request(base + path, data=data, method="POST" if data is not None else "GET")
    if token:
        req.add_header("X-Cheskers-Token", token)
    for k, v in (headers or {}).items():
        req.add_header(k, v)
    try:
        with urllib.request.urlopen(req, timeout=60) as r:
            return r.status, r.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode()


def api(base, token, path, body):
    status, text = request(base, path, body, token)
    if path in ("/api/analyse", "/api/bot", "/api/check", "/api/solve") and status == 200:
        return status, [json.loads(l) for l in text.splitlines() if l.strip()]
    return status, json.loads(text)


# ---- a minimal WebSocket client (RFC 6455; text frames, masked) -------------
class WS:
    def __init__(self, base, token, origin=None):
        host, port = base[len("http://"):].split(":")
        self.s = socket.create_connection((host, int(port)), timeout=30)
        key = base64.b64encode(os.urandom(16)).decode()
        hdr = ("GET /api/ws?token=%s HTTP/1.1\r\nHost: %s:%s\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
               "Sec-WebSocket-Key: %s\r\nSec-WebSocket-Version: 13\r\n" % (token, host, port, key))
        if origin:
            hdr += "Origin: %s\r\n" % origin
        self.s.sendall((hdr + "\r\n").encode())
        resp = b""
        while b"\r\n\r\n" not in resp:
            chunk = self.s.recv(4096)
            if not chunk:
                break
            resp += chunk
        self.status = resp.split(b" ")[1].decode() if resp else "none"
        self.buf = resp.split(b"\r\n\r\n", 1)[1] if b"\r\n\r\n" in resp else b""

    def send(self, obj):
        data = json.dumps(obj).encode()
        mask = os.urandom(4)
        head = bytes([0x81])
        if len(data) < 126:
            head += bytes([0x80 | len(data)])
        else:
            head += bytes([0x80 | 126]) + struct.pack(">H", len(data))
        self.s.sendall(head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(data)))

    def _read(self, k):
        while len(self.buf) < k:
            chunk = self.s.recv(65536)
            if not chunk:
                raise EOFError
            self.buf += chunk
        out, self.buf = self.buf[:k], self.buf[k:]
        return out

    def recv(self, timeout=30):
        self.s.settimeout(timeout)
        b0, b1 = self._read(2)
        ln = b1 & 0x7F
        if ln == 126:
            ln = struct.unpack(">H", self._read(2))[0]
        elif ln == 127:
            ln = struct.unpack(">Q", self._read(8))[0]
        data = self._read(ln)
        if b0 & 0x0F == 8:
            raise EOFError
        return json.loads(data.decode())

    def close(self):
        self.s.close()


def state(base, token):
    return api(base, token, "/api/state", None)[1]


def wait_for(pred, seconds=20):
    end = time.time() + seconds
    while time.time() < end:
        if pred():
            return True
        time.sleep(0.1)
    return pred()


def main():
    tb = os.path.join(TMP, "tb")
    subprocess.run([CHESKERS, "tb", "build", "--pieces", "3", "--dir", tb], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    puzzles = os.path.join(ROOT, "scripts", "puzzles", "win-in-1.lua")
    p, base, token, banner = start("--tb", tb, "--timeout", "2", "--max-time", "30", "--puzzles", puzzles,
                                   "--bot", "random", "--bot", "engine:level=1")
    try:
        run(p, base, token, banner)
        capped()
        opened()
    except Exception:
        print("# server's stderr: " + open(ERR).read()[-3000:].replace("\n", "\n# "))
        raise
    finally:
        if p.poll() is None:
            p.kill()
        p.wait()
        if failed:
            print("# server's stderr: " + open(ERR).read()[-3000:].replace("\n", "\n# "))
    print("1..%d" % n)


def run(p, base, token, banner):
    ok("127.0.0.1 only" in banner and base.startswith("http://127.0.0.1:"), "listens on the loopback only, and says so",
       banner)
    ok(len(token) == 32, "the address carries a 128-bit random token")

    # ---- the door
    st, text = request(base, "/api/info")
    ok(st == 403 and "token" in text, "a request without the token is refused", "%s %s" % (st, text))
    st, text = request(base, "/api/info", token="0" * 32)
    ok(st == 403, "a wrong token is refused", st)
    st, text = request(base, "/?token=" + token)
    ok(st == 200 and "<html" in text.lower(), "the page is served with the token in the address", st)
    st, text = request(base, "/api/info", token=token, headers={"Host": "evil.example:80"})
    ok(st == 403 and "Host" in text, "a request for another Host is refused (DNS rebinding)", text)
    st, text = request(base, "/api/info", token=token, headers={"Origin": "http://evil.example"})
    ok(st == 403 and "Origin" in text, "a request from another Origin is refused (cross-site)", text)
    st, _ = request(base, "/api/info", token=token, headers={"Origin": base})
    ok(st == 200, "a request from the server's own Origin is served", st)
    st, _ = request(base, "/board.js")
    ok(st == 403, "the page's own files need the token too", st)
    st, _ = request(base, "/board.js", headers={"Cookie": "cheskers_token_%s=%s" % (base.rsplit(":", 1)[1], token)})
    ok(st == 200, "the page's cookie carries it", st)
    st, text = request(base, "/api/play", token=token, raw=b"[" * 100000)
    ok(st == 400 and "nested too deeply" in text, "JSON nested too deeply gets 400", text)
    st, _ = request(base, "/../../../etc/passwd?token=" + token)
    ok(st == 404, "no file outside the page's own is served", st)

    # ---- bodies
    st, text = request(base, "/api/play", token=token, raw=b"{bad")
    ok(st == 400 and "malformed JSON" in text, "malformed JSON gets 400 and says so", text)
    st, text = request(base, "/api/play", token=token, raw=b"{" + b" " * (400 * 1024) + b"}")
    ok(st == 413, "a body over the cap gets 413", "%s %s" % (st, text[:200]))
    s = socket.create_connection(("127.0.0.1", int(base.rsplit(":", 1)[1])))
    s.sendall(("POST /api/play HTTP/1.1\r\nHost: %s\r\nX-Cheskers-Token: %s\r\nContent-Length: 99999999999\r\n\r\n"
               % (base[7:], token)).encode())
    reply = s.recv(4096).decode(errors="replace")
    s.close()
    ok(" 413 " in reply.split("\r\n")[0], "a body announced over the cap is refused before it is read", reply[:200])

    # ---- the API
    st, pos = api(base, token, "/api/position", {})
    ok(st == 200 and len(pos["moves"]) == 9 and pos["turn"] == "black", "the start position: Black to move, 9 moves",
       pos)
    st, pos = api(base, token, "/api/position", {"fen": "7k/8/5p2/8/3p4/8/1p6/K7 w"})
    chain = [m for m in pos.get("moves", []) if m["text"] == "a1xc3xe5xg7"]
    ok(st == 200 and len(chain) == 1 and chain[0]["path"] == ["c3", "e5", "g7"] and
       sorted(chain[0]["captures"]) == ["b2", "d4", "f6"], "a jump chain comes with its path and captures", pos)
    st, out = api(base, token, "/api/play", {"move": "d6-d5"})
    ok(st == 400 and out["error"].startswith("illegal move d6-d5: d5 is a light square"),
       "a refused move gets the REPL's wording", out)
    st, out = api(base, token, "/api/play", {"moves": ["d6-e5"], "move": "c3-d4"})
    ok(st == 200 and out["played"] == "c3-d4" and out["last"]["from"] == "c3" and out["turn"] == "black",
       "a move played: the position after it, the last move", out)
    st, out = api(base, token, "/api/position", {"moves": ["d6-e5", "d6-e5"]})
    ok(st == 400 and out["error"].startswith("moves: move 2: "), "a line with a refused move names the move", out)
    st, out = api(base, token, "/api/position", {"rules": "majorty=false"})
    ok(st == 400 and "did you mean 'majority'" in out["error"], "bad rules text gets \"did you mean\"", out)
    st, out = api(base, token, "/api/rules", {"rules": "majority=false"})
    ok(st == 200 and out["text"] == "majority=false" and out["options"]["majority"] is False,
       "rules text is read and written back", out)
    st, out = api(base, token, "/api/rules", {"rules": "dofile('/etc/passwd')"})
    ok(st == 400, "rules text is data, not code", out)

    # analysis as a stream
    t0 = time.time()
    st, lines = api(base, token, "/api/analyse", {"time": 1.5})
    infos = [l for l in lines if l.get("type") == "info"]
    ok(st == 200 and len(infos) >= 2 and lines[-1]["type"] == "done" and
       all(infos[i]["depth"] <= infos[i + 1]["depth"] for i in range(len(infos) - 1)) and
       all(i["pv"] and i["nodes"] > 0 for i in infos), "analysis lines stream, deepening, then done", lines[-3:])
    ok(time.time() - t0 < 15, "an analysis keeps to its time", time.time() - t0)
    st, lines = api(base, token, "/api/analyse", {"time": 2, "multipv": 3})
    last = {}
    for l in lines:
        if l.get("type") == "info":
            last[l["multipv"]] = l
    ok(st == 200 and sorted(last) == [1, 2, 3] and len({l["pv"][0] for l in last.values()}) == 3 and
       last[1]["score"] >= last[2]["score"] >= last[3]["score"], "several best lines: distinct moves, best first",
       last)
    st, out = api(base, token, "/api/analyse", {"fen": "7k/8/8/8/8/8/8/K7 w", "moves": []})
    ok(st == 200, "an analysis of a bare position", out)

    # tablebases
    st, out = api(base, token, "/api/probe", {"fen": "8/8/8/8/8/2k5/8/K7 w"})
    ok(st == 200 and out["covered"] and all("text" in m for m in out["moves"]) and len(out["moves"]) >= 1,
       "the tables' verdict on a 2-piece position and each move", out)
    st, out = api(base, token, "/api/probe", {"fen": "8/8/8/8/8/2k5/1P6/K7 w"})
    ok(st == 200 and out["covered"] and out["moves"][0]["value"] in ("win", "draw", "loss") and
       re.match(r"^(win in \d+|draw|loss in \d+)$", out["moves"][0]["text"]),
       "3 pieces: every move has a verdict in the REPL's words", out)

    # puzzles
    st, out = api(base, token, "/api/puzzle/read", {"name": "win-in-1.lua"})
    ok(st == 200 and len(out["puzzles"]) > 0 and out["puzzles"][0]["goal"].endswith("in 1."),
       "the collection named on the command line is offered", out)
    pz = out["puzzles"][0]
    st, lines = api(base, token, "/api/check", {"fen": pz["fen"], "rules": pz.get("rules"), "n": pz["moves"],
                                                "solution": pz["solution"]})
    ok(st == 200 and lines[-1]["type"] == "report" and lines[-1]["ok"] is True, "the checker's verdict", lines)
    st, lines = api(base, token, "/api/solve", {"fen": pz["fen"], "rules": pz.get("rules"), "n": 1, "hint": True})
    ok(st == 200 and lines[-1]["type"] == "hint" and lines[-1]["win"], "a hint", lines)
    st, lines = api(base, token, "/api/solve", {"fen": pz["fen"], "rules": pz.get("rules"), "n": 1,
                                                "move": pz["solution"][0]})
    ok(st == 200 and lines[-1]["type"] == "verdict" and lines[-1]["wins"] and lines[-1]["solved"],
       "the solution's move wins", lines)
    st, out = api(base, token, "/api/puzzle/read", {"text": "os.execute('touch pwned') return {}"})
    ok(st == 400 and not os.path.exists(os.path.join(TMP, "pwned")), "a puzzle file is read as data only", out)
    st, out = api(base, token, "/api/puzzle/save", {"fen": pz["fen"], "n": 1, "moves": pz["solution"][:1],
                                                    "title": "Mine"})
    path = os.path.join(TMP, "saved.lua")
    with open(path, "w") as f:
        f.write(out.get("text", ""))
    chk = subprocess.run([CHESKERS, "check", path], capture_output=True, text=True)
    ok(st == 200 and chk.returncode == 0, "a position saved as a puzzle file passes cheskers check",
       out.get("text", out) + chk.stdout + chk.stderr)

    # records
    st, out = api(base, token, "/api/record/write", {"moves": ["d6-e5", "c3-d4"], "tags": {"White": "Ann"}})
    ok(st == 200 and "1. d6-e5 c3-d4" in out["text"] and '[White "Ann"]' in out["text"], "a record is written", out)
    st, back = api(base, token, "/api/record/read", {"text": out["text"]})
    ok(st == 200 and back["moves"] == ["d6-e5", "c3-d4"], "and read back", back)
    st, back = api(base, token, "/api/record/read", {"text": "1. d6-e5 d6-e5 *"})
    ok(st == 400 and "record" in back["error"], "a bad record is refused with where", back)

    # bots
    st, lines = api(base, token, "/api/bot", {"bot": "random", "moves": ["d6-e5"]})
    ok(st == 200 and lines[-1]["type"] == "move", "a bot offered plays a move", lines)
    st, out = api(base, token, "/api/bot", {"bot": "/etc/passwd"})
    ok(st == 400 and "not offered" in out["error"], "a bot not offered by the command line is refused", out)
    st, out = api(base, token, "/api/svg", {"moves": ["d6-e5"]})
    ok(st == 200 and out["svg"].startswith("<svg"), "the diagram as SVG", out)

    # ---- pages
    ws = WS(base, token, origin="http://evil.example")
    ok(ws.status == "403", "a WebSocket from another Origin is refused", ws.status)
    ws.close()
    ws = WS(base, token)
    ok(ws.status == "101", "a page opens its WebSocket", ws.status)
    ws.send({"op": "position", "fen": "", "moves": ["d6-e5"]})
    ws.send({"op": "analyse", "id": 1, "moves": ["d6-e5"], "time": 30})
    m = ws.recv()
    ok(m.get("type") == "info" and m.get("id") == 1, "analysis lines arrive on the page's socket", m)
    ws.send({"op": "analyse", "id": 2, "time": 30})
    ids = set()
    deadline = time.time() + 20
    while time.time() < deadline:
        m = ws.recv()
        ids.add((m.get("type"), m.get("id")))
        if m.get("type") == "info" and m.get("id") == 2:
            break
    s = state(base, token)
    ok(("stopped", 1) in ids and s["analyses_running"] == 1 and s["workers"] == 1,
       "a new analysis stops the page's last one: one at a time", (ids, s))
    ok(s["pages"] and s["pages"][0]["position"]["moves"] == ["d6-e5"], "the server holds what the page shows", s)
    ws.send({"op": "stop"})
    while True:
        m = ws.recv()
        if m.get("type") == "stopped":
            break
    ok(wait_for(lambda: state(base, token)["workers"] == 0), "stop ends the search's process", state(base, token))
    ws.send({"op": "analyse", "id": 3, "time": 30})
    ws.recv()
    ok(state(base, token)["workers"] == 1, "a second analysis runs", state(base, token))
    ws.close()
    ok(wait_for(lambda: state(base, token)["workers"] == 0 and not state(base, token)["pages"]),
       "closing the page stops its search", state(base, token))

    # ---- a slow client, and a thousand sockets
    page = WS(base, token)
    slow = socket.create_connection(("127.0.0.1", int(base.rsplit(":", 1)[1])))
    t0 = time.time()
    closed = False
    try:
        for ch in ("GET /api/info?token=%s HTTP/1.1\r\nHost: %s\r\n" % (token, base[7:])):
            slow.sendall(ch.encode())
            slow.settimeout(0.5)
            try:
                if slow.recv(4096) == b"":
                    closed = True
                    break
            except socket.timeout:
                pass
            if time.time() - t0 > 30:
                break
    except (BrokenPipeError, ConnectionResetError):
        closed = True
    ok(closed and time.time() - t0 < 30, "a client sending a byte at a time is cut off after its time-out",
       time.time() - t0)
    slow.close()
    try:
        import resource
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(max(soft, 2048), hard), hard))
    except (ImportError, ValueError):
        pass
    socks, refused = [], 0
    for _ in range(1000):
        try:
            socks.append(socket.create_connection(("127.0.0.1", int(base.rsplit(":", 1)[1])), timeout=5))
        except OSError:
            refused += 1
    time.sleep(0.5)
    got503 = 0
    for s in socks:
        s.settimeout(0.01)
        try:
            if b" 503 " in s.recv(200):
                got503 += 1
        except OSError:
            pass
    page.send({"op": "analyse", "id": 9, "time": 2})
    m = page.recv()
    ok(got503 > 0 and m.get("type") in ("info", "queued"),
       "1,000 open sockets: those over the cap get 503 at once, and a page open keeps working",
       "%d got 503, %d not connected; page got %s" % (got503, refused, m))
    for s in socks:
        s.close()
    ok(wait_for(lambda: request(base, "/api/info", token=token)[0] == 200, 30),
       "once they are gone, new requests are served")
    page.close()

    # ---- Ctrl-C
    ws = WS(base, token)
    ws.send({"op": "analyse", "id": 1, "time": 30})
    ws.recv()
    kids = subprocess.run(["pgrep", "-P", str(p.pid)], capture_output=True, text=True).stdout.split()
    p.send_signal(signal.SIGINT)
    try:
        out, _ = p.communicate(timeout=20)
    except subprocess.TimeoutExpired:
        out = "(still running)"
    gone = all(not os.path.exists("/proc/" + k) or
               open("/proc/%s/stat" % k).read().split()[2] == "Z" for k in kids)
    ok(p.returncode == 0 and "stopped" in out and kids and gone,
       "Ctrl-C stops the searches and the server", "%s %s %s" % (p.returncode, out, kids))
    ws.close()


def capped():
    """--max-analyses 1: a second page's analysis waits its turn, then runs."""
    p, base, token, _ = start("--max-analyses", "1")
    try:
        a, b = WS(base, token), WS(base, token)
        a.send({"op": "analyse", "id": 1, "time": 30})
        a.recv()
        b.send({"op": "analyse", "id": 2, "time": 30})
        m = b.recv()
        ok(m.get("type") == "queued" and state(base, token)["workers"] == 1,
           "above the cap of analyses a page's waits its turn", m)
        a.send({"op": "stop"})
        m = b.recv()
        ok(m.get("type") == "info" and m.get("id") == 2, "and runs when one ends", m)
        a.close()
        b.close()
    finally:
        p.kill()
        p.wait()


def open_line(p, seconds=60):
    """The server's line of output about --open, or "" when none comes within
    seconds."""
    got = []

    def read():
        for line in p.stdout:
            if "--open" in line:
                got.append(line)
                return
    t = threading.Thread(target=read, daemon=True)
    t.start()
    t.join(seconds)
    return got[0] if got else ""


def opened():
    """--open: the address goes to the browser opener (a stand-in xdg-open on
    PATH records what it was given); with no opener, one line says so and the
    server keeps running."""
    bindir = os.path.join(TMP, "opener")
    os.makedirs(bindir)
    got = os.path.join(TMP, "opened.txt")
    stub = os.path.join(bindir, "xdg-open")
    with open(stub, "w") as f:
        f.write('#!/bin/sh\nprintf "%%s\\n" "$#" "$@" >"%s.part" && mv "%s.part" "%s"\n' % (got, got, got))
    os.chmod(stub, 0o755)
    p, base, token, _ = start("--open", env=dict(os.environ, PATH=bindir + ":" + os.environ.get("PATH", "")))
    try:
        line = open_line(p)
        for _ in range(600):   # the opener runs in the background
            if os.path.exists(got):
                break
            time.sleep(0.1)
        argv = open(got).read().splitlines() if os.path.exists(got) else []
        ok(argv == ["1", base + "/?token=" + token] and base.startswith("http://127.0.0.1:") and len(token) == 32,
           "--open gives the opener one argument: the address, with the loopback host and the token",
           "%s %s %s" % (argv, base, token))
        ok("opened with xdg-open" in line, "and says which opener it used", line)
    finally:
        p.kill()
        p.wait()
    nobin = os.path.join(TMP, "nobin")
    os.makedirs(nobin)
    p, base, token, _ = start("--open", env=dict(os.environ, PATH=nobin))
    try:
        line = open_line(p)
        ok(re.match(r"cheskers serve: --open: no browser opener found \(xdg-open.*\): open the address", line),
           "--open with no opener on PATH says so in one line", line)
        st, _ = request(base, "/api/info", token=token)
        ok(st == 200 and p.poll() is None, "and the server keeps running", "%s %s" % (st, p.poll()))
    finally:
        p.kill()
        p.wait()


if __name__ == "__main__":
    try:
        main()
    finally:
        subprocess.run(["rm", "-rf", TMP])
    sys.exit(1 if failed else 0)
