#!/usr/bin/python3
"""bench/serve_bench.py - the analysis board's figures (make bench, via
bench/serve.sh; docs/BENCHMARKS.md, "Analysis board"):
  page ready     the page in headless Chromium, from the address opened to the
                 board drawn and its WebSocket open (median of RUNS loads)
  first line     a page's WebSocket: "analyse" sent -> the first line back
                 (median of RUNS)
  nodes a second the server's analysis (a worker process) against the REPL's
                 `go`, the same node budget from the start position, run in
                 turn (median of RUNS pairs; the ratio should be within 10%
                 of 1)
  50 pages       50 WebSockets analysing at once (--max-analyses 50, 3 s
                 each): every page gets its lines, each depth once, and its
                 "done"; the wall time and the lines delivered
Each prints one line "NAME: FIGURE"."""
import os, re, shutil, statistics, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tests"))
import serve_check  # noqa: E402  (its WebSocket client)

CHESKERS = os.environ.get("CHESKERS", os.path.join(ROOT, "cheskers"))
RUNS = int(os.environ.get("BENCH_RUNS", "5"))
NODES = 3000000


def start(tmp, *args):
    p = subprocess.Popen([CHESKERS, "serve", "--port", "0"] + list(args), stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL, text=True, cwd=tmp)
    while True:
        line = p.stdout.readline()
        m = re.search(r"(http://\S+)/\?token=([0-9a-f]+)", line)
        if m:
            return p, m.group(0), m.group(1), m.group(2)
        if not line:
            raise SystemExit("cheskers serve did not start")


def page_ready(url):
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
        from selenium.webdriver.support.ui import WebDriverWait
    except ImportError:
        return None
    tmp = tempfile.mkdtemp(dir="/tmp")   # short paths: Chromium's sockets live there
    opts = webdriver.ChromeOptions()
    for a in ("--headless=new", "--no-sandbox", "--disable-gpu", "--user-data-dir=" + tmp):
        opts.add_argument(a)
    drv = webdriver.Chrome(service=Service(shutil.which("chromedriver") or "/usr/bin/chromedriver",
                                           env=dict(os.environ, TMPDIR=tmp)), options=opts)
    times = []
    try:
        for _ in range(RUNS):
            drv.get("about:blank")
            t0 = time.time()
            drv.get(url)
            WebDriverWait(drv, 30, poll_frequency=0.01).until(
                lambda d: d.execute_script("return document.body.dataset.ready === '1' && S.ws && S.ws.readyState === 1"))
            times.append(time.time() - t0)
    finally:
        drv.quit()
        shutil.rmtree(tmp, ignore_errors=True)
    return statistics.median(times)


def first_line(base, token):
    times = []
    ws = serve_check.WS(base, token)
    for i in range(RUNS):
        t0 = time.time()
        ws.send({"op": "analyse", "id": i, "time": 5})
        while True:
            m = ws.recv()
            if m.get("type") == "info" and m.get("id") == i:
                break
        times.append(time.time() - t0)
        ws.send({"op": "stop"})
        while ws.recv().get("type") != "stopped":
            pass
    ws.close()
    return statistics.median(times)


def server_nps(base, token):
    st, lines = serve_check.api(base, token, "/api/analyse", {"nodes": NODES})
    done = lines[-1]
    return done["nodes"] / done["time"]


def repl_nps():
    r = subprocess.run([CHESKERS, "-c", "go nodes %d" % NODES], capture_output=True, text=True)
    m = re.search(r"([0-9.]+)([kM]?) nps\)", r.stdout)
    return float(m.group(1)) * {"": 1, "k": 1e3, "M": 1e6}[m.group(2)]


def nps_pairs(base, token):
    """The two side by side, in turn (the machine's load changes)."""
    pairs = [(server_nps(base, token), repl_nps()) for _ in range(RUNS)]
    return (statistics.median(a for a, _ in pairs), statistics.median(b for _, b in pairs),
            statistics.median(a / b for a, b in pairs))


def fifty_pages(base, token, n=50, seconds=3):
    pages = [serve_check.WS(base, token) for _ in range(n)]
    t0 = time.time()
    for i, ws in enumerate(pages):
        ws.send({"op": "analyse", "id": i, "time": seconds})
    lines, ok = 0, 0
    for i, ws in enumerate(pages):
        depths = []
        while True:
            m = ws.recv(120)
            if m.get("type") == "info":
                lines += 1
                if not m["partial"]:
                    depths.append(m["depth"])
            elif m.get("type") == "done":
                break
        if depths and depths == list(range(depths[0], depths[0] + len(depths))):
            ok += 1
    wall = time.time() - t0
    for ws in pages:
        ws.close()
    return ok, lines, wall


def main():
    tmp = tempfile.mkdtemp()
    p, url, base, token = start(tmp, "--max-analyses", "50")
    try:
        ready = page_ready(url)
        print("page ready (headless Chromium, loopback): %s" % ("%.3f s" % ready if ready else "skipped: no selenium"))
        print("first analysis line after 'analyse': %.3f s (median of %d)" % (first_line(base, token), RUNS))
        s, r, ratio = nps_pairs(base, token)
        print("analysis nodes a second: server %.0f, REPL go %.0f, ratio %.3f (medians of %d pairs, %d nodes)"
              % (s, r, ratio, RUNS, NODES))
        ok, lines, wall = fifty_pages(base, token)
        print("50 pages analysing at once (3 s each): %d of 50 complete with every depth, %d lines, %.1f s"
              % (ok, lines, wall))
    finally:
        p.terminate()
        p.wait()
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
