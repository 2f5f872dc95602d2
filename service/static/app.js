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
// Every word the page shows comes from a catalogue (/i18n/LANG.json: ICU messages with plural
// forms, the format translators use); English fills any key a catalogue lacks.
const HTML_LANG = { en: "en", zh: "zh-Hans", "zh-Hant": "zh-Hant", "zh-HK": "zh-HK", vi: "vi" };
let catalogue = {}, english = {};
const rendered = new Map();  // element -> how to write it again in another language
function pageLang() { return $("lang").value in HTML_LANG ? $("lang").value : "en"; }
function format(text, vars) {
  const plurals = new Intl.PluralRules(HTML_LANG[pageLang()]);
  return text.replace(/\{(\w+), plural, ((?:[\w=]+ \{[^{}]*\}\s*)+)\}/g, (m, name, forms) => {
    const n = Number(vars[name]), choice = {};
    forms.replace(/([\w=]+) \{([^{}]*)\}/g, (x, form, body) => { choice[form] = body; });
    return (choice["=" + n] ?? choice[plurals.select(n)] ?? choice.other ?? "").replace(/#/g, String(n));
  }).replace(/\{(\w+)\}/g, (m, name) => (name in vars ? String(vars[name]) : m));
}
function t(key, vars = {}) { return format(catalogue[key] ?? english[key] ?? key, vars); }
function show(el, draw) {  // write el's text now, and again whenever the language changes
  if (typeof el === "string") el = $(el);
  rendered.set(el, draw);
  el.textContent = draw();
}
function showKey(el, key, vars = {}) { show(el, () => t(key, vars)); }
async function loadCatalogue(lang) {
  const get = async (l) => { const r = await fetch(`/i18n/${l}.json`); return r.ok ? r.json() : {}; };
  if (!Object.keys(english).length) english = await get("en");
  catalogue = lang === "en" ? english : await get(lang);
}
async function applyLanguage() {
  const lang = pageLang();
  await loadCatalogue(lang);
  document.documentElement.lang = HTML_LANG[lang];
  document.querySelectorAll("[data-i18n]").forEach((el) => { el.textContent = t(el.dataset.i18n); });
  document.querySelectorAll("[data-i18n-placeholder]").forEach((el) => { el.placeholder = t(el.dataset.i18nPlaceholder); });
  document.querySelectorAll("[data-i18n-aria-label]").forEach((el) => { el.setAttribute("aria-label", t(el.dataset.i18nAriaLabel)); });
  document.title = t("title");
  for (const [el, draw] of rendered) { if (el.isConnected) el.textContent = draw(); else rendered.delete(el); }
  localStorage.setItem("sisepai-lang", lang);
  if (ws && ws.readyState === 1) ws.send(JSON.stringify({ lang }));
  document.querySelectorAll(".chip[data-code], button[data-code]").forEach((el) => {
    el.textContent = chipText(el.dataset.code); el.title = cardName(el.dataset.code); el.setAttribute("aria-label", cardName(el.dataset.code));
  });
  document.dispatchEvent(new Event("languagechange"));
}
$("lang").addEventListener("change", applyLanguage);
$("lang").value = localStorage.getItem("sisepai-lang") || "en";
if (!$("lang").value) $("lang").value = "en";  // a language this page no longer offers

const whenNames = fetch("/api/names").then((r) => r.json()).then(async (n) => { names = n; await applyLanguage(); return n; });

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
    const token = prompt(t("ledger.token"));
    if (token) { localStorage.setItem(TOKEN_KEY, token.trim()); r = await send(); }
  }
  return r;
}
// a refused input in one sentence, in the page's language: the server's structured reason when it
// gives one (which field, what it needs), else its own sentence; never a list of codes
const ERROR_WORDS = { missing: "error.missing", too_short: "error.tooShort", too_long: "error.tooLong",
                      greater_than_equal: "error.atLeast", less_than_equal: "error.atMost", int_parsing: "error.number",
                      int_type: "error.number" };
