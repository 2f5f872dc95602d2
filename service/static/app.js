// sisepai web page: camera -> WebSocket /api/live -> outlines, events, voice; hand, score, ledger.
"use strict";
const $ = (id) => document.getElementById(id);
const SUITS = ["G", "W", "Y", "R"], RANKS = ["K", "A", "E", "R", "H", "C", "P"];
const GLYPH = { G: "將士象車馬砲卒", W: "將士象車馬砲卒", Y: "帥仕相俥傌炮兵", R: "帥仕相俥傌炮兵" };
let names = {};
let hand = [];
let ws = null, busy = false, frames = 0, retry = 1000, sending = false;
let sentAt = 0, stopped = true;  // when the frame in flight was sent; the camera stopped by the user
const ANSWER_TIMEOUT_MS = 3000;  // no answer by then: the frame is given up and the next one sent

document.querySelectorAll("nav button").forEach((b) => b.addEventListener("click", () => {
  document.querySelectorAll("nav button, .tab").forEach((x) => x.classList.remove("active"));
  b.classList.add("active");
  $(b.dataset.tab).classList.add("active");
  if (b.dataset.tab === "ledger") loadLedger();
}));

fetch("/api/names").then((r) => r.json()).then((n) => { names = n; });

// --- writes: the ledger's token, asked once and kept in this browser ----------------------------
const TOKEN_KEY = "sisepai-token";
async function write(url, options = {}) {
  const send = () => {
    const headers = { ...(options.headers || {}) };
    const token = localStorage.getItem(TOKEN_KEY);
    if (token) headers["X-Sisepai-Token"] = token;
    return fetch(url, { ...options, method: options.method || "POST", headers });
  };
  let r = await send();
  if (r.status === 401) {
    const token = prompt("This table's ledger needs its token (the SISEPAI_TOKEN the server was started with):");
    if (token) { localStorage.setItem(TOKEN_KEY, token.trim()); r = await send(); }
  }
  return r;
}
function detailText(j) { return typeof j.detail === "string" ? j.detail : JSON.stringify(j.detail); }

function chip(code) {
  const s = document.createElement("span");
  s.className = "chip " + (code === "J" ? "J" : code[0]);
  s.textContent = code === "J" ? "J" : code[0] + GLYPH[code[0]][RANKS.indexOf(code[1])];
  s.title = (names[code] || {}).en || code;
  return s;
}

// --- speech ------------------------------------------------------------------------------------
const SEATS = { en: { S: "South", E: "East", N: "North", W: "West", center: "Centre" },
                zh: { S: "南家", E: "东家", N: "北家", W: "西家", center: "中央" },
                vi: { S: "Nam", E: "Đông", N: "Bắc", W: "Tây", center: "Giữa bàn" } };
const VOICE = { en: "en-US", zh: "zh-CN", vi: "vi-VN" };
function sentence(ev, lang) {
  const seat = (SEATS[lang] || SEATS.en)[ev.seat] || ev.seat || "";
  const name = (c) => ((names[c] || {})[lang]) || c;
  if (ev.type === "table") return { en: `The table: ${ev.cards.length} cards face up`, zh: `桌面：${ev.cards.length}张明牌`, vi: `Trên bàn: ${ev.cards.length} lá ngửa` }[lang] || "";
  if (ev.type === "card_shown") {
    const verbs = { en: { draw: "draws", discard: "discards", "": "shows" }, zh: { draw: "摸到", discard: "打出", "": "亮出" },
                    vi: { draw: "bốc", discard: "đánh", "": "lật" } }[lang] || {};
    const verb = verbs[ev.action || ""];
    return lang === "zh" ? `${seat}${verb}${name(ev.card)}` : `${seat} ${verb} ${name(ev.card)}`;
  }
  if (ev.type === "card_corrected") return lang === "zh" ? `更正：${seat}是${name(ev.card)}，不是${name(ev.was)}` : lang === "vi" ? `Sửa lại: ${seat} là ${name(ev.card)}, không phải ${name(ev.was)}` : `Correction: ${seat} has ${name(ev.card)}, not ${name(ev.was)}`;
  if (ev.type === "meld") return `${seat}: ${ev.cards.map(name).join(", ")}`;
  if (ev.type === "win_claimed") return lang === "en" ? `${seat} claims a win, ${ev.points} points` : `${seat} ${ev.points}`;
  if (ev.type === "advice") return ev.text;
  return "";
}
function say(text) {
  if (!$("speak").checked || !text || !window.speechSynthesis) return;
  const u = new SpeechSynthesisUtterance(text);
  u.lang = VOICE[$("lang").value] || "en-US";
  speechSynthesis.speak(u);
}

