/* Kashgar in the browser: shared helpers (DOM, words in English and German, API, storage).
   Text from users and the server is only ever put in the page with textContent, never as HTML. */
"use strict";

const K = (() => {
  const RESOURCES = ["ginger", "cloves", "pepper", "anise", "cinnamon", "gold", "mules"];
  const CAPS = { ginger: 9, cloves: 9, pepper: 9, anise: 9, cinnamon: 9, gold: 9, mules: 6 };
  const RES_NAMES = {
    en: { ginger: "ginger", cloves: "cloves", pepper: "pepper", anise: "star anise", cinnamon: "cinnamon", gold: "gold", mules: "mules" },
    de: { ginger: "Ingwer", cloves: "Nelken", pepper: "Pfeffer", anise: "Sternanis", cinnamon: "Zimt", gold: "Gold", mules: "Mulis" },
  };
  const BOT_NAMES = {
    en: { random: "random moves", heuristic: "heuristic (quick)", value: "learned (quick)", "ismcts:easy": "easy (search)", "ismcts:normal": "normal (search)", "ismcts:hard": "hard (search)" },
    de: { random: "Zufallszüge", heuristic: "Heuristik (schnell)", value: "gelernt (schnell)", "ismcts:easy": "leicht (Suche)", "ismcts:normal": "normal (Suche)", "ismcts:hard": "schwer (Suche)" },
  };
  const WORDS = {
    en: {
      title: "Kashgar", your_turn: "Your turn", my_games: "My games", new_game: "New game", create: "Create game",
      seats: "Seats", seat: "Seat", person: "Person", bot: "Bot", level: "Level", name: "Name", you: "you",
      expansion: "Cut and Thrust", exp_none: "without", exp_all: "all twelve cards", exp_some: "only these:",
      house: "House rules", "house_min-caravan": "Caravans never shrink below 2 cards",
      house_farrier: "The Farrier costs 2 mules", "house_spice-merchants": "One Spice Merchant per player starts in the discard pile",
      clock: "Clock per decision", no_clock: "no clock", minutes: "min", hours: "h", days: "days",
      i_play: "I play seat 1 myself", invites: "Invitation links", invite_hint: "Send each link to one person: opening it takes that seat.",
      open_table: "Open the table", no_games: "No games yet in this browser.", waiting_for: "waiting for {0}",
      finished: "finished", active: "running", turn_n: "turn {0}", won: "{0} won", copy: "Copy", copied: "Copied",
      join_title: "You are invited", join_seat: "Seat {0} of a {1}-player game", take_seat: "Take this seat",
      join_used: "This invitation is unknown or has already been used.", players: "players",
      caravan: "Caravan {0}", front: "front", back: "back", points: "points", pts: "pts", contracts: "Contracts",
      fulfilled: "Fulfilled contracts", decks: "Decks", deck_standard: "Standard", deck_special: "Special",
      deck_contracts: "Contracts", discard: "Discard pile", box: "Box", empty: "empty", show: "show", hide: "hide",
      actions: "Your choices", log: "Game log", mules_needed: "needs {0} mules", cost: "Cost", payout: "Payout",
      action1: "action 1", action2: "action 2", parting: "parting", pass_card: "pass (to the back)",
      opt_A: "Caravan action 1", opt_B: "Caravan action 2", opt_P: "Parting action", opt_X: "Pass: to the back",
      p_turn: "Your turn: choose what the front card of a caravan does.",
      p_keep: "Keep one of the drawn cards.", p_take: "Take a card from the discard pile.",
      p_contract: "Choose a contract to fulfil.", p_card: "Choose a card to remove.", to_move: "{0} is to decide.", under: "known underneath:", replay: "Replay from the start", p_herd: "Move a front card to another caravan.",
      p_player: "Choose a player.", p_caravan: "Choose one of your caravans.", p_amount: "How much gold do you pay?",
      p_resource: "Choose a resource.", "p_resource_inc": "Choose a spice to increase by {0}.", "p_resource_set": "Choose a spice to set to {0}.",
      p_resource_pay: "Choose the spice you pay.", p_resource_gain: "Choose what you get.", p_resource_swap: "Choose the spice to swap.",
      p_resource_raise: "Choose the spice to raise.", p_pass: "You have no card in any caravan: pass.",
      waiting: "Waiting for {0}…", bot_thinking: "{0} (bot) is thinking…", game_over: "Game over.", winner: "{0} wins with {1} points.",
      done: "Done", pass: "Pass", keep: "Keep {0}", take: "Take {0}", fulfil: "Fulfil {0}", choose_player: "{0}",
      choose_caravan: "Caravan {0}", amount: "{0} gold", herd: "{0}: caravan {1} → caravan {2}",
      pick_card: "{0} (caravan {1}, position {2})", undo: "Undo", ask_undo: "Ask to undo", resign: "Resign",
      resign_confirm: "Resign? A bot plays your seat for the rest of the game.", undo_here: "undo to here",
      undo_asked: "{0} asks to undo their last decision.", allow: "Allow", refuse: "Refuse", undo_waiting: "Waiting for the others to allow the undo…",
      history: "Position after step {0} of {1}", live: "Back to live", first: "Start", prev: "Back", next: "Next", last: "End",
      record: "Download record", upload: "View a record", upload_hint: "Choose a game record (JSON) to replay it.",
      as_seat: "Seen by", webhook: "Your-turn webhook", save: "Save", saved: "Saved", clock_left: "{0} left",
      taken_timeout: "clock ran out: a bot plays", taken_resigned: "resigned: a bot plays", not_claimed: "not joined yet",
      online: "online", offline: "offline", conn_lost: "Connection lost, reconnecting…", legal_none: "Nothing to choose now.",
      turn: "Turn", step: "step", drawn: "drawn", end_triggered: "25 points reached: the round is played to the end.",
      viewer: "Record viewer", lang: "Deutsch", must: "must be used when possible", card_info: "Card",
      you_are: "You are {0}", invalid_record: "Not a valid record: {0}", bot_level: "Bot",
      log_turn: "{0} ({1})", log_pass: "passes", slot_A: "action 1", slot_B: "action 2", slot_P: "parting action", slot_X: "to the back",
      home: "Kashgar", rules_hint: "Kashgar: Merchants of the Silk Road", forced: "forced", error: "Error",
    },
    de: {
      title: "Kashgar", your_turn: "Du bist dran", my_games: "Meine Spiele", new_game: "Neues Spiel", create: "Spiel anlegen",
      seats: "Plätze", seat: "Platz", person: "Mensch", bot: "Bot", level: "Stufe", name: "Name", you: "du",
      expansion: "Hauen und Stechen", exp_none: "ohne", exp_all: "alle zwölf Karten", exp_some: "nur diese:",
      house: "Hausregeln", "house_min-caravan": "Karawanen schrumpfen nie unter 2 Karten",
      house_farrier: "Der Hufschmied kostet 2 Mulis", "house_spice-merchants": "Je Spieler ein Gewürzhändler im Ablagestapel",
      clock: "Bedenkzeit je Entscheidung", no_clock: "ohne Uhr", minutes: "Min.", hours: "Std.", days: "Tage",
      i_play: "Ich spiele Platz 1 selbst", invites: "Einladungslinks", invite_hint: "Schicke jeden Link an eine Person: Wer ihn öffnet, bekommt den Platz.",
      open_table: "Zum Tisch", no_games: "In diesem Browser gibt es noch keine Spiele.", waiting_for: "wartet auf {0}",
      finished: "beendet", active: "läuft", turn_n: "Zug {0}", won: "{0} hat gewonnen", copy: "Kopieren", copied: "Kopiert",
      join_title: "Du bist eingeladen", join_seat: "Platz {0} eines Spiels zu {1}", take_seat: "Platz nehmen",
      join_used: "Diese Einladung ist unbekannt oder schon benutzt.", players: "Spielern",
      caravan: "Karawane {0}", front: "vorne", back: "hinten", points: "Siegpunkte", pts: "SP", contracts: "Aufträge",
      fulfilled: "Erfüllte Aufträge", decks: "Stapel", deck_standard: "Standard", deck_special: "Sonder",
      deck_contracts: "Aufträge", discard: "Ablagestapel", box: "Schachtel", empty: "leer", show: "zeigen", hide: "verbergen",
      actions: "Deine Möglichkeiten", log: "Spielverlauf", mules_needed: "braucht {0} Mulis", cost: "Kosten", payout: "Ertrag",
      action1: "Aktion 1", action2: "Aktion 2", parting: "Abschied", pass_card: "passen (nach hinten)",
      opt_A: "Karawanen-Aktion 1", opt_B: "Karawanen-Aktion 2", opt_P: "Abschied-Aktion", opt_X: "Passen: nach hinten",
      p_turn: "Du bist dran: Wähle, was die vorderste Karte einer Karawane tut.",
      p_keep: "Behalte eine der gezogenen Karten.", p_take: "Nimm eine Karte aus dem Ablagestapel.",
      p_contract: "Wähle einen Auftrag, den du erfüllst.", p_card: "Wähle eine Karte, die entfernt wird.", to_move: "{0} ist am Zug.", under: "bekannt darunter:", replay: "Von Anfang an nachspielen", p_herd: "Setze eine vorderste Karte in eine andere Karawane.",
      p_player: "Wähle einen Spieler.", p_caravan: "Wähle eine deiner Karawanen.", p_amount: "Wie viel Gold zahlst du?",
      p_resource: "Wähle einen Rohstoff.", "p_resource_inc": "Wähle ein Gewürz, das um {0} steigt.", "p_resource_set": "Wähle ein Gewürz, das auf {0} gesetzt wird.",
      p_resource_pay: "Wähle das Gewürz, mit dem du zahlst.", p_resource_gain: "Wähle, was du bekommst.", p_resource_swap: "Wähle das Gewürz zum Tauschen.",
      p_resource_raise: "Wähle das Gewürz, das steigt.", p_pass: "Du hast keine Karte in einer Karawane: passen.",
      waiting: "Warte auf {0} …", bot_thinking: "{0} (Bot) überlegt …", game_over: "Spielende.", winner: "{0} gewinnt mit {1} Siegpunkten.",
      done: "Fertig", pass: "Passen", keep: "{0} behalten", take: "{0} nehmen", fulfil: "{0} erfüllen", choose_player: "{0}",
      choose_caravan: "Karawane {0}", amount: "{0} Gold", herd: "{0}: Karawane {1} → Karawane {2}",
      pick_card: "{0} (Karawane {1}, Platz {2})", undo: "Rückgängig", ask_undo: "Rückgängig erbitten", resign: "Aufgeben",
      resign_confirm: "Aufgeben? Ein Bot spielt deinen Platz zu Ende.", undo_here: "bis hierher zurück",
      undo_asked: "{0} möchte die letzte Entscheidung zurücknehmen.", allow: "Erlauben", refuse: "Ablehnen", undo_waiting: "Warte, bis die anderen zustimmen …",
      history: "Stand nach Schritt {0} von {1}", live: "Zurück zum Spiel", first: "Anfang", prev: "Zurück", next: "Weiter", last: "Ende",
      record: "Protokoll herunterladen", upload: "Protokoll ansehen", upload_hint: "Wähle ein Spielprotokoll (JSON), um es nachzuspielen.",
      as_seat: "Gesehen von", webhook: "Webhook für „Du bist dran“", save: "Speichern", saved: "Gespeichert", clock_left: "noch {0}",
      taken_timeout: "Zeit abgelaufen: ein Bot spielt", taken_resigned: "aufgegeben: ein Bot spielt", not_claimed: "noch nicht beigetreten",
      online: "online", offline: "offline", conn_lost: "Verbindung verloren, verbinde neu …", legal_none: "Gerade nichts zu wählen.",
      turn: "Zug", step: "Schritt", drawn: "gezogen", end_triggered: "25 Siegpunkte erreicht: die Runde wird zu Ende gespielt.",
      viewer: "Protokoll-Betrachter", lang: "English", must: "muss genutzt werden, wenn möglich", card_info: "Karte",
      you_are: "Du bist {0}", invalid_record: "Kein gültiges Protokoll: {0}", bot_level: "Bot",
      log_turn: "{0} ({1})", log_pass: "passt", slot_A: "Aktion 1", slot_B: "Aktion 2", slot_P: "Abschied-Aktion", slot_X: "nach hinten",
      home: "Kashgar", rules_hint: "Kashgar: Händler der Seidenstraße", forced: "erzwungen", error: "Fehler",
    },
  };

  let lang = localStorage.getItem("kashgar.lang") || ((navigator.language || "en").startsWith("de") ? "de" : "en");
  if (!WORDS[lang]) lang = "en";

  function t(key, ...args) {
    let s = (WORDS[lang] && WORDS[lang][key]) || WORDS.en[key] || key;
    args.forEach((a, i) => { s = s.split("{" + i + "}").join(String(a)); });
    return s;
  }
  function setLang(l) { lang = l; localStorage.setItem("kashgar.lang", l); document.documentElement.lang = l; }
  function getLang() { return lang; }
  function resName(r) { return RES_NAMES[lang][r] || r; }
  function botName(spec) { return (BOT_NAMES[lang] && BOT_NAMES[lang][spec]) || spec; }

  /* el("div", {class: "x", onclick: f}, "text", child, ...): strings become text nodes. */
  function el(tag, attrs, ...children) {
    const n = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === undefined || v === null || v === false) continue;
      if (k.startsWith("on")) n.addEventListener(k.slice(2), v);
      else if (k === "class") n.className = v;
      else if (k === "dataset") Object.assign(n.dataset, v);
      else if (k === "text") n.textContent = v;
      else n.setAttribute(k, v === true ? "" : String(v));
    }
    for (const c of children.flat()) {
      if (c === null || c === undefined || c === false) continue;
      n.appendChild(typeof c === "string" || typeof c === "number" ? document.createTextNode(String(c)) : c);
    }
    return n;
  }
  function clear(n) { while (n.firstChild) n.removeChild(n.firstChild); return n; }

  const SVGNS = "http://www.w3.org/2000/svg";
  function svg(tag, attrs, ...children) {
    const n = document.createElementNS(SVGNS, tag);
    for (const [k, v] of Object.entries(attrs || {})) n.setAttribute(k, String(v));
    for (const c of children) if (c) n.appendChild(c);
    return n;
  }
  /* A resource token drawn in SVG: a coloured shape per spice, a coin for gold, a mule's head for mules. */
  function resIcon(r, size) {
    size = size || 22;
    const s = svg("svg", { viewBox: "0 0 24 24", width: size, height: size, class: "res-icon res-" + r, "aria-hidden": "true" });
    if (r === "gold") {
      s.appendChild(svg("circle", { cx: 12, cy: 12, r: 10, class: "fill" }));
      s.appendChild(svg("circle", { cx: 12, cy: 12, r: 6.5, class: "line" }));
    } else if (r === "mules") {
      s.appendChild(svg("path", { d: "M6 21 L8 9 L5 3 L10 6 L14 6 L19 3 L16 9 L18 21 Z", class: "fill" }));
      s.appendChild(svg("circle", { cx: 10, cy: 11, r: 1.2, class: "eye" }));
      s.appendChild(svg("circle", { cx: 14, cy: 11, r: 1.2, class: "eye" }));
    } else if (r === "anise") {
      s.appendChild(svg("path", { d: "M12 1 L14.5 8.5 L22.5 9 L16 14 L18.5 22 L12 17 L5.5 22 L8 14 L1.5 9 L9.5 8.5 Z", class: "fill" }));
    } else if (r === "cloves") {
      s.appendChild(svg("path", { d: "M12 2 L15 7 L13 8 L13 21 L11 21 L11 8 L9 7 Z", class: "fill" }));
    } else if (r === "pepper") {
      s.appendChild(svg("circle", { cx: 8, cy: 9, r: 4.5, class: "fill" }));
      s.appendChild(svg("circle", { cx: 16, cy: 9, r: 4.5, class: "fill" }));
      s.appendChild(svg("circle", { cx: 12, cy: 16.5, r: 4.5, class: "fill" }));
    } else if (r === "cinnamon") {
      s.appendChild(svg("rect", { x: 3, y: 6, width: 18, height: 5, rx: 2.5, class: "fill" }));
      s.appendChild(svg("rect", { x: 3, y: 13, width: 18, height: 5, rx: 2.5, class: "fill" }));
    } else {  // ginger: a knobbly root
      s.appendChild(svg("path", { d: "M3 15 C3 9 8 10 9 7 C10 4 14 4 14 8 C15 6 20 6 20 10 C21 14 17 18 11 18 C7 19 3 19 3 15 Z", class: "fill" }));
    }
    return s;
  }

  /* ---- storage: the seats this browser holds (secrets live only here and, hashed, on the server) ---- */
  function seatsStored() {
    try { return JSON.parse(localStorage.getItem("kashgar.seats") || "[]"); } catch (e) { return []; }
  }
  function storeSeat(game, seat, token) {
    const all = seatsStored().filter((s) => !(s.game === game && s.seat === seat));
    all.push({ game, seat, token, at: Date.now() });
    localStorage.setItem("kashgar.seats", JSON.stringify(all));
  }
  function seatsOf(game) { return seatsStored().filter((s) => s.game === game); }
  function invitesStored() {
    try { return JSON.parse(localStorage.getItem("kashgar.invites") || "{}"); } catch (e) { return {}; }
  }
  function storeInvites(game, invites) {
    const all = invitesStored(); all[game] = invites; localStorage.setItem("kashgar.invites", JSON.stringify(all));
  }

  /* ---- API ---- */
  /* body: a value sent as JSON, or {raw: "json text"} sent as it is (a record whose 64-bit seed
     must not pass through a JavaScript number). */
  async function api(method, path, body, token) {
    const headers = {};
    if (body !== undefined) headers["content-type"] = "application/json";
    if (token) headers.authorization = "Bearer " + token;
    const payload = body === undefined ? undefined : (body && typeof body.raw === "string") ? body.raw : JSON.stringify(body);
    const r = await fetch(path, { method, headers, body: payload });
    let data = null;
    try { data = await r.json(); } catch (e) { data = null; }
    if (!r.ok) {
      const err = new Error((data && data.error) || ("HTTP " + r.status));
      err.status = r.status;
      throw err;
    }
    return data;
  }

  const cardCache = {};
  async function cards() {
    if (!cardCache[lang]) {
      const d = await api("GET", "/api/cards?lang=" + lang);
      const persons = {}, contracts = {};
      d.persons.forEach((p) => { persons[p.id] = p; });
      d.contracts.forEach((c) => { contracts[c.id] = c; });
      cardCache[lang] = { persons, contracts };
    }
    return cardCache[lang];
  }

  function langButton(onchange) {
    return el("button", { class: "lang", type: "button", title: "English / Deutsch", onclick: () => {
      setLang(lang === "en" ? "de" : "en"); onchange();
    } }, t("lang"));
  }

  function fmtDuration(sec) {
    sec = Math.max(0, Math.round(sec));
    if (sec >= 86400) return Math.floor(sec / 86400) + "d " + Math.floor((sec % 86400) / 3600) + "h";
    if (sec >= 3600) return Math.floor(sec / 3600) + "h " + String(Math.floor((sec % 3600) / 60)).padStart(2, "0") + "m";
    return Math.floor(sec / 60) + ":" + String(sec % 60).padStart(2, "0");
  }

  document.documentElement.lang = lang;
  return { RESOURCES, CAPS, t, setLang, getLang, resName, botName, el, clear, svg, resIcon, seatsStored, storeSeat,
    seatsOf, invitesStored, storeInvites, api, cards, langButton, fmtDuration };
})();