function detailText(j) {
  const e = Array.isArray(j.errors) ? j.errors[0] : null;
  if (e && e.type === "json_invalid") return t("error.json");
  if (e && ERROR_WORDS[e.type]) {
    const named = (e.loc || []).filter((p) => typeof p === "string" && !["body", "query", "path", "header"].includes(p));
    const field = named[named.length - 1] || "";
    const ctx = e.ctx || {};
    const n = ctx.min_length ?? ctx.max_length ?? ctx.ge ?? ctx.le;
    const what = field === "left" && e.type.startsWith("too_") ? t("error.leftCount") : t(ERROR_WORDS[e.type], { n });
    const label = english["field." + field] ? t("field." + field) : field.replace(/_/g, " ").replace(/^./, (c) => c.toUpperCase());
    return t("error.field", { field: label, what });
  }
  return codeText("err.", j.code, j.params, j.detail);
}
// a server's sentence with a code (service/refusals.py): its own English words on an English page
// (the most precise), the catalogue's sentence with the params filled in on the others; where that
// sentence has no params to carry the details (which card, which rule), the English details follow it
function codeText(prefix, code, params, detail) {
  if (pageLang() === "en" && typeof detail === "string") return detail;
  const known = code && english[prefix + code] !== undefined;
  const vars = { ...(params || {}) };
  if (typeof vars.card === "string" && names.cards[vars.card]) vars.card = cardName(vars.card);
  const sentence = known ? t(prefix + code, vars) : t("error.generic");
  const generic = !known || !/\{/.test(english[prefix + code]);
  return generic && typeof detail === "string" && detail !== english[prefix + code] ? t("error.detail", { sentence, detail }) : sentence;
}

// simplified characters in simplified Chinese (events, voice and the cards' characters); traditional otherwise
function glyphOf(code) {
  const c = names.cards[code] || {};
  return (pageLang() === "zh" ? c.glyph_zh : c.glyph) || code;
}
function chipText(code) { return code === "J" ? "J" : code[0] + glyphOf(code); }
function cardName(code) { const c = names.cards[code] || {}; return c[pageLang()] || c.en || code; }
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
// The voice is one this device has for the page's language (getVoices, which may fill in late,
// with voiceschanged); where it has none the page says so once and the events stay words on screen.
// Each language's voices, best first: a tag with a region is that region's voice, a bare one any of its
// regions. Cantonese takes only a Cantonese voice: a Mandarin one would read its words in another language.
const VOICE = {
  en: ["en-US", "en"], zh: ["zh-CN", "zh-TW", "cmn"], "zh-Hant": ["zh-TW", "zh-CN", "cmn"],
  "zh-HK": ["zh-HK", "yue"], vi: ["vi-VN", "vi"],
};
let voices = [];
const voiceMissing = new Set();
function loadVoices() { voices = window.speechSynthesis ? speechSynthesis.getVoices() : []; }
if (window.speechSynthesis) { loadVoices(); speechSynthesis.addEventListener("voiceschanged", loadVoices); }
function voiceFor(lang) {
  const tag = (v) => v.lang.toLowerCase().replace("_", "-");
  for (const want of (VOICE[lang] || VOICE.en).map((w) => w.toLowerCase())) {
    const voice = voices.find((v) => tag(v) === want || tag(v).startsWith(want + "-"));
    if (voice) return voice;
  }
  return null;
}
function say(text) {
  if (!$("speak").checked || !text || !window.speechSynthesis) return;
  const lang = pageLang(), voice = voiceFor(lang);
  if (!voice) {
    if (!voiceMissing.has(lang)) {
      voiceMissing.add(lang);
      const note = $("voicenote");
      showKey(note, "live.noVoice", { language: $("lang").selectedOptions[0].textContent });
      note.hidden = false;
    }
    return;
  }
  $("voicenote").hidden = true;
  const u = new SpeechSynthesisUtterance(text);
  u.voice = voice;
  u.lang = voice.lang;
  speechSynthesis.speak(u);
}

// --- live --------------------------------------------------------------------------------------
function cameraBlocked() {
  if (window.isSecureContext && navigator.mediaDevices) return null;
  return "live.secure";
}
$("start").addEventListener("click", async () => {
  const blocked = cameraBlocked();
  if (blocked) { showKey("status", blocked); return; }
  if (!stopped) return;  // one stream per page
  stopped = false;
  $("start").disabled = true; $("stop").disabled = false;
  try {
    const stream = await navigator.mediaDevices.getUserMedia({ video: { width: 1280, height: 720, facingMode: "environment" }, audio: false });
    $("video").srcObject = stream;
    await $("video").play();
    connect();
  } catch (e) {
    stopCamera("live.off");
    showKey("status", "live.unavailable", { reason: e.message });
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
  showKey("status", message);
}
$("stop").addEventListener("click", () => stopCamera("live.stopped"));
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
  ws.onopen = () => { busy = false; retry = 1000; clearLive(); showKey("status", "live.live"); sendFrame(); };
  ws.onclose = () => {  // a restarted server: reconnect, then frames flow again
    busy = false;
    if (stopped) return;
    showKey("status", "live.retry", { seconds: Math.round(retry / 1000) });
    setTimeout(connect, retry);
    retry = Math.min(retry * 2, 15000);
  };
  ws.onmessage = (m) => {
    const msg = JSON.parse(m.data);
    busy = false;
    if (msg.type === "error") { show("status", () => detailText(msg)); return; }
    if (msg.type === "busy") { clearOutlines(); showKey("status", "live.busy"); return; }
    frames += 1;
    const cards = msg.detections.length, dropped = msg.dropped || 0;
    show("status", () => t("live.status", { ms: msg.ms, cards }) + (dropped ? t("live.skipped", { n: dropped }) : "")
      + (dropped > frames / 10 ? t("live.behind") : ""));
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
    showKey("status", "live.noAnswer");
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
  const plates = [];  // labels already drawn: a label never covers another (a fan's cards lie close)
  const overlaps = (a) => plates.some((b) => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h);
  for (const d of msg.detections) {
    const col = COLOURS[d.card === "J" ? "J" : d.card[0]];
    g.strokeStyle = col;
    g.beginPath();
    d.polygon.forEach(([x, y], i) => (i ? g.lineTo(x, y) : g.moveTo(x, y)));
    g.closePath(); g.stroke();
    const label = d.card === "J" ? "J" : glyphOf(d.card);  // the card's character: short, and no code to learn
    const w = g.measureText(label).width;
    // the plate at the card's top corner, or at another corner where that one is taken; none if all are
    const spot = d.polygon.map(([x, y]) => ({ x: x - 2, y: y - px - 4, w: w + 4, h: px + 2 }))
      .sort((a, b) => a.y - b.y).find((r) => !overlaps(r));
    if (!spot) continue;
    plates.push(spot);
    g.fillStyle = "rgba(0,0,0,0.7)"; g.fillRect(spot.x, spot.y, spot.w, spot.h);  // a dark plate under the label
    g.fillStyle = col; g.fillText(label, spot.x + 2, spot.y + px + 1);
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
    const n = $("removedlist").children.length;
    showKey("removedcount", "live.removed", { n });
    $("removed").hidden = false;
    return;
  }
  $("events").prepend(li);
  if (["card_shown", "card_corrected", "meld", "win_claimed", "advice"].includes(ev.type)) say(text);
  if (ev.type === "win_claimed") showWin(ev);
}

// --- a win seen on the table, recorded in the ledger with one tap --------------------------------
// the players are written once, in the seats' turn order (SEAT_ORDER), and remembered; the
// winner's seat picks the winner; the ledger keeps one deal per win however often it is sent
const SEAT_ORDER = ["S", "E", "N", "W"];
const PLAYERS_KEY = "sisepai-seat-players";
let seenWin = null;
function winPlayers() { return $("winplayers").value.split(",").map((s) => s.trim()).filter(Boolean); }
function fillWinPickers() {
  const players = winPlayers(), winner = $("winwinner"), discarder = $("windiscarder");
  const atSeat = seenWin ? players[SEAT_ORDER.indexOf(seenWin.seat)] : undefined;
  winner.replaceChildren(...players.map((p) => new Option(p, p, false, p === atSeat)));
  const nobody = new Option("", "");
  show(nobody, () => t("score.nobody"));
  discarder.replaceChildren(nobody, ...players.map((p) => new Option(p, p)));
}
function showWin(ev) {
  seenWin = ev;
  const seat = (names.seats[pageLang()] || names.seats.en || {})[ev.seat] || ev.seat;
  show("wintitle", () => t("live.winSeen", { seat, points: ev.points }));
  $("wincards").replaceChildren(...ev.cards.map((c) => chip(c)));
  if (!$("winplayers").value) $("winplayers").value = localStorage.getItem(PLAYERS_KEY) || "";
  fillWinPickers();
  $("winout").textContent = "";
  $("winseen").hidden = false;
}
$("winplayers").addEventListener("input", fillWinPickers);
$("winseen").addEventListener("submit", async (e) => {
  e.preventDefault();
  const players = winPlayers();
  if (!seenWin || players.length < 2 || !$("winwinner").value) { showKey("winout", "live.winNeedsPlayers"); return; }
  localStorage.setItem(PLAYERS_KEY, players.join(", "));
  const body = { players, winner: $("winwinner").value, discarder: $("windiscarder").value || null,
                 points: seenWin.points, cards: seenWin.cards.join(" "), rules: $("rules").value, table: currentTable() };
  const r = await write("/api/ledger/deals", { headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  const j = await r.json();
  show("winout", () => (!r.ok ? detailText(j) : t(j.repeat ? "live.winAgain" : "live.winRecorded",
                                                  { id: j.id, table: j.table, winner: body.winner, points: j.points })));
  if (r.ok) loadLedger();
});
function clearOutlines() {  // outlines of a frame that is no longer the picture
  const canvas = $("overlay");
  canvas.getContext("2d").clearRect(0, 0, canvas.width, canvas.height);
}
function clearLive() {  // a new connection is a new session: its table event starts the log afresh
  $("events").replaceChildren(); $("removedlist").replaceChildren(); $("removed").hidden = true;
  $("cards").replaceChildren();
}

// --- my hand -----------------------------------------------------------------------------------
// a picker of the 29 kinds: each with its character and suit colour, how many are taken and the
// deck's copy limit; a kind at its limit cannot be taken again
function limitOf(code) { return code === "J" ? names.jokers : names.copies; }
function pickerButton(code, taken, onPick, full) {
  const b = chip(code, true);
  const n = taken(code), limit = limitOf(code);
  const count = document.createElement("span");
  count.className = "count";
  count.textContent = n ? `${n}/${limit}` : "";
  b.append(count);
  b.disabled = n >= limit || Boolean(full);
  const label = () => (n >= limit ? t("picker.full", { card: cardName(code), limit }) : t("picker.copies", { card: cardName(code), n, limit }));
  b.title = label(); b.setAttribute("aria-label", label());
  b.addEventListener("click", () => onPick(code));
  return b;
}
// a picker stops when the hand is whole (`full`: the sentence that says why, shown under it)
function fillPicker(box, taken, onPick, full = "") {
  const buttons = names.kinds.map((code) => pickerButton(code, taken, onPick, full));
  if (!full) { box.replaceChildren(...buttons); return; }
  const why = document.createElement("p");
  why.className = "note pickerfull"; why.setAttribute("role", "status");
  showKey(why, full, { max: names.hand_size });
  box.replaceChildren(...buttons, why);
}
const countIn = (cards) => (code) => cards.filter((c) => c === code).length;
function renderPicker() {
  fillPicker($("picker"), countIn(hand), (code) => { hand.push(code); renderHand(); },
             hand.length >= names.hand_size ? "picker.handFull" : "");
}
whenNames.then(renderPicker);
function renderHand() {
  const box = $("myhand");
  box.replaceChildren();
  hand.forEach((c, i) => {
    const ch = chip(c, true);
    ch.title = t("hand.remove", { card: cardName(c) });
    ch.addEventListener("click", () => { hand.splice(i, 1); renderHand(); });
    box.appendChild(ch);
  });
  renderPicker();
  if (ws && ws.readyState === 1) ws.send(JSON.stringify({ hand: hand.join(" ") }));
}
document.addEventListener("languagechange", () => { if (names.kinds.length) renderHand(); });
$("clearhand").addEventListener("click", () => { hand = []; renderHand(); });
// the shown card: tapped from a picker of its own, or none
let shownCard = null;
function renderShown() {
  const b = $("shownbtn");
  b.className = "chip pickone " + (shownCard ? (shownCard === "J" ? "J" : shownCard[0]) : "");
  show(b, () => (shownCard ? chipText(shownCard) : t("hand.shownNone")));
  b.title = shownCard ? cardName(shownCard) : t("hand.shownNone");
}
$("shownbtn").addEventListener("click", () => {
  const p = $("fixpicker").cloneNode(false);
  p.id = "shownpicker"; p.hidden = false;
  fillPicker(p, () => 0, (code) => { shownCard = code; p.remove(); renderShown(); });
  const none = document.createElement("button"); none.type = "button"; none.className = "cancel";
  showKey(none, "hand.shownNone");
  none.addEventListener("click", () => { shownCard = null; p.remove(); renderShown(); });
  p.append(none);
  $("shownpicker")?.remove();
  $("shownbtn").closest(".controls").after(p);
  p.querySelector("button").focus();
});
whenNames.then(renderShown);
$("advise").addEventListener("click", async () => {
  const body = { cards: hand.join(" "), shown: shownCard, relation: $("relation").value };
  const r = await fetch("/api/advise", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  const j = await r.json();
  if (!r.ok) { show("advice", () => detailText(j)); return; }
  show("advice", () => {
    const many = (cards) => cards.map(cardName).join(", ");
    const claim = (c) => claimName(c.claim);
    let out = j.distance === 0 ? t("hand.wins") : t("hand.away", { n: j.distance });
    out += "\n" + t("hand.waiting", { cards: j.waits.map((w) => t("hand.unseen", { card: cardName(w.card), n: w.unseen })).join(", ") || t("hand.waitingNothing") });
    if (j.claims.length) out += "\n" + t("hand.claims", { claims: j.claims.map((c) => t("hand.claimWith", { claim: claim(c), cards: many(c.meld) })).join("; ") });
    if (j.best && j.best.claim) out += "\n" + t("hand.best", { claim: claim(j.best.claim), cards: many(j.best.claim.meld) }) + (j.best.wins ? t("hand.bestWins", { points: j.best.points }) : "");
    if (j.discard) out += "\n" + t("hand.discard", { card: cardName(j.discard.card) });
    return out;
  });
});
function claimName(kind) { return ((names.claims || {})[pageLang()] || {})[kind] || ((names.claims || {}).en || {})[kind] || kind; }

// --- score -------------------------------------------------------------------------------------
const RULES_LINE = { seesek: "score.rulesSeesek", tusac: "score.rulesTusac" };
function showRulesLine() { show("rulesline", () => (RULES_LINE[$("rules").value] ? t(RULES_LINE[$("rules").value]) : "")); }
$("rules").addEventListener("change", showRulesLine);
showRulesLine();
// the hand to score: tapped from the picker (with counts and copy limits) or typed as codes
function typedCards() { return $("scorecards").value.split(/[\s,]+/).filter(Boolean).map((c) => c.toUpperCase()); }
function renderScorePicker() {
  fillPicker($("scorepicker"), countIn(typedCards()), (code) => {
    $("scorecards").value = [...typedCards(), code].join(" ");
    $("scorecards").dispatchEvent(new Event("input", { bubbles: true }));
  }, typedCards().length >= names.hand_size ? "picker.winFull" : "");
}
$("scorecards").addEventListener("input", () => { if (names.kinds.length) renderScorePicker(); });
whenNames.then(renderScorePicker);
document.addEventListener("languagechange", () => { if (names.kinds.length) renderScorePicker(); });
$("scorebtn").addEventListener("click", async () => {
  const r = await fetch("/api/score", { method: "POST", headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ cards: $("scorecards").value, rules: $("rules").value }) });
  const j = await r.json();
  show("scoreout", () => (r.ok ? (j.winning ? t("score.win", { points: j.points }) + "\n" + j.melds.map((m) => m.map(cardName).join(", ")).join("\n") : t("score.noWin")) : detailText(j)));
});
$("photo").addEventListener("change", async () => {
  const f = $("photo").files[0];
  if (!f) return;
  const fd = new FormData(); fd.append("file", f);
  showKey("scoreout", "score.reading");
  const r = await fetch("/api/score-image?rules=" + encodeURIComponent($("rules").value) + deckParam(), { method: "POST", body: fd });
  const j = await r.json();
  if (!r.ok) { show("scoreout", () => detailText(j)); return; }
  confirmed = { cards: j.cards.slice(), doubt: new Set(j.unsure.map((u) => u.index)), alternatives: {} };
  for (const u of j.unsure) confirmed.alternatives[u.index] = u.alternatives;
  show("confirmnote", () => (j.unsure.length ? t("score.checkDoubts", { n: j.unsure.length }) : t("score.tapToFix")));
  show("scoreout", () => (j.runner_up ? t("score.alsoPossible", { change: alsoPossible(j.cards, j.runner_up.cards), points: j.runner_up.points }) : ""));
  $("confirm").hidden = false;
  rescore();
});

function alsoPossible(best, other) {  // what the other reading changes, in card names
  const left = other.slice(), gone = [];
  for (const c of best) { const k = left.indexOf(c); if (k >= 0) left.splice(k, 1); else gone.push(c); }
  if (!left.length && !gone.length) return t("score.sameCards");
  return gone.map((c, i) => t("score.instead", { card: cardName(left[i] || "-"), was: cardName(c) })).join(", ")
    + left.slice(gone.length).map((c) => t("score.asWell", { card: cardName(c) })).join("");
}

// --- confirm a photographed hand ---------------------------------------------------------------
let confirmed = null, picking = null;  // picking: a card's index, or -1 to add one
async function rescore() {
  const r = await fetch("/api/score", { method: "POST", headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ cards: confirmed.cards.join(" ") || "-", rules: $("rules").value }) });
  const j = await r.json();
  confirmed.points = r.ok && j.winning ? j.points : null;
  const n = confirmed.cards.length;
  show("confirmscore", () => (!r.ok ? detailText(j) : j.winning ? t("score.confirmWin", { points: j.points }) : t("score.confirmNoWin", { n })));
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
      if (confirmed.doubt.has(index)) { c.classList.add("doubt"); c.setAttribute("aria-label", t("score.checkCard", { card: cardName(code) })); }
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
    const rm = document.createElement("button"); rm.type = "button"; rm.className = "remove"; showKey(rm, "score.remove");
    rm.addEventListener("click", () => choose(null));
    p.appendChild(rm);
  }
  const cancel = document.createElement("button"); cancel.type = "button"; cancel.className = "cancel"; showKey(cancel, "score.cancel");
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
  if (confirmed.points === null) { showKey("scoreout", "score.fixFirst"); return; }
  const r = await write("/api/ledger/deals", { headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  const j = await r.json();
  show("scoreout", () => (!r.ok ? detailText(j) : t(j.repeat ? "live.winAgain" : "score.recorded",
                                                    { id: j.id, table: j.table, winner: body.winner, points: j.points })));
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
  if (!r.ok) { const j = await r.json(); show("ledgerout", () => detailText(j)); return; }
  $("newtable").value = "";
  const opened = (await r.json()).name || name;
  await loadTables(opened);
  $("tablechoice").dispatchEvent(new Event("change"));
  showKey("tablestatus", "ledger.opened", { name: opened });
});
$("manageaction").addEventListener("change", () => { $("manageotherlabel").hidden = ["retire", "delete"].includes($("manageaction").value); });
$("manageform").addEventListener("submit", async (e) => {  // rename, merge, retire or delete a player or a table
  e.preventDefault();
  const kind = $("managekind").value, action = $("manageaction").value;
  const body = { name: $("managename").value.trim() };
  if (action === "rename") body.to = $("manageother").value.trim();
  if (action === "merge") body.into = $("manageother").value.trim();
  const url = (kind === "player" ? "/api/ledger/players/" : "/api/tables/") + action;
  const r = await write(url, { headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  const j = await r.json();
  if (!r.ok) { show("ledgerout", () => detailText(j)); return; }
  $("managename").value = ""; $("manageother").value = "";
  if (kind === "table") await loadTables(action === "rename" ? j.to : action === "merge" ? j.into : undefined);
  await loadLedger();
  const key = { rename: "ledger.renamed", merge: "ledger.merged", retire: "ledger.retiredOne", delete: "ledger.deletedOne" }[action];
  show("ledgerout", () => t(key, j));
});
async function loadLedger() {
  const r = await fetch("/api/ledger" + tableQuery());
  const j = await r.json();
  if (!r.ok) { show("ledgerout", () => detailText(j)); return; }
  rendered.delete($("ledgerout"));
  lastDeal = j.deals.length ? j.deals[j.deals.length - 1] : null;
  const row = (cells, tag) => {
    const tr = document.createElement("tr");
    for (const c of cells) {  // each name isolated (<bdi>): a right-to-left name cannot turn the row around
      const td = document.createElement(tag), b = document.createElement("bdi");
      b.textContent = String(c); td.appendChild(b); tr.appendChild(td);
    }
    return tr;
  };
  const more = (shown, count) => (count > shown ? [row([t("ledger.more", { n: count - shown }), ""], "td")] : []);
  $("totals").replaceChildren(row([t("ledger.at", { table: j.table }), t("ledger.total")], "th"),
    ...Object.entries(j.totals).map(([p, v]) => row([p, v], "td")), ...more(Object.keys(j.totals).length, j.players_count));
  $("clubtotals").replaceChildren(row([t("ledger.club"), t("ledger.total")], "th"),
    ...Object.entries(j.club_totals).map(([p, v]) => row([p, v], "td")), ...more(Object.keys(j.club_totals).length, j.club_players_count));
  $("exportcsv").href = "/api/ledger/export.csv" + tableQuery();
  const bdi = (text) => { const b = document.createElement("bdi"); b.textContent = text; return b; };
  $("ledgerout").replaceChildren(...j.deals.slice(-10).flatMap((d, k) => {
    const parts = [k ? "\n" : "", `#${d.id} `, bdi(d.winner || t("ledger.draw")), ` ${d.points}: `];
    d.payments.forEach((p, i) => parts.push(i ? ", " : "", bdi(p.payer), "→", bdi(p.payee), ` ${p.amount}`));
    return parts;
  }));
}
$("dealform").addEventListener("submit", async (e) => {
  e.preventDefault();
  const body = { players: $("players").value.split(",").map((s) => s.trim()).filter(Boolean), winner: $("winner").value || null,
                 points: +$("points").value, discarder: $("discarder").value || null, table: currentTable() };
  const r = await write("/api/ledger/deals", { headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  if (!r.ok) { const j = await r.json(); show("ledgerout", () => detailText(j)); return; }
  loadLedger();
});
document.addEventListener("languagechange", () => { if ($("ledger").classList.contains("active")) loadLedger(); });
let lastDeal = null;
$("undo").addEventListener("click", async () => {
  if (!lastDeal) { showKey("ledgerout", "ledger.nothingToUndo", { table: currentTable() }); return; }
  const what = lastDeal.winner ? t("ledger.undoWin", { winner: lastDeal.winner, points: lastDeal.points }) : t("ledger.undoDraw");
  if (!confirm(t("ledger.undoAsk", { table: currentTable(), id: lastDeal.id, what }))) return;
  // the deal the user confirmed, by id: if another client recorded one since, nothing is undone (409)
  const r = await write("/api/ledger/undo" + tableQuery() + "&deal=" + encodeURIComponent(lastDeal.id));
  if (!r.ok) {
    const j = await r.json();
    show("ledgerout", () => t("ledger.undoFailed", { reason: detailText(j) }));
    if (r.status === 409) loadLedger();  // show the deal that is last now
    return;
  }
  loadLedger();
});
loadTables();

// --- my deck -----------------------------------------------------------------------------------
function deckParam() { return $("deckchoice").value ? "&deck=" + encodeURIComponent($("deckchoice").value) : ""; }
// the selector follows the deck enrolled last, here or with `sisepai deck add` (looked for again
// whenever the page comes back into view); the server's own default deck is the first choice
let newestDeck;  // "name@created" of the newest deck the selector has followed; undefined before the first load
async function loadDecks(select) {
  const j = await (await fetch("/api/decks")).json();
  const sel = $("deckchoice");
  const newest = j.decks.reduce((a, d) => (!a || (d.created || "") > (a.created || "") ? d : a), null);
  const mark = newest ? `${newest.name}@${newest.created}` : null;
  const first = newestDeck === undefined, fresh = mark !== newestDeck;
  newestDeck = mark;
  const before = sel.value;  // read before the options are laid again, which resets it
  const keep = select || (first && j.default) || (fresh && newest ? newest.name : before) || "";
  while (sel.options.length > 1) sel.remove(1);
  for (const d of j.decks) sel.add(new Option(d.name, d.name));
  sel.value = j.decks.some((d) => d.name === keep) ? keep : "";
  if (!first && sel.value !== before) sel.dispatchEvent(new Event("change"));
  return j.decks;
}
document.addEventListener("visibilitychange", () => { if (document.visibilityState === "visible") loadDecks().catch(() => {}); });
function readyText(name, deck) {  // a new deck, with its whole-scene check when it has one
  const c = deck && deck.check;
  if (!c) return t("deck.ready", { name });
  const text = t("deck.readyChecked", { name, f1: c.f1.toFixed(2), before: c.f1_before.toFixed(2),
                                        weakest: t("layout." + c.weakest), weakestF1: c.layouts[c.weakest].toFixed(2) });
  if (c.camera2_f1 == null) return text;  // read through the second camera only where it was there
  return text + t("deck.camera2", { f1: c.camera2_f1.toFixed(2), before: c.camera2_f1_before.toFixed(2) });
}
loadDecks();
function gridHelp() {  // the grid to lay, in the page's characters (simplified in simplified Chinese)
  const rows = [...names.suits.map((s) => names.ranks.map((r) => s + r)), ["J"]];
  $("gridhelp").replaceChildren(...rows.map((row) => {
    const tr = document.createElement("tr");
    for (const code of row) { const td = document.createElement("td"); td.className = code === "J" ? "J" : code[0]; td.textContent = chipText(code); tr.appendChild(td); }
    return tr;
  }));
}
whenNames.then(gridHelp);
document.addEventListener("languagechange", () => { if (names.suits.length) gridHelp(); });
let gridShots = [], draft = null;
$("deckcamera").addEventListener("click", async () => {  // the preview sits in this tab, so a photo is never blind
  const v = $("deckvideo");
  if (v.srcObject) { v.srcObject.getTracks().forEach((t) => t.stop()); v.srcObject = null; $("deckview").hidden = true;
    $("snap").disabled = true; $("deckcamera").dataset.i18n = "deck.start"; $("deckcamera").textContent = t("deck.start"); return; }
  const blocked = cameraBlocked();
  if (blocked) { show("deckstatus", () => t("deck.orPhotos", { reason: t(blocked) })); return; }
  try { v.srcObject = await navigator.mediaDevices.getUserMedia({ video: { width: 1920, height: 1080, facingMode: "environment" } }); await v.play(); }
  catch (e) { showKey("deckstatus", "live.unavailable", { reason: e.message }); return; }
  $("deckview").hidden = false; $("snap").disabled = false; $("deckcamera").dataset.i18n = "deck.stopCamera"; $("deckcamera").textContent = t("deck.stopCamera");
});
$("snap").addEventListener("click", async () => {
  const v = $("deckvideo");
  if (!v.srcObject || !v.videoWidth) { showKey("deckstatus", "deck.startFirst"); return; }
  const c = document.createElement("canvas");
  c.width = v.videoWidth; c.height = v.videoHeight;
  c.getContext("2d").drawImage(v, 0, 0);
  gridShots = [await new Promise((ok) => c.toBlob(ok, "image/jpeg", 0.92))];  // each photo is a new try
  showKey("deckstatus", "deck.taken");
});
$("gridphotos").addEventListener("change", () => { gridShots = [...$("gridphotos").files]; showKey("deckstatus", "deck.chosen", { n: gridShots.length }); });
$("cutbtn").addEventListener("click", async () => {
  if (!gridShots.length) { showKey("deckstatus", "deck.needPhoto"); return; }
  const fd = new FormData();
  gridShots.forEach((b, i) => fd.append("files", b, `grid${i}.jpg`));
  showKey("deckstatus", "deck.cutting");
  $("adapt").disabled = true;
  const r = await write("/api/decks/cut", { body: fd });
  const j = await r.json();
  $("faces").replaceChildren();
  if (!r.ok) { show("deckstatus", () => (typeof j.detail === "string" ? detailText(j) : t("deck.cutFailed"))); gridShots = []; return; }
  draft = j.draft;
  for (const f of j.faces) {
    const fig = document.createElement("figure");
    const img = document.createElement("img"); img.src = f.image; img.alt = f.code;
    const cap = document.createElement("figcaption"); cap.appendChild(chip(f.code));
    fig.append(img, cap); $("faces").appendChild(fig);
  }
  const notes = () => (j.note_codes || []).map((n, i) => codeText("note.", n.code, n.params, j.notes[i]).replace(/\.$/, ""));
  show("deckstatus", () => (j.notes && j.notes.length ? t("deck.lookAgain", { notes: notes().join("; ") }) : "") + t("deck.check"));
  $("adapt").disabled = false;
});
$("adapt").addEventListener("click", async () => {
  const name = $("deckname").value.trim();
  if (!/^[A-Za-z0-9_-]{1,40}$/.test(name)) { showKey("deckstatus", "deck.badName"); return; }
  const start = (replace) => write("/api/decks", { headers: { "Content-Type": "application/json" },
                                                   body: JSON.stringify({ draft, name, replace }) });
  let r = await start(false);
  let j = await r.json();
  if (r.status === 409 && j.code === "deck_exists") {
    if (!confirm(t("deck.replace", { name }))) {
      showKey("deckstatus", "deck.kept");
      return;
    }
    r = await start(true);
    j = await r.json();
  }
  if (!r.ok) { show("deckstatus", () => (typeof j.detail === "string" ? detailText(j) : t("deck.startFailed"))); return; }
  $("adapt").disabled = true;
  followJob(j.job);
});
let enrolling = null;  // the job being followed, which Cancel stops
$("cancelenrol").addEventListener("click", async () => {
  if (!enrolling) return;
  $("cancelenrol").disabled = true;
  const r = await write("/api/decks/jobs/" + encodeURIComponent(enrolling), { method: "DELETE" });
  if (!r.ok) { $("cancelenrol").disabled = false; const j = await r.json(); show("deckstatus", () => detailText(j)); }
});
function timeLeft(seconds) {  // from the pace of the steps done
  if (seconds === null || seconds === undefined) return "";
  return seconds < 90 ? t("deck.secondsLeft", { n: Math.max(5, Math.round(seconds / 5) * 5) }) : t("deck.minutesLeft", { n: Math.round(seconds / 60) });
}
function stepText(message) {  // the enrolment's own words for its step, in the page's language
  const m = /^(scenes|adapting) (\d+)\/(\d+)/.exec(message || "");
  if (m) return t(m[1] === "scenes" ? "deck.stepScenes" : "deck.stepAdapt", { k: m[2], n: m[3] });
  if (/^(detector scenes|adapting the detector)\b/.test(message || "")) return t("deck.stepDetector");
  return { starting: t("deck.stepStarting"), saved: t("deck.stepSaved"), "checking on whole scenes": t("deck.stepChecking") }[message] ?? message;
}
function followJob(job) {  // an enrolment's progress, also after a reload of the page
  enrolling = job;
  $("cancelenrol").hidden = false; $("cancelenrol").disabled = false;
  const poll = async () => {
    const r = await fetch("/api/decks/jobs/" + encodeURIComponent(job));
    if (!r.ok) return;
    const s = await r.json();
    $("deckprogress").value = s.fraction || 0;
    show("deckstatus", () => (s.cancelled ? t("deck.cancelled") : s.error ? (pageLang() === "en" ? t("deck.failed", { reason: s.error }) : codeText("err.", s.code, {}, s.error))
      : s.done ? t("deck.ready", { name: s.name }) : stepText(s.message) + timeLeft(s.seconds_left)));
    if (s.done || s.error) {
      enrolling = null;
      $("cancelenrol").hidden = true;
      $("adapt").disabled = false;
      if (s.done) {
        const decks = await loadDecks(s.name);
        show("deckstatus", () => readyText(s.name, decks.find((d) => d.name === s.name)));
      }
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
    if (running) { showKey("deckstatus", "deck.enrolling", { name: running.name }); followJob(running.job); }
  } catch (e) { /* the page works without it */ }
})();

// --- Gang of Four ------------------------------------------------------------------------------
// the Gang of Four picker: each card with its colour, counted against the copies its deck holds
function gofCards() { return $("gofhand").value.toLowerCase().split(/[\s,]+/).filter(Boolean); }
function renderGofPicker() {
  const taken = gofCards();
  $("gofpicker").replaceChildren(...Object.entries(names.gof_copies || {}).map(([code, limit]) => {
    const b = document.createElement("button"); b.type = "button";
    b.className = "gofcard " + (code[0] === "g" ? "G" : code[0] === "y" ? "Y" : code[0] === "r" ? "R" : "J");
    const n = taken.filter((c) => c === code).length;
    b.textContent = code;
    const count = document.createElement("span"); count.className = "count"; count.textContent = n ? `${n}/${limit}` : "";
    b.append(count);
    b.disabled = n >= limit;
    b.title = n >= limit ? t("picker.full", { card: code, limit }) : t("picker.copies", { card: code, n, limit });
    b.addEventListener("click", () => {
      $("gofhand").value = [...gofCards(), code].join(" ");
      $("gofhand").dispatchEvent(new Event("input", { bubbles: true }));
    });
    return b;
  }));
}
$("gofhand").addEventListener("input", () => { if (names.gof_copies) renderGofPicker(); });
whenNames.then(renderGofPicker);
document.addEventListener("languagechange", () => { if (names.gof_copies) renderGofPicker(); });
async function gofPost(url, body) {
  const r = await fetch(url, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  return [r.ok, await r.json()];
}
$("gofadvise").addEventListener("click", async () => {
  const body = { hand: $("gofhand").value, on: $("gofon").value.trim() || null };
  const [ok, advice] = await gofPost("/api/gof/advise", body);
  if (!ok) { show("gofout", () => detailText(advice)); return; }
  const [, legal] = await gofPost("/api/gof/legal", body);
  const kind = (k) => t("gofKind." + k);
  show("gofout", () => (advice.play ? t("gof.play", { cards: advice.play.join(" "), kind: kind(advice.kind) }) : t("gof.pass"))
    + (advice.reason && pageLang() === "en" ? `: ${advice.reason}` : "")
    + "\n" + t("gof.legal", { n: (legal.plays || []).length }) + (legal.can_pass ? t("gof.orPass") : "") + ": "
    + ((legal.plays || []).slice(0, 12).map((p) => `${p.cards.join(" ")} (${kind(p.kind)})`).join(", ") || t("gof.none"))
    + ((legal.plays || []).length > 12 ? ", …" : ""));
});
$("gofclear").addEventListener("click", () => { $("gofhand").value = ""; $("gofon").value = ""; rendered.delete($("gofout")); $("gofout").textContent = ""; });
$("gofscore").addEventListener("click", async () => {
  const left = $("gofleft").value.split(/[ ,]+/).filter(Boolean).map(Number);
  const [ok, j] = await gofPost("/api/gof/score", { left });
  // penalty points: the fewest win; the player with no cards left has none
  show("gofscoreout", () => (ok ? j.scores.map((s, i) => t("gof.scoreLine", { player: i + 1, n: left[i],
    penalty: s === 0 ? t("gof.noPenalty") : t("gof.penalty", { n: s }) })).join("\n") : detailText(j)));
});

// --- a result or an error belongs to the input it answered: typing anew clears it ---------------
const CLEARS = { hand: ["advice"], score: ["scoreout"], ledger: ["ledgerout"], gof: ["gofout"] };
Object.entries(CLEARS).forEach(([section, outs]) => {
  $(section).addEventListener("input", (e) => {
    if (!e.target.matches("input, textarea, select")) return;
    const cleared = e.target.id === "gofleft" ? ["gofscoreout"] : outs;
    cleared.forEach((id) => { rendered.delete($(id)); $(id).textContent = ""; });
  });
});
