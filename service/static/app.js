// sisepai web page: camera -> WebSocket /api/live -> outlines, events, voice; hand, score, ledger.
"use strict";
const $ = (id) => document.getElementById(id);
// the cards and seats come from the engine's tables (/api/names): the page keeps none of its own
let names = { kinds: [], suits: [], ranks: [], zones: [], seats: {}, cards: {} };
let hand = [];
let ws = null, busy = false, frames = 0, retry = 1000, sending = false;
let sentAt = 0, stopped = true;  // when the frame in flight was sent; the camera stopped by the user
const ANSWER_TIMEOUT_MS = 3000;  // no answer by then: the frame is given up and the next one sent

document.querySelectorAll("nav [role=tab]").forEach((b) => b.addEventListener("click", () => {
  document.querySelectorAll("nav [role=tab], .tab").forEach((x) => x.classList.remove("active"));
  document.querySelectorAll("nav [role=tab]").forEach((x) => x.setAttribute("aria-selected", "false"));
  b.classList.add("active"); b.setAttribute("aria-selected", "true");
  $(b.dataset.tab).classList.add("active");
  if (b.dataset.tab === "ledger") loadLedger();
}));

// --- one language for the page's words, its events and its voice -------------------------------
const WORDS = {
  zh: { "Live": "实时", "My hand": "我的牌", "Score": "计分", "Ledger": "账本", "My deck": "我的牌组", "Gang of Four": "四人帮",
        "speak": "朗读", "Start camera": "开启相机", "Stop": "停止", "On the table": "桌面", "Events": "事件" },
  vi: { "Live": "Trực tiếp", "My hand": "Bài của tôi", "Score": "Tính điểm", "Ledger": "Sổ điểm", "My deck": "Bộ bài của tôi",
        "Gang of Four": "Gang of Four", "speak": "đọc to", "Start camera": "Bật máy ảnh", "Stop": "Dừng",
        "On the table": "Trên bàn", "Events": "Sự kiện" },
};
function applyLanguage() {
  const lang = $("lang").value;
  document.documentElement.lang = { en: "en", zh: "zh-Hans", vi: "vi" }[lang] || "en";
  document.querySelectorAll("[data-t]").forEach((el) => { el.textContent = (WORDS[lang] || {})[el.dataset.t] || el.dataset.t; });
  localStorage.setItem("sisepai-lang", lang);
  if (ws && ws.readyState === 1) ws.send(JSON.stringify({ lang }));
  document.querySelectorAll(".chip[data-code], button[data-code]").forEach((el) => { el.textContent = chipText(el.dataset.code); });
}
$("lang").value = localStorage.getItem("sisepai-lang") || "en";
$("lang").addEventListener("change", applyLanguage);

const whenNames = fetch("/api/names").then((r) => r.json()).then((n) => { names = n; applyLanguage(); return n; });

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
    const token = prompt("This club's ledger is protected by a password. Ask whoever started sisepai for it:");
    if (token) { localStorage.setItem(TOKEN_KEY, token.trim()); r = await send(); }
  }
  return r;
}
function detailText(j) {  // the server's one sentence; never a list of codes
  if (typeof j.detail === "string") return j.detail;
  return "the server could not use that: check what you typed";
}

// Chinese text is in simplified characters throughout (events, voice and the cards' characters)
function glyphOf(code) {
  const c = names.cards[code] || {};
  return ($("lang").value === "zh" ? c.glyph_zh : c.glyph) || code;
}
function chipText(code) { return code === "J" ? "J" : code[0] + glyphOf(code); }
function cardName(code) { const c = names.cards[code] || {}; return c[$("lang").value] || c.en || code; }
function chip(code, clickable) {  // a card: a button when it can be tapped (and reached by keyboard)
  const s = document.createElement(clickable ? "button" : "span");
  if (clickable) s.type = "button";
  s.className = "chip " + (code === "J" ? "J" : code[0]);
  s.dataset.code = code;
  s.textContent = chipText(code);
  s.title = cardName(code);
  s.setAttribute("aria-label", cardName(code));
  return s;
}