// --- live --------------------------------------------------------------------------------------
function cameraBlocked() {
  if (window.isSecureContext && navigator.mediaDevices) return null;
  return "the camera needs a secure page: open this page over HTTPS (start the server with sisepai serve --https) or on localhost";
}
$("start").addEventListener("click", async () => {
  const blocked = cameraBlocked();
  if (blocked) { $("status").textContent = blocked; return; }
  if (!stopped) return;  // one stream per page
  stopped = false;
  $("start").disabled = true; $("stop").disabled = false;
  try {
    const stream = await navigator.mediaDevices.getUserMedia({ video: { width: 1280, height: 720, facingMode: "environment" }, audio: false });
    $("video").srcObject = stream;
    await $("video").play();
    connect();
  } catch (e) {
    $("status").textContent = "camera unavailable: " + e.message;
    stopCamera("camera off");
  }
});
function stopCamera(message) {
  stopped = true;
  const stream = $("video").srcObject;
  if (stream) stream.getTracks().forEach((t) => t.stop());
  $("video").srcObject = null;
  if (ws) { const old = ws; ws = null; old.onclose = null; old.close(); }
  busy = false;
  clearOutlines();
  $("start").disabled = false; $("stop").disabled = true;
  $("status").textContent = message;
}
$("stop").addEventListener("click", () => stopCamera("camera stopped"));
function reconnect() {  // rules, deck and table are chosen when a stream opens
  if (stopped || !ws) return;
  const old = ws; ws = null; old.onclose = null; old.close();
  connect();
}
["rules", "deckchoice", "tablechoice"].forEach((id) => $(id).addEventListener("change", reconnect));

function connect() {
  if (stopped) return;
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const params = new URLSearchParams();
  if (hand.length) params.set("hand", hand.join(" "));
  params.set("rules", $("rules").value);  // live advice follows the page's rules
  if ($("deckchoice").value) params.set("deck", $("deckchoice").value);
  if ($("tablechoice").value) params.set("table", $("tablechoice").value);
  const q = params.toString() ? "?" + params.toString() : "";
  ws = new WebSocket(`${proto}://${location.host}/api/live${q}`);
  ws.binaryType = "arraybuffer";
  ws.onopen = () => { busy = false; retry = 1000; clearLive(); $("status").textContent = "live"; sendFrame(); };
  ws.onclose = () => {  // a restarted server: reconnect, then frames flow again
    busy = false;
    if (stopped) return;
    $("status").textContent = `disconnected: retrying in ${Math.round(retry / 1000)} s`;
    setTimeout(connect, retry);
    retry = Math.min(retry * 2, 15000);
  };
  ws.onmessage = (m) => {
    const msg = JSON.parse(m.data);
    busy = false;
    if (msg.type === "error") { $("status").textContent = msg.detail; return; }
    if (msg.type === "busy") { clearOutlines(); $("status").textContent = "the server is busy: skipping frames"; return; }
    frames += 1;
    $("status").textContent = `live · ${msg.ms} ms/frame · ${msg.detections.length} cards`
      + (msg.dropped ? ` · ${msg.dropped} frames skipped` : "");
    draw(msg);
    for (const ev of msg.events) logEvent(ev);
  };
}

