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
  $("recent-title").textContent = W.recent;
  $("past-title").textContent = W.past;
  const live = data.live, table = live.table;
  $("scores-title").textContent = table ? words(table).scores : W.score_sheet;
  $("no-game").hidden = !!table;
  $("no-game").textContent = W.no_game;
  renderTable(table, live.prompt);
  renderSheet($("sheet"), table);
  renderEnd(table, data.games);
  renderRecent(live.recent);
  renderPast(data.games, table ? table.game : null);
}

// Each game's words on the page (the sheet's title, a period's heading, who wins).
const words = (game) => W.kinds[game.kind];

// Each game's table, by the kind the snapshot names (companion/web/games/<kind>.py).
const BOARDS = {noah: noahBoard, complot: complotBoard};

function renderTable(table, prompt) {
  const board = $("board");
  board.replaceChildren();
  $("turn").textContent = table && table.turn && !table.finished ? fill(W.turn, {player: table.turn}) : "";
  $("prompt").textContent = prompt || "";
  if (table) board.append(...BOARDS[table.kind](table));
}

function noahBoard(table) {
  const list = el("ol", {id: "ferries", class: "ferries"});
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
  return [list];
}

// Complot: the manche, each player (still in, out with the points laid down, passing a
// turn) with the score towards the target, why the manche ended, the last claims judged.
function complotBoard(table) {
  const own = words(table);
  const seats = el("ul", {id: "seats", class: "seats"});
  for (const seat of table.seats) {
    const bar = el("progress", {max: String(table.target), value: String(Math.min(seat.score, table.target))});
    seats.append(el("li", {class: `seat ${seat.state}`},
      el("span", {class: "seat-name", text: seat.name}),
      el("span", {class: "seat-status", text: [seat.cards, seat.status].filter(Boolean).join(" · ")}),
      el("span", {class: "seat-score", text: fill(own.to_target, {score: seat.score, target: table.target})}),
      bar));
  }
  const parts = [el("p", {class: "manche", text: table.header}), seats];
  if (table.defausse) parts.push(defausseItem(table.defausse));
  if (table.pending) parts.push(el("p", {class: "pending", text: table.pending}));
  if (table.manche_over) parts.push(el("p", {class: "manche-over", text: table.manche_over}));
  if (table.claims.length) {
    parts.push(el("h3", {text: own.claims}));
    const claims = el("ul", {id: "claims", class: "claims"});
    for (const claim of table.claims) claims.append(claimItem(claim, own));
    parts.push(claims);
  }
  return parts;
}

// The top of the «défausse»: its caption, and the card when the table showed it.
function defausseItem(defausse) {
  const top = el("div", {id: "defausse", class: "defausse"},
    el("p", {class: "defausse-caption", text: defausse.caption}));
  if (defausse.card) top.append(cardItem(defausse.card));
  return top;
}

function cardItem(card) {
  return el("div", {class: `card cat-${card.category || "unknown"}`},
    el("span", {class: "card-cat", text: card.name}),
    el("span", {class: "card-name", text: card.first_name}));
}

function claimItem(claim, own) {
  const verdict = claim.accepted ? own.accepted : own.wrong;
  const cards = el("ul", {class: "cards"});
  for (const card of claim.cards) {
    cards.append(el("li", {class: `card cat-${card.category || "unknown"}`},
      el("span", {class: "card-cat", text: card.name}),
      el("span", {class: "card-name", text: card.first_name})));
  }
  return el("li", {class: "claim " + (claim.accepted ? "accepted" : "wrong")},
    el("p", {class: "claim-head"}, el("strong", {text: claim.player}), ` · ${verdict}`),
    el("p", {class: "claim-said", text: claim.said}), cards);
}

function renderSheet(sheet, game) {
  sheet.replaceChildren();
  if (!game) return;
  const own = words(game);
  const head = el("tr", {}, el("th", {scope: "col", text: ""}));
  game.rounds.forEach((_, i) => head.append(el("th", {scope: "col"},
    el("abbr", {title: fill(own.round, {n: i + 1}), text: fill(own.round_short, {n: i + 1})}))));
  head.append(el("th", {scope: "col", text: W.total}));
  if (game.hand_counts && !game.finished) head.append(el("th", {scope: "col", text: W.hand_counts}));
  const body = el("tbody");
  game.players.forEach((name, seat) => {
    const row = el("tr", {class: game.finished && game.winners.includes(name) ? "winner" : ""},
      el("th", {scope: "row", text: name}));
    game.rounds.forEach((points) => row.append(el("td", {text: String(points[seat])})));
    row.append(el("td", {text: String((game.scores || [])[seat] ?? 0)}));
    if (game.hand_counts && !game.finished) row.append(el("td", {text: String(game.hand_counts[seat] ?? "")}));
    body.append(row);
  });
  sheet.append(el("thead", {}, head), body);
}

function renderEnd(table, games) {
  const over = !!(table && table.finished);
  $("end").hidden = !over;
  $("tears-note").textContent = table ? words(table).note : "";
  const downloads = $("downloads");
  downloads.replaceChildren();
  if (!table) return;
  downloads.append(el("a", {href: q(`download/${table.game}.log`), download: "", text: W.download_log}),
                   el("a", {href: q(`download/${table.game}.csv`), download: "", text: W.download_csv}));
  if (!over) return;
  $("end-title").textContent = W.finished;
  $("winners").textContent = table.end || fill(W.winners, {names: table.winners.join(", ")});
  // BG Stats takes the games whose kind makes a link (the record's list says which)
  const stored = games.find((game) => game.id === table.game);
  const link = $("bgstats");
  link.hidden = !(stored && stored.bgstats);
  link.textContent = W.bgstats;
  link.href = q(`bgstats/${table.game}`);
  $("bgstats-none").hidden = !(stored && stored.finished && !stored.bgstats);
  $("bgstats-none").textContent = W.bgstats_none;
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
    const title = words(game).title;
    const sheet = el("table");
    renderSheet(sheet, {...game, hand_counts: null});
    past.append(el("details", {},
      el("summary", {text: `${fill(W.game, {n: game.id})} · ${title} · ${game.players.join(", ")} · ${status}`}),
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
