#!/usr/bin/python3
"""tests/program/board_check.py - the analysis board in a real browser (headless
Chromium through Debian's chromium-driver and python3-selenium), TAP: load
the board, play a three-jump chain by clicks, promote, see a refused move explained
in the REPL's words, see analysis lines arrive and stop, see the tables'
verdicts in a 3-piece position, solve a puzzle, export and re-import a
record, and check what the server holds afterwards; then a variation
promoted and deleted, Home and End, and a bot's move; then a move by drag,
the flip, a rules preset, the exported address opened in a new page, the
SVG diagram downloaded, and a puzzle file saved that cheskers check passes
(downloads go to a folder of $TMPDIR). A screenshot of each step is taken into a folder of $TMPDIR, removed at the end unless
BOARD_SHOTS=DIR names a folder to copy them to. Run by tests/program/board_test.sh."""
import json, os, re, shutil, subprocess, sys, tempfile, time, urllib.request

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.support.ui import Select, WebDriverWait

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CHESKERS = os.environ.get("CHESKERS", os.path.join(ROOT, "cheskers"))
TMP = tempfile.mkdtemp(prefix="board-")
# Chromium's profile and its own temporary files go to a short folder of /tmp:
# a profile under tests/run.sh's long TMPDIR gives socket paths over the
# system's 108 characters, and Chromium does not start
BROWSER_TMP = tempfile.mkdtemp(prefix="chk-", dir="/tmp")
SHOTS = os.path.join(TMP, "shots")
os.makedirs(SHOTS)
DOWNLOADS = os.path.join(TMP, "downloads")
os.makedirs(DOWNLOADS)
n = 0
failed = 0
START = None


def ok(cond, name, diag=""):
    global n, failed
    n += 1
    print(("ok %d - %s" if cond else "not ok %d - %s") % (n, name))
    if not cond:
        failed += 1
        for line in str(diag).splitlines()[:20]:
            print("#   " + line)
    sys.stdout.flush()


def shot(drv, name):
    drv.save_screenshot(os.path.join(SHOTS, "%02d-%s.png" % (n, name)))


def main():
    tb = os.path.join(TMP, "tb")
    subprocess.run([CHESKERS, "tb", "build", "--pieces", "3", "--dir", tb], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    err = open(os.path.join(TMP, "serve.err"), "w")
    srv = subprocess.Popen([CHESKERS, "serve", "--port", "0", "--tb", tb, "--bot", "random", "--puzzles",
                            os.path.join(ROOT, "scripts", "puzzles", "win-in-1.lua")],
                           stdout=subprocess.PIPE, stderr=err, text=True, cwd=TMP)
    url = None
    while url is None:
        line = srv.stdout.readline()
        if not line:
            print("Bail out! cheskers serve did not start")
            return
        m = re.search(r"(http://\S+)", line)
        url = m and m.group(1)
    opts = webdriver.ChromeOptions()
    for a in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
              "--window-size=1280,1000", "--user-data-dir=" + os.path.join(BROWSER_TMP, "profile")):
        opts.add_argument(a)
    opts.add_experimental_option("prefs", {"download.default_directory": DOWNLOADS,
                                           "download.prompt_for_download": False})
    opts.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    env = dict(os.environ, TMPDIR=BROWSER_TMP)
    drv = webdriver.Chrome(service=Service(shutil.which("chromedriver") or "/usr/bin/chromedriver", env=env),
                           options=opts)
    drv.execute_cdp_cmd("Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": DOWNLOADS})
    try:
        run(drv, url)
    finally:
        drv.quit()
        srv.terminate()
        srv.wait(20)
        err.close()
        if failed:
            print("# server's stderr: " + open(os.path.join(TMP, "serve.err")).read()[-2000:].replace("\n", "\n# "))
    print("1..%d" % n)