// --- speech ------------------------------------------------------------------------------------
const VOICE = { en: "en-US", zh: "zh-CN", vi: "vi-VN" };
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
  params.set("lang", $("lang").value);  // and the events are told in its language
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
    const label = d.card === "J" ? "J" : glyphOf(d.card);  // the card's character: short, and no code to learn
    const [x, y] = d.polygon[0], w = g.measureText(label).width;
    g.fillStyle = "rgba(0,0,0,0.7)"; g.fillRect(x - 2, y - px - 4, w + 4, px + 2);  // a dark plate under the label
    g.fillStyle = col; g.fillText(label, x, y - 3);
  }
  showCards(msg.cards);
}

function showCards(cards) {  // what is on the table now, seat by seat
  const box = $("cards");
  box.replaceChildren();
  const lang = $("lang").value;
  for (const zone of names.zones) {
    const here = cards.filter((c) => c.zone === zone);
    if (!here.length) continue;
    const row = document.createElement("div");
    row.className = "seatrow";
    const label = document.createElement("span");
    label.className = "seat";
    label.textContent = (names.seats[lang] || names.seats.en || {})[zone] || zone;
    row.appendChild(label);
    for (const c of here) row.appendChild(chip(c.card));
    box.appendChild(row);
  }
}

function logEvent(ev) {
  const text = ev.text || ev.type;  // the server writes each event's sentence, in the page's language
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
whenNames.then((n) => n.kinds.forEach(addPick));
function addPick(code) {
  const btn = chip(code, true);
  btn.addEventListener("click", () => {
    const limit = code === "J" ? names.jokers : names.copies;  // no more copies than the deck has
    if (hand.filter((c) => c === code).length >= limit) return;
    hand.push(code); renderHand();
  });
  $("picker").appendChild(btn);
}
function renderHand() {
  const box = $("myhand");
  box.replaceChildren();
  hand.forEach((c, i) => { const ch = chip(c, true); ch.title = `remove ${cardName(c)}`; ch.addEventListener("click", () => { hand.splice(i, 1); renderHand(); }); box.appendChild(ch); });
  if (ws && ws.readyState === 1) ws.send(JSON.stringify({ hand: hand.join(" ") }));
}
$("clearhand").addEventListener("click", () => { hand = []; renderHand(); });
$("advise").addEventListener("click", async () => {
  const body = { cards: hand.join(" "), shown: $("shown").value || null, relation: $("relation").value };
  const r = await fetch("/api/advise", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  const j = await r.json();
  if (!r.ok) { $("advice").textContent = detailText(j); return; }
  const many = (cards) => cards.map(cardName).join(", ");
  let out = j.distance === 0 ? "Your hand wins." : `Cards away from a win: ${j.distance}`;
  out += `\nWaiting for: ${j.waits.map((w) => `${cardName(w.card)} (${w.unseen} unseen)`).join(", ") || "nothing yet"}`;
  if (j.claims.length) out += `\nYou may claim: ${j.claims.map((c) => `${c.claim} with ${many(c.meld)}`).join("; ")}`;
  if (j.best && j.best.claim) out += `\nBest: ${j.best.claim.claim} with ${many(j.best.claim.meld)}${j.best.wins ? ` (a win, ${j.best.points} points)` : ""}`;
  if (j.discard) out += `\nDiscard: ${cardName(j.discard.card)}`;
  $("advice").textContent = out;
});

// --- score -------------------------------------------------------------------------------------
const RULES_LINE = {
  seesek: "See Sek, as the Cantonese rulebook plays it: four of a kind 2 points, three of a kind 1, a lone General 1, a joker 3.",
  korean: "Korean house rules: the dealer takes 21 cards and opens; a concealed triple 3, exposed 1; a concealed four 8, exposed 6.",
};
function showRulesLine() { $("rulesline").textContent = RULES_LINE[$("rules").value] || ""; }
$("rules").addEventListener("change", showRulesLine);
showRulesLine();
$("scorebtn").addEventListener("click", async () => {
  const r = await fetch("/api/score", { method: "POST", headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ cards: $("scorecards").value, rules: $("rules").value }) });
  const j = await r.json();
  $("scoreout").textContent = r.ok ? (j.winning ? `A win: ${j.points} points\n` + j.melds.map((m) => m.map(cardName).join(", ")).join("\n") : "Not a winning hand") : detailText(j);
});
$("photo").addEventListener("change", async () => {
  const f = $("photo").files[0];
  if (!f) return;
  const fd = new FormData(); fd.append("file", f);
  $("scoreout").textContent = "reading…";
  const r = await fetch("/api/score-image?rules=" + encodeURIComponent($("rules").value) + deckParam(), { method: "POST", body: fd });
  const j = await r.json();
  if (!r.ok) { $("scoreout").textContent = detailText(j); return; }
  confirmed = { cards: j.cards.slice(), doubt: new Set(j.unsure.map((u) => u.index)), alternatives: {} };
  for (const u of j.unsure) confirmed.alternatives[u.index] = u.alternatives;
  $("confirmnote").textContent = j.unsure.length
    ? `Check the ${j.unsure.length} card(s) marked with a dashed outline; tap a card to change or remove it.`
    : "Tap a card to change or remove it, or add a missing one.";
  $("scoreout").textContent = j.runner_up ? `Also possible (less likely): ${alsoPossible(j.cards, j.runner_up.cards)}, for ${j.runner_up.points} points` : "";
  $("confirm").hidden = false;
  rescore();
});