function sendFrame() {  // one loop at a time, however often the socket reconnects
  if (sending) return;
  sending = true;
  frameLoop();
}
function frameLoop() {
  const video = $("video");
  if (!ws || ws.readyState !== 1) { sending = false; return; }
  if (busy && Date.now() - sentAt > ANSWER_TIMEOUT_MS) {  // no answer: never wait for ever
    busy = false;
    clearOutlines();
    $("status").textContent = "no answer from the server for 3 s: sending a new frame";
  }
  if (!busy && video.videoWidth) {
    const c = document.createElement("canvas");
    c.width = video.videoWidth; c.height = video.videoHeight;
    c.getContext("2d").drawImage(video, 0, 0);
    busy = true; sentAt = Date.now();
    c.toBlob((b) => { if (b && ws && ws.readyState === 1) b.arrayBuffer().then((a) => { if (ws) ws.send(a); }); else busy = false; }, "image/jpeg", 0.8);
  }
  setTimeout(frameLoop, 100);
}

const COLOURS = { G: "#3c3", W: "#fff", Y: "#fd2", R: "#f44", J: "#a22" };
function draw(msg) {
  const canvas = $("overlay");
  canvas.width = msg.width; canvas.height = msg.height;
  const g = canvas.getContext("2d");
  g.clearRect(0, 0, canvas.width, canvas.height);
  // labels about 14 screen pixels high however small the view is drawn (a phone shrinks a 1280-wide frame)
  const scale = canvas.width / Math.max(1, canvas.clientWidth || canvas.width);
  const px = Math.round(Math.max(14 * scale, 12));
  g.lineWidth = Math.max(2, 2 * scale); g.font = `bold ${px}px sans-serif`; g.textBaseline = "bottom";
  for (const d of msg.detections) {
    const col = COLOURS[d.card === "J" ? "J" : d.card[0]];
    g.strokeStyle = col;
    g.beginPath();
    d.polygon.forEach(([x, y], i) => (i ? g.lineTo(x, y) : g.moveTo(x, y)));
    g.closePath(); g.stroke();
    const [x, y] = d.polygon[0], w = g.measureText(d.card).width;
    g.fillStyle = "rgba(0,0,0,0.7)"; g.fillRect(x - 2, y - px - 4, w + 4, px + 2);  // a dark plate under the label
    g.fillStyle = col; g.fillText(d.card, x, y - 3);
  }
  showCards(msg.cards);
}

function showCards(cards) {  // what is on the table now, seat by seat
  const box = $("cards");
  box.replaceChildren();
  const lang = $("lang").value;
  for (const zone of ["S", "E", "N", "W", "center"]) {
    const here = cards.filter((c) => c.zone === zone);
    if (!here.length) continue;
    const row = document.createElement("div");
    row.className = "seatrow";
    const label = document.createElement("span");
    label.className = "seat";
    label.textContent = (SEATS[lang] || SEATS.en)[zone];
    row.appendChild(label);
    for (const c of here) row.appendChild(chip(c.card));
    box.appendChild(row);
  }
}

function logEvent(ev) {
  const text = sentence(ev, $("lang").value) || ev.type;
  const li = document.createElement("li");
  const time = document.createElement("span");
  time.className = "t";
  time.textContent = `${ev.t.toFixed(1)} s`;
  li.append(time, " ", text);
  li.className = "ev-" + ev.type;
  if (ev.type === "card_removed") {  // folded away: a count, opened on demand
    $("removedlist").prepend(li);
    $("removedcount").textContent = `${$("removedlist").children.length} cards left the table`;
    $("removed").hidden = false;
    return;
  }
  $("events").prepend(li);
  if (["card_shown", "card_corrected", "meld", "win_claimed", "advice"].includes(ev.type)) say(text);
}
function clearOutlines() {  // outlines of a frame that is no longer the picture
  const canvas = $("overlay");
  canvas.getContext("2d").clearRect(0, 0, canvas.width, canvas.height);
}
function clearLive() {  // a new connection is a new session: its table event starts the log afresh
  $("events").replaceChildren(); $("removedlist").replaceChildren(); $("removed").hidden = true;
  $("cards").replaceChildren();
}