def api(url, path, body=None):
    base, token = url.split("/?token=")
    req = urllib.request.Request(base + "/api/" + path, data=json.dumps(body).encode() if body is not None else None,
                                 headers={"X-Cheskers-Token": token})
    with urllib.request.urlopen(req, timeout=60) as r:
        return json.loads(r.read().decode())


def wait(drv, pred, seconds=20):
    try:
        return WebDriverWait(drv, seconds, poll_frequency=0.1).until(lambda d: pred())
    except Exception:
        return False


def fresh(f):
    """f() again while the page redraws under it: the board is drawn anew
    after each answer of the server, so an element found a moment before
    may be gone (stale) by the time it is used."""
    for _ in range(50):
        try:
            return f()
        except StaleElementReferenceException:
            time.sleep(0.1)
    return f()


def click(drv, sq):
    fresh(lambda: drv.find_element(By.CSS_SELECTOR, 'rect[data-sq="%s"]' % sq).click())


def classes(drv, sq):
    return fresh(lambda: drv.find_element(By.CSS_SELECTOR, 'rect[data-sq="%s"]' % sq).get_attribute("class"))


def text(drv, id_):
    return fresh(lambda: drv.find_element(By.ID, id_).text)


def set_fen(drv, fen):
    box = drv.find_element(By.ID, "fen")
    box.clear()
    box.send_keys(fen + Keys.ENTER)
    wait(drv, lambda: drv.find_element(By.ID, "fen").get_attribute("value").startswith(fen.split(" ")[0]))
    drv.execute_script("document.activeElement.blur()")


def piece_at(drv, sq):
    def get():
        els = drv.find_elements(By.CSS_SELECTOR, 'g.pc[data-sq="%s"]' % sq)
        return els[0].get_attribute("data-piece") if els else None
    return fresh(get)