function alsoPossible(best, other) {  // what the other reading changes, in card names
  const left = other.slice(), gone = [];
  for (const c of best) { const k = left.indexOf(c); if (k >= 0) left.splice(k, 1); else gone.push(c); }
  if (!left.length && !gone.length) return "the same cards";
  return gone.map((c, i) => `${cardName(left[i] || "-")} instead of ${cardName(c)}`).join(", ")
    + left.slice(gone.length).map((c) => `, ${cardName(c)} as well`).join("");
}

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
      const c = chip(code, true);
      if (confirmed.doubt.has(index)) { c.classList.add("doubt"); c.setAttribute("aria-label", `${cardName(code)}: check this card`); }
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
  for (const code of [...first, ...names.kinds].filter((c, i, a) => a.indexOf(c) === i)) {
    const b = chip(code, true);
    b.addEventListener("click", () => choose(code));
    p.appendChild(b);
  }
  if (index >= 0) {
    const rm = document.createElement("button"); rm.type = "button"; rm.className = "remove"; rm.textContent = "Remove";
    rm.addEventListener("click", () => choose(null));
    p.appendChild(rm);
  }
  const cancel = document.createElement("button"); cancel.type = "button"; cancel.className = "cancel"; cancel.textContent = "Cancel";
  cancel.addEventListener("click", () => { picking = null; p.hidden = true; rescore(); });
  p.appendChild(cancel);
  p.hidden = false;
  rescore();
  p.querySelector("button").focus();
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
  $("scoreout").textContent = r.ok ? `recorded deal #${j.id} at ${j.table}: ${body.winner} ${body.points} points` : detailText(j);
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
  if (!r.ok) { $("ledgerout").textContent = detailText(await r.json()); return; }
  $("newtable").value = "";
  await loadTables(name);
  $("tablechoice").dispatchEvent(new Event("change"));
});
async function loadLedger() {
  const r = await fetch("/api/ledger" + tableQuery());
  const j = await r.json();
  if (!r.ok) { $("ledgerout").textContent = detailText(j); return; }
  lastDeal = j.deals.length ? j.deals[j.deals.length - 1] : null;
  const row = (cells, tag) => {
    const tr = document.createElement("tr");
    for (const c of cells) {  // each name isolated (<bdi>): a right-to-left name cannot turn the row around
      const td = document.createElement(tag), b = document.createElement("bdi");
      b.textContent = String(c); td.appendChild(b); tr.appendChild(td);
    }
    return tr;
  };
  const more = (shown, count) => (count > shown ? [row([`and ${count - shown} more players`, ""], "td")] : []);
  $("totals").replaceChildren(row([`At ${j.table}`, "Total"], "th"), ...Object.entries(j.totals).map(([p, t]) => row([p, t], "td")),
    ...more(Object.keys(j.totals).length, j.players_count));
  $("clubtotals").replaceChildren(row(["Club-wide", "Total"], "th"), ...Object.entries(j.club_totals).map(([p, t]) => row([p, t], "td")),
    ...more(Object.keys(j.club_totals).length, j.club_players_count));
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
  if (!r.ok) { $("ledgerout").textContent = detailText(await r.json()); return; }
  loadLedger();
});
let lastDeal = null;
$("undo").addEventListener("click", async () => {
  if (!lastDeal) { $("ledgerout").textContent = `${currentTable()} has no deals to undo`; return; }
  const what = lastDeal.winner ? `${lastDeal.winner} won ${lastDeal.points} points` : "a drawn deal";
  if (!confirm(`Undo the last deal at ${currentTable()} (#${lastDeal.id}: ${what})?`)) return;
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
whenNames.then(function gridHelp(n) {
  const rows = [...n.suits.map((s) => n.ranks.map((r) => s + r)), ["J"]];
  for (const row of rows) {
    const tr = document.createElement("tr");
    for (const code of row) { const td = document.createElement("td"); td.className = code === "J" ? "J" : code[0]; td.textContent = chip(code).textContent; tr.appendChild(td); }
    $("gridhelp").appendChild(tr);
  }
});
let gridShots = [], draft = null;
$("deckcamera").addEventListener("click", async () => {  // the preview sits in this tab, so a photo is never blind
  const v = $("deckvideo");
  if (v.srcObject) { v.srcObject.getTracks().forEach((t) => t.stop()); v.srcObject = null; $("deckview").hidden = true;
    $("snap").disabled = true; $("deckcamera").textContent = "Start camera"; return; }
  const blocked = cameraBlocked();
  if (blocked) { $("deckstatus").textContent = blocked + "; or choose photos below"; return; }
  try { v.srcObject = await navigator.mediaDevices.getUserMedia({ video: { width: 1920, height: 1080, facingMode: "environment" } }); await v.play(); }
  catch (e) { $("deckstatus").textContent = "camera unavailable: " + e.message; return; }
  $("deckview").hidden = false; $("snap").disabled = false; $("deckcamera").textContent = "Stop camera";
});
$("snap").addEventListener("click", async () => {
  const v = $("deckvideo");
  if (!v.srcObject || !v.videoWidth) { $("deckstatus").textContent = "start the camera first"; return; }
  const c = document.createElement("canvas");
  c.width = v.videoWidth; c.height = v.videoHeight;
  c.getContext("2d").drawImage(v, 0, 0);
  gridShots = [await new Promise((ok) => c.toBlob(ok, "image/jpeg", 0.92))];  // each photo is a new try
  $("deckstatus").textContent = "photo taken: cut the faces, or take it again";
});
$("gridphotos").addEventListener("change", () => { gridShots = [...$("gridphotos").files]; $("deckstatus").textContent = `${gridShots.length} photo(s) chosen`; });
$("cutbtn").addEventListener("click", async () => {
  if (!gridShots.length) { $("deckstatus").textContent = "take or choose a photo of the grid first"; return; }
  const fd = new FormData();
  gridShots.forEach((b, i) => fd.append("files", b, `grid${i}.jpg`));
  $("deckstatus").textContent = "cutting…";
  $("adapt").disabled = true;
  const r = await write("/api/decks/cut", { body: fd });
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
  const start = (replace) => write("/api/decks", { headers: { "Content-Type": "application/json" },
                                                   body: JSON.stringify({ draft, name, replace }) });
  let r = await start(false);
  let j = await r.json();
  if (r.status === 409 && typeof j.detail === "string" && j.detail.includes("enrolled already")) {
    if (!confirm(`A deck named ${name} is enrolled already. Replace it with this one?`)) {
      $("deckstatus").textContent = "kept the enrolled deck: choose another name to add this one";
      return;
    }
    r = await start(true);
    j = await r.json();
  }
  if (!r.ok) { $("deckstatus").textContent = typeof j.detail === "string" ? j.detail : "could not start"; return; }
  $("adapt").disabled = true;
  followJob(j.job);
});
let enrolling = null;  // the job being followed, which Cancel stops
$("cancelenrol").addEventListener("click", async () => {
  if (!enrolling) return;
  $("cancelenrol").disabled = true;
  const r = await write("/api/decks/jobs/" + encodeURIComponent(enrolling), { method: "DELETE" });
  if (!r.ok) { $("cancelenrol").disabled = false; $("deckstatus").textContent = detailText(await r.json()); }
});
function timeLeft(seconds) {  // from the pace of the steps done
  if (seconds === null || seconds === undefined) return "";
  return seconds < 90 ? ` · about ${Math.max(5, Math.round(seconds / 5) * 5)} s left` : ` · about ${Math.round(seconds / 60)} min left`;
}
function followJob(job) {  // an enrolment's progress, also after a reload of the page
  enrolling = job;
  $("cancelenrol").hidden = false; $("cancelenrol").disabled = false;
  const poll = async () => {
    const r = await fetch("/api/decks/jobs/" + encodeURIComponent(job));
    if (!r.ok) return;
    const s = await r.json();
    $("deckprogress").value = s.fraction || 0;
    $("deckstatus").textContent = s.cancelled ? "cancelled: no deck was saved"
      : s.error ? "failed: " + s.error : s.done ? `deck ${s.name} ready` : s.message + timeLeft(s.seconds_left);
    if (s.done || s.error) {
      enrolling = null;
      $("cancelenrol").hidden = true;
      $("adapt").disabled = false;
      if (s.done) loadDecks(s.name);
      return;
    }
    setTimeout(poll, 1500);
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

// --- Gang of Four ------------------------------------------------------------------------------
(function gofPicker() {
  const codes = [];
  for (let n = 1; n <= 10; n++) for (const c of "gyr") codes.push(c + n);
  codes.push("m1", "vp", "pr");
  for (const code of codes) {
    const b = document.createElement("button"); b.type = "button";
    b.className = "gofcard " + (code[0] === "g" ? "G" : code[0] === "y" ? "Y" : code[0] === "r" ? "R" : "J");
    b.textContent = code;
    b.addEventListener("click", () => { $("gofhand").value = ($("gofhand").value.trim() + " " + code).trim(); });
    $("gofpicker").appendChild(b);
  }
})();
async function gofPost(url, body) {
  const r = await fetch(url, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  return [r.ok, await r.json()];
}
$("gofadvise").addEventListener("click", async () => {
  const body = { hand: $("gofhand").value, on: $("gofon").value.trim() || null };
  const [ok, advice] = await gofPost("/api/gof/advise", body);
  if (!ok) { $("gofout").textContent = detailText(advice); return; }
  const [, legal] = await gofPost("/api/gof/legal", body);
  const plays = (legal.plays || []).map((p) => `${p.cards.join(" ")} (${p.kind})`);
  $("gofout").textContent = (advice.play ? `Play ${advice.play.join(" ")} (${advice.kind})` : "Pass")
    + (advice.reason ? `: ${advice.reason}` : "")
    + `\n${plays.length} legal plays${legal.can_pass ? ", or pass" : ""}: ` + (plays.slice(0, 12).join(", ") || "none")
    + (plays.length > 12 ? ", …" : "");
});
$("gofclear").addEventListener("click", () => { $("gofhand").value = ""; $("gofon").value = ""; $("gofout").textContent = ""; });
$("gofscore").addEventListener("click", async () => {
  const left = $("gofleft").value.split(/[ ,]+/).filter(Boolean).map(Number);
  const [ok, j] = await gofPost("/api/gof/score", { left });
  // penalty points: the fewest win; the player with no cards left has none
  $("gofscoreout").textContent = ok ? j.scores.map((s, i) => `Player ${i + 1}: ${left[i]} card${left[i] === 1 ? "" : "s"} left, `
    + (s === 0 ? "no penalty" : `${s} penalty point${s === 1 ? "" : "s"}`)).join("\n") : detailText(j);
});

// --- a result or an error belongs to the input it answered: typing anew clears it ---------------
const CLEARS = { hand: ["advice"], score: ["scoreout"], ledger: ["ledgerout"], gof: ["gofout"] };
Object.entries(CLEARS).forEach(([section, outs]) => {
  $(section).addEventListener("input", (e) => {
    if (!e.target.matches("input, textarea, select")) return;
    const cleared = e.target.id === "gofleft" ? ["gofscoreout"] : outs;
    cleared.forEach((id) => { $(id).textContent = ""; });
  });
});