// --- my hand -----------------------------------------------------------------------------------
for (const s of SUITS) for (const r of RANKS) addPick(s + r);
addPick("J");
function addPick(code) {
  const b = chip(code);
  const btn = document.createElement("button");
  btn.className = b.className; btn.textContent = b.textContent; btn.title = code;
  btn.addEventListener("click", () => { hand.push(code); renderHand(); });
  $("picker").appendChild(btn);
}
function renderHand() {
  const box = $("myhand");
  box.replaceChildren();
  hand.forEach((c, i) => { const ch = chip(c); ch.addEventListener("click", () => { hand.splice(i, 1); renderHand(); }); box.appendChild(ch); });
  if (ws && ws.readyState === 1) ws.send(JSON.stringify({ hand: hand.join(" ") }));
}
$("clearhand").addEventListener("click", () => { hand = []; renderHand(); });
$("advise").addEventListener("click", async () => {
  const body = { cards: hand.join(" "), shown: $("shown").value || null, relation: $("relation").value };
  const r = await fetch("/api/advise", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  const j = await r.json();
  if (!r.ok) { $("advice").textContent = "Error: " + JSON.stringify(j.detail); return; }
  let out = `Distance to win: ${j.distance}\nWaits: ${j.waits.map((w) => `${w.card}(${w.unseen})`).join(" ") || "-"}`;
  if (j.claims.length) out += `\nClaims: ${j.claims.map((c) => `${c.claim} ${c.meld.join(" ")}`).join("; ")}`;
  if (j.best && j.best.claim) out += `\nBest: ${j.best.claim.claim} ${j.best.claim.meld.join(" ")}${j.best.wins ? ` (a win, ${j.best.points} points)` : ""}`;
  if (j.discard) out += `\nDiscard: ${j.discard.card}`;
  $("advice").textContent = out;
});

// --- score -------------------------------------------------------------------------------------
$("scorebtn").addEventListener("click", async () => {
  const r = await fetch("/api/score", { method: "POST", headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ cards: $("scorecards").value, rules: $("rules").value }) });
  const j = await r.json();
  $("scoreout").textContent = r.ok ? (j.winning ? `A win: ${j.points} points\n` + j.melds.map((m) => m.join(" ")).join("\n") : "Not a winning hand") : "Error: " + JSON.stringify(j.detail);
});
$("photo").addEventListener("change", async () => {
  const f = $("photo").files[0];
  if (!f) return;
  const fd = new FormData(); fd.append("file", f);
  $("scoreout").textContent = "reading…";
  const r = await fetch("/api/score-image?rules=" + encodeURIComponent($("rules").value) + deckParam(), { method: "POST", body: fd });
  const j = await r.json();
  if (!r.ok) { $("scoreout").textContent = "Error: " + JSON.stringify(j.detail); return; }
  confirmed = { cards: j.cards.slice(), doubt: new Set(j.unsure.map((u) => u.index)), alternatives: {} };
  for (const u of j.unsure) confirmed.alternatives[u.index] = u.alternatives;
  $("confirmnote").textContent = j.unsure.length
    ? `Check the ${j.unsure.length} card(s) outlined in red; tap a card to change or remove it.`
    : "Tap a card to change or remove it, or add a missing one.";
  $("scoreout").textContent = j.runner_up ? `runner-up: ${j.runner_up.cards.join(" ")} (${j.runner_up.points} points), margin ${j.margin}` : "";
  $("confirm").hidden = false;
  rescore();
});