def run(drv, url):
    t0 = time.time()
    drv.get(url)
    ok(wait(drv, lambda: drv.execute_script("return document.body.dataset.ready") == "1"),
       "the board loads", drv.page_source[:500])
    ok(len(drv.find_elements(By.CSS_SELECTOR, "g.pc")) == 24 and text(drv, "turn") == "Black to move",
       "the start position: 24 pieces, Black to move", text(drv, "turn"))
    shot(drv, "board")

    # a three-jump chain, square by square, continuations shown
    set_fen(drv, "7k/8/5p2/8/3p4/8/1p6/K7 w")
    click(drv, "a1")
    ok("sq-target" in classes(drv, "c3"), "a piece selected shows where it can go", classes(drv, "c3"))
    click(drv, "c3")
    ok("sq-target" in classes(drv, "e5") and "continue" in text(drv, "message"),
       "after the first jump, the continuation is shown", text(drv, "message"))
    shot(drv, "chain-step")
    click(drv, "e5")
    click(drv, "g7")
    ok(wait(drv, lambda: piece_at(drv, "g7") == "K" and piece_at(drv, "d4") is None and
            text(drv, "turn") == "Black to move"), "the three-jump chain is played: three pieces taken",
       drv.find_element(By.ID, "tree").text)
    ok("a1xc3xe5xg7" in text(drv, "tree"), "the move list shows it", text(drv, "tree"))
    shot(drv, "chain-done")

    # a promotion offers the kinds the rules allow
    set_fen(drv, "8/6P1/8/8/8/8/8/K5k1 w")
    click(drv, "g7")
    click(drv, "h8")
    kinds = sorted(b.get_attribute("data-promotion") for b in drv.find_elements(By.CSS_SELECTOR, "#promo button"))
    ok(kinds == ["B", "C", "K"], "a promotion offers the kinds the rules allow", kinds)
    drv.find_element(By.CSS_SELECTOR, '#promo button[data-promotion="C"]').click()
    ok(wait(drv, lambda: piece_at(drv, "h8") == "C"), "and plays the one chosen", piece_at(drv, "h8"))

    # a refused move, in the REPL's words
    set_fen(drv, START)
    click(drv, "d6")
    click(drv, "d4")
    ok(wait(drv, lambda: text(drv, "message").startswith("illegal move d6-d4")), "a refused move is explained",
       text(drv, "message"))
    repl = subprocess.run([CHESKERS, "-c", "d6-d4"], capture_output=True, text=True, cwd=TMP)
    ok(text(drv, "message") in (repl.stdout + repl.stderr), "in the REPL's words",
       "page: %s\nREPL: %s" % (text(drv, "message"), repl.stdout + repl.stderr))
    shot(drv, "refused")

    # analysis: lines arrive, then stop
    drv.find_element(By.TAG_NAME, "body").send_keys(" ")
    ok(wait(drv, lambda: len(drv.find_elements(By.CSS_SELECTOR, "#lines .line")) > 0 and
            re.search(r" d([3-9]|\d\d) ", text(drv, "lines"))), "analysis lines arrive", text(drv, "lines"))
    shot(drv, "analysis")
    drv.find_element(By.TAG_NAME, "body").send_keys(" ")
    ok(wait(drv, lambda: api(url, "state")["workers"] == 0), "a key stops the analysis: no search left running",
       api(url, "state"))
    ok(text(drv, "status") == "stopped", "the page says so", text(drv, "status"))

    # tablebases in a 3-piece position
    set_fen(drv, "8/8/8/8/8/2k5/1P6/K7 w")
    ok(wait(drv, lambda: len(drv.find_elements(By.CSS_SELECTOR, "#tb .tb-move")) > 0),
       "the tables' verdict is shown for each move", text(drv, "tb"))
    ok(all(re.search(r"(win in \d+|draw|loss in \d+)$", e.text)
           for e in drv.find_elements(By.CSS_SELECTOR, "#tb .tb-move")), "as the REPL's tb words it", text(drv, "tb"))
    shot(drv, "tablebases")

    # a puzzle of the collection, solved
    Select(drv.find_element(By.ID, "puzzle-file")).select_by_visible_text("win-in-1.lua")
    ok(wait(drv, lambda: len(drv.find_elements(By.CSS_SELECTOR, "#puzzle option")) > 0), "the puzzle file opens")
    drv.find_element(By.ID, "puzzle-open").click()
    pz = api(url, "puzzle/read", {"name": "win-in-1.lua"})["puzzles"][0]
    ok(wait(drv, lambda: text(drv, "puzzle-info") == pz["goal"]), "the puzzle's goal is shown", text(drv, "puzzle-info"))
    drv.find_element(By.ID, "hint").click()
    first = api(url, "position", {"fen": pz["fen"], "rules": pz.get("rules") or ""})
    move = [m for m in first["moves"] if m["text"] == pz["solution"][0]][0]
    ok(wait(drv, lambda: text(drv, "message").startswith("Hint: move the piece on")), "a hint", text(drv, "message"))
    click(drv, move["from"])
    for sq in move["path"]:
        click(drv, sq)
    ok(wait(drv, lambda: text(drv, "message").startswith("Solved!")), "the puzzle is solved", text(drv, "message"))
    shot(drv, "puzzle")

    # export a record, then read it back
    drv.execute_script("document.getElementById('preset').value = ''")
    set_fen(drv, START)
    click(drv, "d6"); click(drv, "e5")
    wait(drv, lambda: text(drv, "turn") == "White to move")
    click(drv, "c3"); click(drv, "d4")
    wait(drv, lambda: text(drv, "turn") == "Black to move")
    drv.find_element(By.ID, "export").click()
    ok(wait(drv, lambda: "1. d6-e5 c3-d4" in drv.find_element(By.ID, "record").get_attribute("value")),
       "the record is exported", drv.find_element(By.ID, "record").get_attribute("value"))
    record = drv.find_element(By.ID, "record").get_attribute("value")
    drv.find_element(By.ID, "first").click()
    wait(drv, lambda: text(drv, "turn") == "Black to move" and piece_at(drv, "d6") == "p")
    box = drv.find_element(By.ID, "record")
    box.clear()
    box.send_keys(record)
    drv.find_element(By.ID, "import").click()
    ok(wait(drv, lambda: text(drv, "message").startswith("record imported: 2 moves") and piece_at(drv, "d4") == "P"),
       "and imported again: the same line, the position after it", text(drv, "message"))
    shot(drv, "record")
    ok(wait(drv, lambda: (api(url, "state")["pages"] or [{}])[0].get("position", {}).get("moves") == ["d6-e5", "c3-d4"]),
       "the server holds the page's line", api(url, "state"))
    # the move tree: a variation, promoted, deleted; the keys
    body = drv.find_element(By.TAG_NAME, "body")
    body.send_keys(Keys.ARROW_LEFT)
    wait(drv, lambda: text(drv, "turn") == "White to move")
    click(drv, "e3"); click(drv, "d4")
    ok(wait(drv, lambda: "( e3-d4 )" in text(drv, "tree")),
       "another move from an earlier position starts a variation", text(drv, "tree"))
    drv.find_element(By.ID, "promote").click()
    ok(wait(drv, lambda: text(drv, "tree").startswith("1. d6-e5 e3-d4")), "a variation promoted becomes the main line",
       text(drv, "tree"))
    drv.find_element(By.ID, "delete").click()
    ok(wait(drv, lambda: "e3-d4" not in text(drv, "tree") and "c3-d4" in text(drv, "tree")), "and deleted",
       text(drv, "tree"))
    body.send_keys(Keys.HOME)
    ok(wait(drv, lambda: piece_at(drv, "d6") == "p" and piece_at(drv, "e5") is None), "Home goes to the start")
    body.send_keys(Keys.END)
    ok(wait(drv, lambda: piece_at(drv, "d4") == "P" and text(drv, "turn") == "Black to move"), "End to the line's end")
    Select(drv.find_element(By.ID, "bot")).select_by_visible_text("random")
    drv.find_element(By.ID, "botmove").click()
    ok(wait(drv, lambda: text(drv, "turn") == "White to move" and len(text(drv, "tree").split()) >= 5),
       "a bot plays its move", text(drv, "tree"))

    more(drv, url, pz, move)

    # (the API's refusals are answers with status 400: the console notes them
    # as failed loads, source "network"; an error of the page's code is not)
    logs = [c for c in drv.get_log("browser") if c["level"] == "SEVERE" and c.get("source") != "network"]
    ok(not logs, "no error of the page's code in the browser's console", logs)
    ok(time.time() - t0 < 60, "the whole walk takes under a minute", time.time() - t0)


