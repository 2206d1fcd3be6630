// The analysis board of cheskers serve (docs/guide/board.md). Everything the
// rules decide (legal moves, refusals, results, records, puzzles, tables)
// comes from the server's API (docs/reference/serve-api.md); this file draws and
// keeps the move tree.
"use strict";

const TOKEN = new URLSearchParams(location.search).get("token") || "";
const $ = (id) => document.getElementById(id);
const FILES = "abcdefgh";

const S = {
  rules: "",          // rules text ("" : the server's)
  fen: "",            // the tree's root position ("" : the rules' start)
  root: null, cur: null,
  pos: null,          // the server's description of the current position
  pieces: {}, piecesRules: null,
  flip: false, sel: null,
  info: null, ws: null, analysing: false, analysisId: 0, lines: {},
  puzzle: null,       // {n, side, list, index}
  seq: 0,
};

function newNode(move, parent) { return { move, parent, children: [] }; }
function line(node) {
  const out = [];
  for (let n = node || S.cur; n && n.parent; n = n.parent) out.unshift(n.move);
  return out;
}

async function api(path, body) {
  const r = await fetch("/api/" + path, {
    method: body === undefined ? "GET" : "POST",
    headers: { "X-Cheskers-Token": TOKEN, "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await r.text();
  if (r.headers.get("content-type") === "application/x-ndjson") {
    return text.split("\n").filter((l) => l.trim()).map((l) => JSON.parse(l));
  }
  const out = JSON.parse(text);
  if (!r.ok) throw new Error(out.error || ("HTTP " + r.status));
  return out;
}

function req(extra) {
  return Object.assign({ rules: S.rules, fen: S.fen, moves: line() }, extra || {});
}

function say(msg, ok) {
  const m = $("message");
  m.textContent = msg || "";
  m.style.color = ok ? "#17692a" : "#a00";
}

// ---- drawing -------------------------------------------------------------------

function sqXY(name) {
  let f = FILES.indexOf(name[0]), r = +name[1] - 1;
  if (S.flip) { f = 7 - f; r = 7 - r; }
  return [f * 50, (7 - r) * 50];
}
function nameAt(x, y) {
  let f = Math.floor(x / 50), r = 7 - Math.floor(y / 50);
  if (f < 0 || f > 7 || r < 0 || r > 7) return null;
  if (S.flip) { f = 7 - f; r = 7 - r; }
  return FILES[f] + (r + 1);
}
function isDark(name) { return (FILES.indexOf(name[0]) + +name[1]) % 2 === 1; }

// The 32 dark squares in the core's index order (a1, c1, ..., h8).
const SQUARES = [];
for (let r = 0; r < 8; r++) for (let f = 0; f < 8; f++) if ((f + r) % 2 === 0) SQUARES.push(FILES[f] + (r + 1));

function pieceOn(name) {
  const i = SQUARES.indexOf(name);
  if (i < 0 || !S.pos) return null;
  const c = S.pos.squares[i];
  return c === "." ? null : c;
}
function mine(letter) {
  return letter && ((letter === letter.toUpperCase()) === (S.pos.turn === "white"));
}

function draw() {
  const p = S.pos;
  if (!p) return;
  const marks = {};
  if (p.last) { marks[p.last.from] = "sq-last"; p.last.path.forEach((s) => { marks[s] = "sq-last"; }); }
  const dots = [];
  if (S.sel) {
    marks[S.sel.from] = "sq-sel";
    S.sel.steps.forEach((s) => { marks[s] = "sq-done"; });
    for (const s of nextSquares()) { marks[s] = "sq-target"; dots.push(s); }
  }
  if (S.hint) marks[S.hint] = "sq-sel";
  const out = ['<svg xmlns="http://www.w3.org/2000/svg" viewBox="-14 0 414 414" id="board-svg">'];
  for (let r = 0; r < 8; r++) for (let f = 0; f < 8; f++) {
    const name = FILES[f] + (r + 1);
    const [x, y] = sqXY(name);
    const cls = isDark(name) ? (marks[name] || "sq-dark") : "sq-light";
    out.push(`<rect x="${x}" y="${y}" width="50" height="50" class="${cls}" data-sq="${name}"/>`);
  }
  for (let i = 0; i < 8; i++) {
    const f = S.flip ? FILES[7 - i] : FILES[i], r = S.flip ? i + 1 : 8 - i;
    out.push(`<text class="coord" x="${i * 50 + 22}" y="411">${f}</text><text class="coord" x="-11" y="${i * 50 + 29}">${r}</text>`);
  }
  SQUARES.forEach((name, i) => {
    const c = p.squares[i];
    if (c === ".") return;
    const [x, y] = sqXY(name);
    const g = S.pieces[c] || `<text x="0" y="5" text-anchor="middle">${c}</text>`;
    out.push(`<g class="pc" data-sq="${name}" data-piece="${c}" transform="translate(${x + 25} ${y + 25})">${g}</g>`);
  });
  dots.forEach((s) => { const [x, y] = sqXY(s); out.push(`<circle class="dot" cx="${x + 25}" cy="${y + 25}" r="7"/>`); });
  out.push("</svg>");
  $("board").innerHTML = out.join("");
  $("turn").textContent = (p.turn === "white" ? "White" : "Black") + " to move";
  $("turn").dataset.turn = p.turn;
  $("result").textContent = p.result ? p.result.text : "";
  $("rules-shown").textContent = "rules: " + p.rules;
  if (document.activeElement !== $("fen")) $("fen").value = p.fen;
}

// ---- moving --------------------------------------------------------------------

// The legal moves still possible with the selection's squares so far.
function candidates() {
  const s = S.sel;
  return S.pos.moves.filter((m) => m.from === s.from && s.steps.every((q, i) => m.path[i] === q));
}
function nextSquares() {
  const k = S.sel.steps.length, set = new Set();
  candidates().forEach((m) => { if (m.path.length > k) set.add(m.path[k]); });
  return [...set];
}

// A move the squares clicked do not make by themselves goes to the server's
// move reader, the REPL's: it refuses it in the REPL's words, or plays it (a
// jump chain dragged to its last square, as the REPL takes a1xg7).
async function byText(text) {
  let out;
  try { out = await api("play", req({ move: text })); } catch (e) { say(e.message); return; }
  say("");
  play(out.played);
}

function clickSquare(name) {
  if (!S.pos || !name || S.busy) return;
  S.hint = null;
  const piece = pieceOn(name);
  if (!S.sel) {
    if (!piece) return;
    if (!mine(piece)) { byText(name + "-" + name); return; }
    S.sel = { from: name, steps: [] };
    if (candidates().length === 0) {
      S.sel = null;
      byText(name + "-" + name);
      return;
    }
    say("");
    draw();
    return;
  }
  const s = S.sel;
  if (s.steps.length === 0 && mine(piece) && name !== s.from) { S.sel = null; return clickSquare(name); }
  if (name === s.from && s.steps.length === 0) { S.sel = null; draw(); return; }
  const k = s.steps.length;
  const done = candidates().filter((m) => m.path.length === k);
  if (k > 0 && name === s.steps[k - 1] && done.length) return finish(done);
  const next = candidates().filter((m) => m.path[k] === name);
  if (next.length === 0) {
    const text = s.from + (k ? "x" + s.steps.join("x") + "x" : "-") + name;
    S.sel = null;
    draw();
    byText(text);
    return;
  }
  s.steps.push(name);
  const ending = next.filter((m) => m.path.length === k + 1);
  const going = next.filter((m) => m.path.length > k + 1);
  if (ending.length && !going.length) return finish(ending);
  say(going.length ? "continue the jump: " + nextSquares().join(", ") : "");
  draw();
}

// Plays one of the moves (several: they differ by promotion).
function finish(moves) {
  if (moves.length === 1) { S.sel = null; return play(moves[0].text); }
  const box = $("promo");
  box.innerHTML = "Promote to: ";
  moves.forEach((m) => {
    const b = document.createElement("button");
    b.textContent = m.promotion || "none";
    b.dataset.promotion = m.promotion || "";
    b.onclick = () => { box.hidden = true; S.sel = null; play(m.text); };
    box.appendChild(b);
  });
  box.hidden = false;
}

async function play(text, fromBot) {
  if (S.puzzle && !fromBot) return puzzleMove(text);
  let child = S.cur.children.find((c) => c.move === text);
  if (!child) { child = newNode(text, S.cur); S.cur.children.push(child); }
  S.cur = child;
  await refresh();
  if (!fromBot && $("botreply").checked && !S.pos.result) botMove();
}

// ---- the position changed --------------------------------------------------------

async function refresh() {
  const seq = ++S.seq;
  stopAnalysis();
  let p;
  try { p = await api("position", req()); } catch (e) { say(e.message); return; }
  if (seq !== S.seq) return;
  S.pos = p;
  S.sel = null;
  $("promo").hidden = true;
  if (S.piecesRules !== p.rules) {
    S.pieces = (await api("pieces", { rules: S.rules, fen: S.fen })).pieces;
    S.piecesRules = p.rules;
  }
  draw();
  drawTree();
  if (S.ws && S.ws.readyState === 1) S.ws.send(JSON.stringify(Object.assign({ op: "position" }, req())));
  probe();
  writeLink(false);
}

async function probe() {
  if (!S.info || !S.info.tb) { $("tb").textContent = "no tablebases (cheskers serve --tb DIR)"; return; }
  const seq = S.seq;
  let out;
  try { out = await api("probe", req()); } catch (e) { $("tb").textContent = e.message; return; }
  if (seq !== S.seq) return;
  const box = $("tb");
  box.innerHTML = "";
  const head = document.createElement("div");
  head.id = "tb-verdict";
  head.textContent = out.covered ? "position: " + out.text : out.text;
  box.appendChild(head);
  out.moves.forEach((m) => {
    const d = document.createElement("div");
    d.className = "tb-move " + m.value;
    d.textContent = m.move + "  " + m.text;
    d.onclick = () => play(m.move);
    box.appendChild(d);
  });
}

// ---- the move tree -------------------------------------------------------------------

function drawTree() {
  const box = $("tree");
  box.innerHTML = "";
  const walk = (node, into, ply) => {
    // the main line of node, its side lines after each move
    let n = node;
    while (n.children.length) {
      const [main, ...rest] = n.children;
      into.appendChild(moveSpan(main, ply));
      for (const v of rest) {
        const d = document.createElement("span");
        d.className = "var";
        d.appendChild(document.createTextNode("( "));
        d.appendChild(moveSpan(v, ply));
        walk(v, d, ply + 1);
        d.appendChild(document.createTextNode(")"));
        into.appendChild(d);
      }
      n = main;
      ply++;
    }
  };
  walk(S.root, box, 0);
}
function moveSpan(node, ply) {
  const s = document.createElement("span");
  s.className = "mv" + (node === S.cur ? " cur" : "");
  s.textContent = (ply % 2 === 0 ? Math.floor(ply / 2) + 1 + ". " : "") + node.move + " ";
  s.onclick = () => { S.cur = node; refresh(); };
  return s;
}
function go(node) { if (node && node !== S.cur) { S.cur = node; refresh(); } }

function promoteVariation() {
  let n = S.cur;
  while (n.parent && n.parent.children[0] === n) n = n.parent;
  if (!n.parent) return;
  const sib = n.parent.children;
  sib.splice(sib.indexOf(n), 1);
  sib.unshift(n);
  drawTree();
}
function deleteHere() {
  const n = S.cur;
  if (!n.parent) return;
  n.parent.children.splice(n.parent.children.indexOf(n), 1);
  S.cur = n.parent;
  refresh();
}

function resetTree(fen, rules, moves) {
  S.fen = fen || "";
  if (rules !== undefined) S.rules = rules;
  S.root = newNode(null, null);
  S.cur = S.root;
  for (const m of moves || []) { const c = newNode(m, S.cur); S.cur.children.push(c); S.cur = c; }
}

// ---- analysis ---------------------------------------------------------------------------

function connect() {
  const ws = new WebSocket(`ws://${location.host}/api/ws?token=${TOKEN}`);
  ws.onmessage = (ev) => onAnalysis(JSON.parse(ev.data));
  ws.onopen = () => ws.send(JSON.stringify(Object.assign({ op: "position" }, req())));
  ws.onclose = () => { S.ws = null; setTimeout(connect, 1000); };
  S.ws = ws;
}

function startAnalysis() {
  if (!S.ws || S.ws.readyState !== 1 || !S.pos || S.pos.result) return;
  S.analysisId++;
  S.lines = {};
  $("lines").innerHTML = "";
  S.ws.send(JSON.stringify(Object.assign({ op: "analyse", id: S.analysisId,
    multipv: +$("multipv").value || 1, time: +$("seconds").value || 20 }, req())));
  S.analysing = true;
  $("analyse").textContent = "Stop";
  $("status").textContent = "analysing";
}
function stopAnalysis() {
  if (!S.analysing) return;
  if (S.ws && S.ws.readyState === 1) S.ws.send(JSON.stringify({ op: "stop" }));
  S.analysing = false;
  $("analyse").textContent = "Analyse";
  $("status").textContent = "stopped";
}

function scoreText(l) {
  if (l.mate !== undefined) return (l.mate > 0 ? "+" : "-") + "#" + Math.ceil(Math.abs(l.mate) / 2);
  const v = l.white / 100;
  return (v > 0 ? "+" : "") + v.toFixed(2);
}

function onAnalysis(m) {
  if (m.id !== undefined && m.id !== S.analysisId) return;
  if (m.type === "info") {
    S.lines[m.multipv] = m;
    const box = $("lines");
    box.innerHTML = "";
    Object.keys(S.lines).sort((a, b) => a - b).forEach((k) => {
      const l = S.lines[k];
      const d = document.createElement("div");
      d.className = "line";
      d.textContent = `${scoreText(l)}  d${l.depth}  ${Math.round((l.nps || 0) / 1000)} kn/s  ${l.pv.join(" ")}`;
      d.title = d.textContent;
      box.appendChild(d);
    });
    if (m.multipv === 1) {
      const w = m.mate !== undefined ? (m.white > 0 ? 1 : 0) : 1 / (1 + Math.exp(-m.white / 250));
      $("evalfill").style.height = (100 * w).toFixed(1) + "%";
      $("evaltext").textContent = scoreText(m);
    }
  } else if (m.type === "done" || m.type === "stopped") {
    S.analysing = false;
    $("analyse").textContent = "Analyse";
    $("status").textContent = m.type === "done" ? "analysis done" : "stopped";
  } else if (m.type === "queued") {
    $("status").textContent = "waiting for a free engine";
  } else if (m.type === "error") {
    say(m.message);
    S.analysing = false;
    $("analyse").textContent = "Analyse";
  }
}

// ---- bots ------------------------------------------------------------------------------------

async function botMove() {
  const bot = $("bot").value;
  if (!bot || !S.pos || S.pos.result) return;
  S.busy = true;
  $("status").textContent = bot + " is thinking";
  try {
    const out = await api("bot", req({ bot }));
    const last = out[out.length - 1];
    if (last && last.type === "move") await play(last.move, true);
    else say(last ? last.message : "no answer");
  } catch (e) { say(e.message); }
  S.busy = false;
  $("status").textContent = "";
}

// ---- puzzles -------------------------------------------------------------------------------

async function loadPuzzles(body) {
  try {
    const out = await api("puzzle/read", body);
    S.puzzleList = out.puzzles;
    const sel = $("puzzle");
    sel.innerHTML = "";
    out.puzzles.forEach((p, i) => {
      const o = document.createElement("option");
      o.value = i;
      o.textContent = (i + 1) + ". " + (p.title || p.goal);
      sel.appendChild(o);
    });
  } catch (e) { say(e.message); }
}

async function openPuzzle() {
  const p = S.puzzleList && S.puzzleList[+$("puzzle").value];
  if (!p) return;
  resetTree(p.fen, p.rules || "");
  await refresh();
  S.puzzle = { n: p.moves, side: S.pos.turn, p };
  $("puzzle-info").textContent = p.goal;
  say("");
}

function puzzleLeft() {
  // the solver's moves left: n minus the solver's moves of the line
  return S.puzzle.n - Math.ceil(line().length / 2);
}

async function puzzleMove(text) {
  if (S.pos.turn !== S.puzzle.side) return;
  S.busy = true;
  $("status").textContent = "checking your move";
  try {
    const out = await api("solve", req({ n: puzzleLeft(), move: text }));
    const v = out[out.length - 1];
    if (v.type !== "verdict") { say(v.message || "no verdict"); }
    else if (!v.wins) { say("Not this one: " + v.why); draw(); }
    else {
      const child = newNode(text, S.cur); S.cur.children.push(child); S.cur = child;
      if (v.reply) { const r = newNode(v.reply, S.cur); S.cur.children.push(r); S.cur = r; }
      await refresh();
      if (v.solved || S.pos.result) { say("Solved! " + (S.pos.result ? S.pos.result.text : ""), true); $("puzzle-info").textContent = "Solved"; }
      else say("Good move" + (v.reply ? "; the defence plays " + v.reply : ""), true);
    }
  } catch (e) { say(e.message); }
  S.busy = false;
  $("status").textContent = "";
}

async function hint() {
  if (!S.puzzle) { say("open a puzzle first"); return; }
  const out = await api("solve", req({ n: puzzleLeft(), hint: true }));
  const h = out[out.length - 1];
  if (h.type !== "hint" || !h.win) { say("no win from here: go back"); return; }
  if (S.hintShown === S.cur && S.hint) { say("Hint: " + h.move, true); return; }
  S.hint = h.from; S.hintShown = S.cur;
  say("Hint: move the piece on " + h.from, true);
  draw();
}

async function checkPuzzle() {
  const p = S.puzzle ? S.puzzle.p : null;
  const body = p ? { fen: p.fen, rules: p.rules || "", n: p.moves, solution: p.solution }
                 : req({ n: +$("save-n").value, moves: [], solution: line() });
  if (!p) body.fen = S.pos.fen;
  $("puzzle-info").textContent = "checking...";
  const out = await api("check", body);
  const r = out[out.length - 1];
  $("puzzle-info").textContent = r.type === "report" ? r.text : (r.message || "no report");
}

async function savePuzzle() {
  // the root position with the line played from it as the solution
  try {
    const out = await api("puzzle/save", { rules: S.rules, fen: S.fen || (await api("position", { rules: S.rules })).fen,
      moves: line(), n: +$("save-n").value, title: $("save-title").value });
    download("puzzle.lua", out.text, "text/plain");
    const pre = document.createElement("pre");   // shown under its link, which stays
    pre.textContent = out.text;
    $("export-out").appendChild(pre);
  } catch (e) { say(e.message); }
}

// ---- import, export, links ---------------------------------------------------------------

function download(name, text, type) {
  const a = document.createElement("a");
  a.href = URL.createObjectURL(new Blob([text], { type }));
  a.download = name;
  a.textContent = "download " + name;
  a.id = "download-" + name.replace(/\W/g, "-");
  const out = $("export-out");
  out.innerHTML = "";
  out.appendChild(a);
}

async function exportRecord() {
  try { $("record").value = (await api("record/write", req())).text; } catch (e) { say(e.message); }
}
async function importRecord() {
  try {
    const out = await api("record/read", { text: $("record").value });
    resetTree(out.fen, out.rules === "golomb" ? "" : out.rules, out.moves);
    await refresh();
    say("record imported: " + out.moves.length + " moves", true);
  } catch (e) { say(e.message); }
}
async function exportSvg() {
  try { download("position.svg", (await api("svg", req({ flip: S.flip }))).svg, "image/svg+xml"); } catch (e) { say(e.message); }
}

// The address restoring the rules, the root position and the line (in the
// fragment: it is not sent to the server; the token stays in the query).
function writeLink(show) {
  const h = new URLSearchParams();
  if (S.rules) h.set("rules", S.rules);
  if (S.fen) h.set("fen", S.fen);
  if (line().length) h.set("line", line().join(" "));
  const url = location.origin + location.pathname + location.search + (h.toString() ? "#" + h.toString() : "");
  S.hashWritten = h.toString();
  history.replaceState(null, "", url);
  if (show) $("export-out").textContent = url;
}
function readLink() {
  const h = new URLSearchParams(location.hash.slice(1));
  resetTree(h.get("fen") || "", h.get("rules") || "", (h.get("line") || "").split(" ").filter((x) => x));
  // the rules' boxes show the rules restored, to be edited from there
  $("rules").value = S.rules;
  $("preset").value = [...$("preset").options].some((o) => o.value === S.rules) ? S.rules : "";
}

// ---- wiring -------------------------------------------------------------------------------------

function boardEvents() {
  const b = $("board");
  const at = (ev) => {
    const svg = $("board-svg");
    if (!svg) return null;
    const pt = svg.createSVGPoint();
    pt.x = ev.clientX; pt.y = ev.clientY;
    const p = pt.matrixTransform(svg.getScreenCTM().inverse());
    return nameAt(p.x, p.y);
  };
  let down = null;
  b.addEventListener("pointerdown", (ev) => { down = at(ev); if (down) clickSquare(down); });
  b.addEventListener("pointerup", (ev) => {
    const up = at(ev);
    if (down && up && up !== down) clickSquare(up);   // a drag: the square it ends on
    down = null;
  });
}

document.addEventListener("keydown", (ev) => {
  if (ev.target.tagName === "INPUT" || ev.target.tagName === "TEXTAREA" || ev.target.tagName === "SELECT") return;
  if (ev.key === "ArrowLeft") go(S.cur.parent);
  else if (ev.key === "ArrowRight") go(S.cur.children[0]);
  else if (ev.key === "Home") go(S.root);
  else if (ev.key === "End") { let n = S.cur; while (n.children.length) n = n.children[0]; go(n); }
  else if (ev.key === "ArrowUp" || ev.key === "ArrowDown") {
    const sib = S.cur.parent ? S.cur.parent.children : [];
    const i = sib.indexOf(S.cur) + (ev.key === "ArrowUp" ? -1 : 1);
    if (sib[i]) go(sib[i]);
  } else if (ev.key === " ") { S.analysing ? stopAnalysis() : startAnalysis(); }
  else if (ev.key === "f") { S.flip = !S.flip; draw(); }
  else return;
  ev.preventDefault();
});

async function main() {
  S.info = await api("info");
  S.info.bots.forEach((b) => { const o = document.createElement("option"); o.textContent = b; $("bot").appendChild(o); });
  const pf = $("puzzle-file");
  pf.innerHTML = "<option value=''>puzzle files</option>";
  S.info.puzzle_files.forEach((f) => { const o = document.createElement("option"); o.textContent = f.name; pf.appendChild(o); });
  pf.onchange = () => { if (pf.value) loadPuzzles({ name: pf.value }); };
  $("puzzle-upload").onchange = async (ev) => {
    const f = ev.target.files[0];
    if (f) loadPuzzles({ text: await f.text() });
  };
  $("puzzle-open").onclick = openPuzzle;
  $("hint").onclick = hint;
  $("check").onclick = checkPuzzle;
  $("save-puzzle").onclick = savePuzzle;
  $("flip").onclick = () => { S.flip = !S.flip; draw(); };
  $("first").onclick = () => go(S.root);
  $("back").onclick = () => go(S.cur.parent);
  $("fwd").onclick = () => go(S.cur.children[0]);
  $("last").onclick = () => { let n = S.cur; while (n.children.length) n = n.children[0]; go(n); };
  $("promote").onclick = promoteVariation;
  $("delete").onclick = deleteHere;
  $("analyse").onclick = () => (S.analysing ? stopAnalysis() : startAnalysis());
  $("botmove").onclick = botMove;
  $("export").onclick = exportRecord;
  $("import").onclick = importRecord;
  $("svg").onclick = exportSvg;
  $("link").onclick = () => writeLink(true);
  $("fen").addEventListener("keydown", async (ev) => {
    if (ev.key !== "Enter") return;
    const fen = $("fen").value.trim();
    try { await api("position", { rules: S.rules, fen }); } catch (e) { say(e.message); return; }
    S.puzzle = null;
    resetTree(fen, S.rules);
    refresh();
  });
  const applyRules = async (text) => {
    try { await api("rules", { rules: text }); } catch (e) { say(e.message); return; }
    S.puzzle = null;
    resetTree("", text);
    say("");
    refresh();
  };
  $("preset").onchange = () => { $("rules").value = $("preset").value; applyRules($("preset").value); };
  $("rules-apply").onclick = () => applyRules($("rules").value.trim());
  $("rules").addEventListener("keydown", (ev) => { if (ev.key === "Enter") applyRules($("rules").value.trim()); });
  boardEvents();
  readLink();
  window.addEventListener("hashchange", () => {
    if (location.hash.slice(1) === S.hashWritten) return;
    S.puzzle = null;
    readLink();
    refresh();
  });
  connect();
  await refresh();
  document.body.dataset.ready = "1";
}

main().catch((e) => say("the board could not start: " + e.message));