// --- confirm a photographed hand ---------------------------------------------------------------
let confirmed = null, picking = null;  // picking: a card's index, or -1 to add one
async function rescore() {
  const r = await fetch("/api/score", { method: "POST", headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ cards: confirmed.cards.join(" ") || "-", rules: $("rules").value }) });
  const j = await r.json();
  confirmed.points = r.ok && j.winning ? j.points : null;
  $("confirmscore").textContent = !r.ok ? (typeof j.detail === "string" ? j.detail : "not a hand")
    : j.winning ? `a win: ${j.points} points` : `not a winning hand (${confirmed.cards.length} cards)`;
  const groups = r.ok && j.winning ? j.melds : [confirmed.cards];
  const left = confirmed.cards.map((c, i) => i);
  const box = $("melds");
  box.replaceChildren();
  for (const meld of groups) {
    const g = document.createElement("div"); g.className = "meld";
    for (const code of meld) {
      const k = left.findIndex((i) => confirmed.cards[i] === code);
      const index = k >= 0 ? left.splice(k, 1)[0] : -1;
      const c = chip(code);
      if (confirmed.doubt.has(index)) c.classList.add("doubt");
      if (picking === index) c.classList.add("picked");
      c.dataset.index = index;
      c.addEventListener("click", () => openPicker(index));
      g.appendChild(c);
    }
    box.appendChild(g);
  }
}
function openPicker(index) {
  picking = index;
  const p = $("fixpicker");
  p.replaceChildren();
  const first = (confirmed.alternatives[index] || []).filter((a) => a !== "none");
  for (const code of [...first, ...SUITS.flatMap((s) => RANKS.map((r) => s + r)), "J"].filter((c, i, a) => a.indexOf(c) === i)) {
    const b = document.createElement("button"); b.type = "button";
    b.className = code === "J" ? "J" : code[0];
    b.textContent = chip(code).textContent;
    b.dataset.code = code;
    b.addEventListener("click", () => choose(code));
    p.appendChild(b);
  }
  if (index >= 0) {
    const rm = document.createElement("button"); rm.type = "button"; rm.className = "remove"; rm.textContent = "remove";
    rm.addEventListener("click", () => choose(null));
    p.appendChild(rm);
  }
  p.hidden = false;
  rescore();
}
function choose(code) {
  if (picking === -1 && code) confirmed.cards.push(code);
  else if (picking >= 0 && code) confirmed.cards[picking] = code;
  else if (picking >= 0) {
    confirmed.cards.splice(picking, 1);
    confirmed.doubt = new Set([...confirmed.doubt].filter((i) => i !== picking).map((i) => (i > picking ? i - 1 : i)));
  }
  if (picking >= 0) confirmed.doubt.delete(picking);
  picking = null;
  $("fixpicker").hidden = true;
  rescore();
}
$("addcard").addEventListener("click", () => openPicker(-1));
$("recordform").addEventListener("submit", async (e) => {
  e.preventDefault();
  const players = $("recplayers").value.split(",").map((s) => s.trim()).filter(Boolean);
  const body = { players, winner: $("recwinner").value.trim() || null, points: confirmed.points || 0,
                 discarder: $("recdiscarder").value.trim() || null, rules: $("rules").value, cards: confirmed.cards.join(" "),
                 table: currentTable() };
  if (confirmed.points === null) { $("scoreout").textContent = "not a winning hand: fix the cards before recording"; return; }
  const r = await write("/api/ledger/deals", { headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  const j = await r.json();
  $("scoreout").textContent = r.ok ? `recorded deal #${j.id} at ${j.table}: ${body.winner} ${body.points} points` : "Error: " + detailText(j);
});

// --- ledger: the club's tables, this table's deals and totals, the club's totals -----------------
function currentTable() { return $("tablechoice").value || "main"; }
function tableQuery() { return "?table=" + encodeURIComponent(currentTable()); }
async function loadTables(select) {
  const j = await (await fetch("/api/tables")).json();
  const sel = $("tablechoice");
  const keep = select || sel.value || localStorage.getItem("sisepai-table") || j.default;
  sel.replaceChildren(...j.tables.map((t) => new Option(t.name, t.name)));
  sel.value = j.tables.some((t) => t.name === keep) ? keep : j.default;
}
$("tablechoice").addEventListener("change", () => {
  localStorage.setItem("sisepai-table", currentTable());
  loadLedger();  // the stream reconnects, tied to the table chosen (reconnect, above)
});
$("tableform").addEventListener("submit", async (e) => {
  e.preventDefault();
  const name = $("newtable").value.trim();
  const r = await write("/api/tables", { headers: { "Content-Type": "application/json" }, body: JSON.stringify({ name }) });
  if (!r.ok) { $("ledgerout").textContent = "Error: " + detailText(await r.json()); return; }
  $("newtable").value = "";
  await loadTables(name);
  $("tablechoice").dispatchEvent(new Event("change"));
});
async function loadLedger() {
  const r = await fetch("/api/ledger" + tableQuery());
  const j = await r.json();
  if (!r.ok) { $("ledgerout").textContent = "Error: " + detailText(j); return; }
  const row = (cells, tag) => {
    const tr = document.createElement("tr");
    for (const c of cells) {  // each name isolated (<bdi>): a right-to-left name cannot turn the row around
      const td = document.createElement(tag), b = document.createElement("bdi");
      b.textContent = String(c); td.appendChild(b); tr.appendChild(td);
    }
    return tr;
  };
  $("totals").replaceChildren(row([`At ${j.table}`, "Total"], "th"), ...Object.entries(j.totals).map(([p, t]) => row([p, t], "td")));
  $("clubtotals").replaceChildren(row(["Club-wide", "Total"], "th"), ...Object.entries(j.club_totals).map(([p, t]) => row([p, t], "td")));
  $("exportcsv").href = "/api/ledger/export.csv" + tableQuery();
  const bdi = (text) => { const b = document.createElement("bdi"); b.textContent = text; return b; };
  $("ledgerout").replaceChildren(...j.deals.slice(-10).flatMap((d, k) => {
    const parts = [k ? "\n" : "", `#${d.id} `, bdi(d.winner || "draw"), ` ${d.points}: `];
    d.payments.forEach((p, i) => parts.push(i ? ", " : "", bdi(p.payer), "→", bdi(p.payee), ` ${p.amount}`));
    return parts;
  }));
}
$("dealform").addEventListener("submit", async (e) => {
  e.preventDefault();
  const body = { players: $("players").value.split(",").map((s) => s.trim()).filter(Boolean), winner: $("winner").value || null,
                 points: +$("points").value, discarder: $("discarder").value || null, table: currentTable() };
  const r = await write("/api/ledger/deals", { headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  if (!r.ok) { $("ledgerout").textContent = "Error: " + detailText(await r.json()); return; }
  loadLedger();
});
$("undo").addEventListener("click", async () => {
  const r = await write("/api/ledger/undo" + tableQuery());
  if (!r.ok) { $("ledgerout").textContent = "Undo failed: " + detailText(await r.json()); return; }
  loadLedger();
});
loadTables();

// --- my deck -----------------------------------------------------------------------------------
function deckParam() { return $("deckchoice").value ? "&deck=" + encodeURIComponent($("deckchoice").value) : ""; }
async function loadDecks(select) {
  const j = await (await fetch("/api/decks")).json();
  const sel = $("deckchoice");
  const keep = select || sel.value || j.default || "";
  while (sel.options.length > 1) sel.remove(1);
  for (const d of j.decks) sel.add(new Option(d.name, d.name));
  sel.value = j.decks.some((d) => d.name === keep) ? keep : "";
}
loadDecks();
(function gridHelp() {
  const rows = [...SUITS.map((s) => RANKS.map((r) => s + r)), ["J"]];
  for (const row of rows) {
    const tr = document.createElement("tr");
    for (const code of row) { const td = document.createElement("td"); td.className = code === "J" ? "J" : code[0]; td.textContent = chip(code).textContent; tr.appendChild(td); }
    $("gridhelp").appendChild(tr);
  }
})();
let gridShots = [], draft = null;
$("snap").addEventListener("click", async () => {
  const v = $("video");
  if (!v.srcObject) {
    const blocked = cameraBlocked();
    if (blocked) { $("deckstatus").textContent = blocked + "; or choose photos below"; return; }
    try { v.srcObject = await navigator.mediaDevices.getUserMedia({ video: { width: 1920, height: 1080, facingMode: "environment" } }); await v.play(); }
    catch (e) { $("deckstatus").textContent = "camera unavailable: " + e.message; return; }
  }
  const c = document.createElement("canvas");
  c.width = v.videoWidth; c.height = v.videoHeight;
  c.getContext("2d").drawImage(v, 0, 0);
  gridShots.push(await new Promise((ok) => c.toBlob(ok, "image/jpeg", 0.92)));
  $("deckstatus").textContent = `${gridShots.length} photo(s) taken`;
});
$("gridphotos").addEventListener("change", () => { gridShots = [...$("gridphotos").files]; $("deckstatus").textContent = `${gridShots.length} photo(s) chosen`; });
$("cutbtn").addEventListener("click", async () => {
  if (!gridShots.length) { $("deckstatus").textContent = "take or choose a photo of the grid first"; return; }
  const fd = new FormData();
  gridShots.forEach((b, i) => fd.append("files", b, `grid${i}.jpg`));
  $("deckstatus").textContent = "cutting…";
  const r = await fetch("/api/decks/cut", { method: "POST", body: fd });
  const j = await r.json();
  $("faces").replaceChildren();
  if (!r.ok) { $("deckstatus").textContent = typeof j.detail === "string" ? j.detail : "could not cut the faces"; gridShots = []; return; }
  draft = j.draft;
  for (const f of j.faces) {
    const fig = document.createElement("figure");
    const img = document.createElement("img"); img.src = f.image; img.alt = f.code;
    const cap = document.createElement("figcaption"); cap.appendChild(chip(f.code));
    fig.append(img, cap); $("faces").appendChild(fig);
  }
  $("deckstatus").textContent = (j.notes && j.notes.length ? "Look again at: " + j.notes.join("; ") + ". " : "")
    + "Check each face sits under its own name, then adapt.";
  $("adapt").disabled = false;
});
$("adapt").addEventListener("click", async () => {
  const name = $("deckname").value.trim();
  if (!/^[A-Za-z0-9_-]{1,40}$/.test(name)) { $("deckstatus").textContent = "name the deck: letters, digits, - or _"; return; }
  const r = await write("/api/decks", { headers: { "Content-Type": "application/json" }, body: JSON.stringify({ draft, name }) });
  const j = await r.json();
  if (!r.ok) { $("deckstatus").textContent = typeof j.detail === "string" ? j.detail : "could not start"; return; }
  $("adapt").disabled = true;
  followJob(j.job);
});
function followJob(job) {  // an enrolment's progress, also after a reload of the page
  const poll = async () => {
    const r = await fetch("/api/decks/jobs/" + encodeURIComponent(job));
    if (!r.ok) return;
    const s = await r.json();
    $("deckprogress").value = s.fraction || 0;
    $("deckstatus").textContent = s.error ? "failed: " + s.error : s.done ? `deck ${s.name} ready` : s.message;
    if (s.done) { loadDecks(s.name); return; }
    if (!s.error) setTimeout(poll, 1500);
  };
  poll();
}
(async () => {  // a job still running when the page was reloaded
  try {
    const r = await fetch("/api/decks/jobs");
    if (!r.ok) return;
    const running = (await r.json()).jobs.find((j) => !j.done && !j.error);
    if (running) { $("deckstatus").textContent = `enrolling ${running.name}…`; followJob(running.job); }
  } catch (e) { /* the page works without it */ }
})();