def rect(drv, sq):
    return drv.find_element(By.CSS_SELECTOR, 'rect[data-sq="%s"]' % sq)


def drag(drv, sq_from, sq_to):
    """Presses on sq_from, moves to sq_to, releases there."""
    def go():
        a, b = rect(drv, sq_from), rect(drv, sq_to)
        dx, dy = b.location["x"] - a.location["x"], b.location["y"] - a.location["y"]
        ActionChains(drv).move_to_element(a).click_and_hold().move_by_offset(dx, dy).release().perform()
    fresh(go)


def download(drv, link_id):
    """The file the page's download link #link_id saves, clicked as a user
    would (the page's policy lets no script of ours read its blob)."""
    link = fresh(lambda: drv.find_element(By.ID, link_id))
    name = link.get_attribute("download")
    path = os.path.join(DOWNLOADS, name)
    if os.path.exists(path):
        os.remove(path)
    fresh(lambda: drv.find_element(By.ID, link_id).click())
    if not wait(drv, lambda: os.path.exists(path) and os.path.getsize(path) > 0, 10):
        return ""
    time.sleep(0.2)
    with open(path) as f:
        return f.read()


def more(drv, url, pz, move):
    """A move by drag, the flip, a rules change, the address restoring it all,
    the SVG diagram, and a position saved as a puzzle file that check reads."""
    Select(drv.find_element(By.ID, "preset")).select_by_value("")
    # a jump chain dragged to where it ends, as the REPL takes a1xg7 for the one chain ending there
    set_fen(drv, "7k/8/5p2/8/3p4/8/1p6/K7 w")
    wait(drv, lambda: piece_at(drv, "a1") == "K")
    drag(drv, "a1", "g7")
    ok(wait(drv, lambda: piece_at(drv, "g7") == "K" and piece_at(drv, "d4") is None and
            "a1xc3xe5xg7" in text(drv, "tree")), "a jump chain dragged to its last square is played",
       text(drv, "tree") + "\n" + text(drv, "message"))
    # a move by drag: pressed on d6, released on e5
    set_fen(drv, START)
    wait(drv, lambda: piece_at(drv, "d6") == "p" and text(drv, "turn") == "Black to move")
    drag(drv, "d6", "e5")
    ok(wait(drv, lambda: piece_at(drv, "e5") == "p" and piece_at(drv, "d6") is None and
            text(drv, "turn") == "White to move"), "a move by drag: d6 to e5", text(drv, "tree"))
    shot(drv, "drag")

    # the board flips: a1 goes from the bottom left to the top right, h8 the other way
    before = {sq: fresh(lambda: rect(drv, sq).location) for sq in ("a1", "h8")}
    drv.find_element(By.ID, "flip").click()
    after = {sq: fresh(lambda: rect(drv, sq).location) for sq in ("a1", "h8")}
    ok(after["a1"] == before["h8"] and after["h8"] == before["a1"] and before["a1"]["y"] > before["h8"]["y"],
       "the board flips: a1 and h8 change places", (before, after))
    ok(piece_at(drv, "e5") == "p", "the pieces stay on their squares", piece_at(drv, "e5"))
    drag(drv, "c3", "d4")
    ok(wait(drv, lambda: piece_at(drv, "d4") == "P" and text(drv, "turn") == "Black to move"),
       "a drag on the flipped board plays the move between the squares it shows", text(drv, "tree"))
    shot(drv, "flipped")
    drv.execute_script("document.activeElement.blur()")
    drv.find_element(By.TAG_NAME, "body").send_keys("f")
    ok(wait(drv, lambda: fresh(lambda: rect(drv, "a1").location) == before["a1"]), "the key f flips it back",
       fresh(lambda: rect(drv, "a1").location))

    # a rule change: White moves first; the rules shown and the legal moves follow
    shown = text(drv, "rules-shown")
    Select(drv.find_element(By.ID, "preset")).select_by_visible_text("first=white")
    ok(wait(drv, lambda: text(drv, "rules-shown") != shown and "first=white" in text(drv, "rules-shown")),
       "a preset changes the rules shown", text(drv, "rules-shown"))
    ok(wait(drv, lambda: text(drv, "turn") == "White to move" and piece_at(drv, "d6") == "p"),
       "the start position follows: White to move", text(drv, "turn"))
    # rule text: a misspelt name is refused with the nearest one, the rules in force kept
    shown = text(drv, "rules-shown")
    box = drv.find_element(By.ID, "rules")
    box.clear()
    box.send_keys("majorty=false" + Keys.ENTER)
    ok(wait(drv, lambda: "unknown rule option 'majorty'" in text(drv, "message") and
            "did you mean 'majority'" in text(drv, "message")) and text(drv, "rules-shown") == shown,
       "misspelt rule text is refused, naming the nearest rule; the rules stay", text(drv, "message"))
    box.clear()
    box.send_keys("first=white capture=all" + Keys.ENTER)
    ok(wait(drv, lambda: "capture=all" in text(drv, "rules-shown") and "first=white" in text(drv, "rules-shown")),
       "rule text changes the rules shown", text(drv, "rules-shown"))
    drv.execute_script("document.activeElement.blur()")
    click(drv, "c3")
    ok("sq-target" in classes(drv, "d4"), "and White's pieces move first", classes(drv, "d4"))
    click(drv, "d4")
    ok(wait(drv, lambda: piece_at(drv, "d4") == "P" and text(drv, "turn") == "Black to move"),
       "c3-d4 played under those rules", text(drv, "message"))
    shot(drv, "rules")

    # the address restores the rules, the position and the line in a new page
    drv.find_element(By.ID, "link").click()
    link = text(drv, "export-out")
    rules = text(drv, "rules-shown")
    first = drv.current_window_handle
    drv.switch_to.new_window("tab")
    try:
        drv.get(link)
        ok(wait(drv, lambda: drv.execute_script("return document.body.dataset.ready") == "1") and
           text(drv, "rules-shown") == rules and piece_at(drv, "d4") == "P" and piece_at(drv, "c3") is None and
           text(drv, "turn") == "Black to move" and "c3-d4" in text(drv, "tree"),
           "the exported address restores the rules, the position and the line",
           "%s\n%s %s" % (link, text(drv, "rules-shown"), text(drv, "tree")))
        ok(drv.find_element(By.ID, "rules").get_attribute("value") == "first=white capture=all",
           "and the rules text box shows the rules restored", drv.find_element(By.ID, "rules").get_attribute("value"))
        shot(drv, "link")
    finally:
        drv.close()
        drv.switch_to.window(first)

    # a record exported under other rules holds them, and brings them back when imported
    drv.find_element(By.ID, "export").click()
    ok(wait(drv, lambda: "c3-d4" in drv.find_element(By.ID, "record").get_attribute("value")),
       "the record is exported under the rules", drv.find_element(By.ID, "record").get_attribute("value"))
    record = drv.find_element(By.ID, "record").get_attribute("value")
    Select(drv.find_element(By.ID, "preset")).select_by_value("")
    wait(drv, lambda: "capture=all" not in text(drv, "rules-shown") and text(drv, "turn") == "Black to move")
    box = drv.find_element(By.ID, "record")
    box.clear()
    box.send_keys(record)
    drv.find_element(By.ID, "import").click()
    ok(wait(drv, lambda: text(drv, "rules-shown") == rules and piece_at(drv, "d4") == "P" and
            text(drv, "turn") == "Black to move"),
       "imported, it brings its rules back: the rules shown, the line played under them",
       "%s\n%s / %s" % (record, text(drv, "rules-shown"), rules))

    # the tables follow the rules: the 3-piece tables were built for the server's rules
    set_fen(drv, "8/8/8/8/8/2k5/1P6/K7 w")
    ok(wait(drv, lambda: text(drv, "tb").startswith("no table covers this position (3 pieces)") and
            "capture=all" in text(drv, "tb") and not drv.find_elements(By.CSS_SELECTOR, "#tb .tb-move")),
       "under other rules the tables of the server's rules give no verdict", text(drv, "tb"))

    # the diagram: an SVG with the position's pieces
    Select(drv.find_element(By.ID, "preset")).select_by_value("")
    wait(drv, lambda: text(drv, "turn") == "Black to move" and piece_at(drv, "d4") is None)
    set_fen(drv, "7k/8/5p2/8/3p4/8/1p6/K7 w")
    wait(drv, lambda: piece_at(drv, "a1") == "K")
    drv.find_element(By.ID, "svg").click()
    wait(drv, lambda: drv.find_elements(By.ID, "download-position-svg"))
    svg = download(drv, "download-position-svg")
    ok(svg.lstrip().startswith("<svg") and svg.count('class="piece white K"') == 1 and
       svg.count('class="piece black K"') == 1 and svg.count('class="piece black P"') == 3 and
       svg.count('class="piece ') == 5, "the diagram is an SVG of the position: K against k and three p",
       svg[:300])

    # flipped, the diagram is too: the K of a1 is drawn at the top right, not the bottom left
    def king_at(svg):
        m = re.search(r'class="piece white K"><circle cx="([\d.]+)" cy="([\d.]+)"', svg)
        return m and (float(m.group(1)), float(m.group(2)))
    old = drv.find_element(By.ID, "download-position-svg").get_attribute("href")
    drv.find_element(By.ID, "flip").click()
    drv.find_element(By.ID, "svg").click()
    wait(drv, lambda: fresh(lambda: drv.find_element(By.ID, "download-position-svg").get_attribute("href")) != old)
    flipped = download(drv, "download-position-svg")
    drv.find_element(By.ID, "flip").click()
    a, b = king_at(svg), king_at(flipped)
    ok(a and b and b[0] > a[0] and b[1] < a[1], "the flipped board's diagram is flipped: a1 at the top right",
       (a, b))

    # the explored position saved as a puzzle file that check reads
    set_fen(drv, pz["fen"])
    wait(drv, lambda: text(drv, "turn") == "White to move")
    click(drv, move["from"])
    for sq in move["path"]:
        click(drv, sq)
    ok(wait(drv, lambda: pz["solution"][0] in text(drv, "tree")), "the winning move played", text(drv, "tree"))
    n_box = drv.find_element(By.ID, "save-n")
    n_box.clear()
    n_box.send_keys("1")
    drv.find_element(By.ID, "save-title").send_keys("saved by the board")
    drv.find_element(By.ID, "save-puzzle").click()
    ok(wait(drv, lambda: drv.find_elements(By.ID, "download-puzzle-lua")), "the puzzle file is offered for download",
       text(drv, "export-out"))
    saved = download(drv, "download-puzzle-lua") if drv.find_elements(By.ID, "download-puzzle-lua") else ""
    chk = subprocess.run([CHESKERS, "check", os.path.join(DOWNLOADS, "puzzle.lua")], capture_output=True, text=True,
                         cwd=TMP)
    ok(chk.returncode == 0 and '"saved by the board": OK' in chk.stdout and "1 puzzle: 1 OK" in chk.stdout,
       "cheskers check reads the saved puzzle: OK", saved + chk.stdout + chk.stderr)

    # under other rules the file holds them, as check reads them
    box = drv.find_element(By.ID, "rules")
    box.clear()
    box.send_keys("pawns_capture_backward=true" + Keys.ENTER)
    wait(drv, lambda: "pawns_capture_backward=true" in text(drv, "rules-shown"))
    drv.execute_script("document.activeElement.blur()")
    set_fen(drv, pz["fen"])
    wait(drv, lambda: text(drv, "turn") == "White to move")
    click(drv, move["from"])
    for sq in move["path"]:
        click(drv, sq)
    wait(drv, lambda: pz["solution"][0] in text(drv, "tree"))
    old = drv.find_element(By.ID, "download-puzzle-lua").get_attribute("href")
    drv.find_element(By.ID, "save-puzzle").click()
    wait(drv, lambda: fresh(lambda: drv.find_element(By.ID, "download-puzzle-lua").get_attribute("href")) != old)
    saved = download(drv, "download-puzzle-lua")
    chk = subprocess.run([CHESKERS, "check", os.path.join(DOWNLOADS, "puzzle.lua")], capture_output=True, text=True,
                         cwd=TMP)
    ok(chk.returncode == 0 and "pawns_capture_backward" in saved and "1 puzzle: 1 OK" in chk.stdout,
       "a puzzle saved under other rules holds them, and check passes it", saved + chk.stdout + chk.stderr)


if __name__ == "__main__":
    START = subprocess.run([CHESKERS, "-e", "print(require('cheskers').START)"], capture_output=True,
                           text=True).stdout.strip()
    try:
        main()
    finally:
        keep = os.environ.get("BOARD_SHOTS")
        if keep:
            os.makedirs(keep, exist_ok=True)
            for f in os.listdir(SHOTS):
                shutil.copy(os.path.join(SHOTS, f), keep)
        shutil.rmtree(TMP, ignore_errors=True)
        shutil.rmtree(BROWSER_TMP, ignore_errors=True)
    sys.exit(1 if failed else 0)
