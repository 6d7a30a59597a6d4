// The table's page: one JSON picture of the game, again after every change (server-sent
// events). Nothing is fetched from outside the table; every address carries the token.
"use strict";
const token = new URLSearchParams(location.search).get("token") || "";
const q = (path) => `${path}${path.includes("?") ? "&" : "?"}token=${encodeURIComponent(token)}`;
const $ = (id) => document.getElementById(id);
let W = {};

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (name === "text") node.textContent = value;
    else node.setAttribute(name, value);
  }
  for (const child of children) if (child) node.append(child);
  return node;
}

function fill(template, fields) {
  return template.replace(/\{(\w+)\}/g, (all, name) => (name in fields ? fields[name] : all));
}

function render(data) {
  W = data.words;
  document.documentElement.lang = data.language === "zh" ? "zh-Hant" : data.language;
  $("table-title").textContent = W.table;
  $("scores-title").textContent = W.scores;
  $("recent-title").textContent = W.recent;
  $("past-title").textContent = W.past;
  const live = data.live, table = live.table;
  $("no-game").hidden = !!table;
  $("no-game").textContent = W.no_game;
  renderTable(table, live.prompt);
  renderSheet($("sheet"), table);
  renderEnd(table);
  renderRecent(live.recent);
  renderPast(data.games, table ? table.game : null);
}

function renderTable(table, prompt) {
  const list = $("ferries");
  list.replaceChildren();
  $("turn").textContent = table && table.turn && !table.finished ? fill(W.turn, {player: table.turn}) : "";
  $("prompt").textContent = prompt || "";
  if (!table) return;
  for (const ferry of table.ferries) {
    const isNoah = table.noah === ferry.n;
    const name = el("div", {class: "ferry-name"}, fill(W.ferry, {n: ferry.n}),
      el("small", {text: fill(W.weight, {weight: ferry.weight, capacity: ferry.capacity})}));
    if (isNoah) name.append(el("span", {class: "noah-tag"},
      el("img", {src: q("pictures/noah.png"), alt: ""}), W.noah));
    const animals = el("ul", {class: "animals"});
    for (const card of ferry.cards) {
      animals.append(el("li", {class: "animal"},
        el("img", {src: q(`pictures/${card.species}.png`), alt: ""}), card.label));
    }
    if (!ferry.cards.length) animals.append(el("li", {class: "empty", text: W.empty}));
    list.append(el("li", {class: "ferry" + (isNoah ? " noah" : ""),
      "aria-label": fill(W.ferry, {n: ferry.n}) + (isNoah ? `, ${W.noah}` : "")}, name, animals));
  }
}

function renderSheet(sheet, game) {
  sheet.replaceChildren();
  if (!game) return;
  const head = el("tr", {}, el("th", {scope: "col", text: ""}));
  game.rounds.forEach((_, i) => head.append(el("th", {scope: "col"},
    el("abbr", {title: fill(W.round, {n: i + 1}), text: fill(W.round_short, {n: i + 1})}))));
  head.append(el("th", {scope: "col", text: W.total}));
  if (game.hand_counts && !game.finished) head.append(el("th", {scope: "col", text: W.hand_counts}));
  const body = el("tbody");
  game.players.forEach((name, seat) => {
    const row = el("tr", {class: game.finished && game.winners.includes(name) ? "winner" : ""},
      el("th", {scope: "row", text: name}));
    game.rounds.forEach((tears) => row.append(el("td", {text: String(tears[seat])})));
    row.append(el("td", {text: String((game.scores || [])[seat] ?? 0)}));
    if (game.hand_counts && !game.finished) row.append(el("td", {text: String(game.hand_counts[seat] ?? "")}));
    body.append(row);
  });
  sheet.append(el("thead", {}, head), body);
  $("tears-note").textContent = W.tears_note;
}

function renderEnd(table) {
  const over = !!(table && table.finished);
  $("end").hidden = !over;
  const downloads = $("downloads");
  downloads.replaceChildren();
  if (!table) return;
  downloads.append(el("a", {href: q(`download/${table.game}.log`), download: "", text: W.download_log}),
                   el("a", {href: q(`download/${table.game}.csv`), download: "", text: W.download_csv}));
  if (!over) return;
  $("end-title").textContent = W.finished;
  $("winners").textContent = fill(W.winners, {names: table.winners.join(", ")});
  const link = $("bgstats");
  link.textContent = W.bgstats;
  link.href = q(`bgstats/${table.game}`);
}

function renderRecent(recent) {
  const list = $("recent");
  list.replaceChildren();
  for (const item of recent.slice().reverse()) {
    const text = item.level === "refused" ? `${W.refused} ${item.text}` : item.text;
    list.append(el("li", {class: item.level, text}));
  }
}

function renderPast(games, current) {
  const past = $("past");
  past.replaceChildren();
  for (const game of games) {
    if (game.id === current) continue;
    const status = game.finished ? fill(W.winners, {names: game.winners.join(", ")}) : W.playing;
    const sheet = el("table");
    renderSheet(sheet, {...game, hand_counts: null});
    past.append(el("details", {},
      el("summary", {text: `${fill(W.game, {n: game.id})} · ${game.players.join(", ")} · ${status}`}),
      el("div", {class: "scroll"}, sheet),
      el("p", {class: "downloads"},
        el("a", {href: q(`download/${game.id}.log`), download: "", text: W.download_log}),
        el("a", {href: q(`download/${game.id}.csv`), download: "", text: W.download_csv}))));
  }
}

function follow() {
  const source = new EventSource(q("events"));
  source.onmessage = (event) => {
    const data = JSON.parse(event.data);
    render(data);
    document.body.dataset.version = data.version;
    $("status").textContent = W.live;
  };
  source.onerror = () => { $("status").textContent = W.offline || ""; };
}

document.addEventListener("DOMContentLoaded", follow);
