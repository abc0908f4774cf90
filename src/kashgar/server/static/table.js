/* The table: the game as this seat sees it, live over a WebSocket; the log, replay, undo.
   Also the record viewer (/viewer): an uploaded record replayed step by step.
   Every text from the server or from players is put in the page with textContent only. */
"use strict";

(() => {
  const { t, el, clear, api, svg } = K;
  const RECORD_MODE = location.pathname === "/viewer";
  const gid = RECORD_MODE ? null : decodeURIComponent(location.pathname.split("/").pop());

  let C = null;            // card texts of the current language
  let S = null;            // the last live state from the server
  let log = [];            // the whole log (live)
  let mySeats = [];        // the seats this browser holds in this game
  let token = null;
  let me = 0;
  let ws = null, wsOpen = false, wsRetry = 0, wsTimer = null;
  let busy = false;        // a move was sent and is not answered yet
  let awaitVersion = 0;    // the version our last move made, until the state shows it
  let hist = null;         // {at, total, view, as}: a past position (log click, replay, record)
  let record = null;       // the uploaded record (viewer), as its JSON text
  let recSeats = null;
  let openPiles = { discard: false, box: false };
  let info = null;         // the card shown in the info panel
  let toastTimer = null;
  let clockOffset = 0;
  let rendering = false;

  // ------------------------------------------------------------------ names

  const person = (id) => (C && C.persons[id]) || { name: id, points: "0", caravan: [], parting: [], must: false, deck: "standard" };
  const contract = (id) => (C && C.contracts[id]) || { name: id, points: 0, mules: 0, costs: [], payouts: [], kind: "small" };
  const seatList = () => (hist && recSeats) ? recSeats : (S ? S.seats : []);
  const seatName = (i) => { const s = seatList()[i]; return s ? s.name : t("seat") + " " + (i + 1); };
  function contractLabel(id) {
    const c = contract(id);
    return c.kind_name + " (" + c.cost + (c.payout ? "; " + c.payout : "") + ", " + c.points + " " + t("pts") + ")";
  }
  function slotText(cardId, slot) {
    const p = person(cardId);
    if (slot === "A") return p.caravan[0] || "";
    if (slot === "B") return p.caravan[1] || "";
    if (slot === "P") return p.parting[0] || "";
    return "";
  }

  /* A readable label for a legal action (notation text) in the current view. */
  function actionLabel(a, view, split) {
    const v = view || (S && S.view);
    const mine = v ? v.seats[v.pending.player >= 0 ? v.pending.player : me] : null;
    let m = /^(\d)([ABPX])$/.exec(a);
    if (m) {
      const c = Number(m[1]);
      const front = mine && mine.caravans[c - 1] ? mine.caravans[c - 1][0] : null;
      const name = front ? person(front).name : "?";
      const txt = slotText(front, m[2]);
      if (split) return [t("caravan", c) + " · " + name + ": " + t("opt_" + m[2]), txt];
      return t("caravan", c) + " · " + name + ": " + t("opt_" + m[2]) + (txt ? " — " + txt : "");
    }
    if (a === "pass") return t("pass");
    if (a === "done") return t("done");
    if (K.RESOURCES.includes(a)) return K.resName(a);
    if ((m = /^player (\d)$/.exec(a))) return t("choose_player", seatName(Number(m[1]) - 1));
    if ((m = /^caravan (\d)$/.exec(a))) {
      const cards = mine ? mine.caravans[Number(m[1]) - 1] || [] : [];
      return t("choose_caravan", m[1]) + (cards.length ? " (" + person(cards[0]).name + " …)" : "");
    }
    if ((m = /^amount (\d+)$/.exec(a))) return t("amount", m[1]);
    if ((m = /^herd (\d)>(\d)$/.exec(a))) {
      const cards = mine ? mine.caravans[Number(m[1]) - 1] || [] : [];
      return t("herd", cards.length ? person(cards[0]).name : "?", m[1], m[2]);
    }
    if ((m = /^card (\d)\.(\d+)$/.exec(a))) {
      const cards = mine ? mine.caravans[Number(m[1]) - 1] || [] : [];
      const id = cards[Number(m[2]) - 1];
      return t("pick_card", id ? person(id).name : "?", m[1], m[2]);
    }
    if ((m = /^keep (.+)$/.exec(a))) return t("keep", person(m[1]).name);
    if ((m = /^take (.+)$/.exec(a))) return t("take", person(m[1]).name);
    if ((m = /^fulfil (.+)$/.exec(a))) return t("fulfil", contractLabel(m[1]));
    return a;
  }

  /* One log entry as a sentence. */
  function logText(e) {
    const who = seatName(e.seat);
    const a = e.a;
    let m = /^(\d)([ABPX])$/.exec(a);
    let what;
    if (m) what = person(e.card).name + " (" + t("caravan", m[1]) + "): " + t("slot_" + m[2]);
    else if (a === "pass") what = t("log_pass");
    else if ((m = /^card (\d)\.(\d+)$/.exec(a))) what = t("pick_card", e.card ? person(e.card).name : "?", m[1], m[2]);
    else if ((m = /^herd (\d)>(\d)$/.exec(a))) what = t("herd", e.card ? person(e.card).name : "?", m[1], m[2]);
    else if ((m = /^fulfil (.+)$/.exec(a))) what = t("fulfil", contract(m[1]).kind_name + " (" + contract(m[1]).points + " " + t("pts") + ")");
    else what = actionLabel(a, null);
    return who + ": " + what;
  }

  // ------------------------------------------------------------------ small pieces

  function toast(msg, kind) {
    const n = document.getElementById("toast");
    if (!n) return;
    n.textContent = msg;
    n.className = "toast show " + (kind || "error");
    clearTimeout(toastTimer);
    toastTimer = setTimeout(() => { n.className = "toast"; }, 6000);
  }

  function resList(pairs, spice) {
    const out = el("span", { class: "reslist" });
    for (const [r, n] of pairs) out.appendChild(el("span", { class: "amt", title: n + " " + K.resName(r) }, String(n), K.resIcon(r, 16)));
    if (spice) out.appendChild(el("span", { class: "amt", title: spice + " ×1" }, String(spice), el("span", { class: "anyspice" }, "✱")));
    return out;
  }

  function deckClass(deck) { return "deck-" + (deck || "standard"); }

  function cardTitle(id) {
    const p = person(id);
    const lines = [p.name + " · " + p.points + " " + t("pts") + (p.must ? " · ! " + t("must") : "")];
    p.caravan.forEach((x, i) => lines.push((p.caravan.length > 1 ? "[" + (i + 1) + "] " : "▶ ") + x));
    p.parting.forEach((x) => lines.push("✕ " + x));
    return lines.join("\n");
  }

  function pointsBadge(p) {
    if (p.per_wheat) {  // the Farmer: 1 point per Wheat Field
      return el("span", { class: "cpts", title: p.points }, "1×", wheatIcon());
    }
    return el("span", { class: "cpts" + (String(p.points).startsWith("-") ? " neg" : "") }, String(p.points));
  }

  function wheatIcon() {
    const s = svg("svg", { viewBox: "0 0 12 16", width: 9, height: 12, class: "wheat", "aria-hidden": "true" });
    s.appendChild(svg("path", { d: "M6 16 V4 M6 6 L3 3 M6 6 L9 3 M6 9 L3 6 M6 9 L9 6 M6 12 L3 9 M6 12 L9 9 M6 4 L6 1" }));
    return s;
  }

  /* A person card. opts: {front, buttons: [[action, label, title]], small} */
  function cardEl(id, opts) {
    opts = opts || {};
    const p = person(id);
    const n = el("div", { class: "card " + deckClass(p.deck) + (opts.front ? " front" : "") + (opts.small ? " small" : ""),
      dataset: { card: id }, title: cardTitle(id), tabindex: 0, role: "button",
      onclick: (e) => { if (!e.target.closest("button")) showInfo(id); },
      onkeydown: (e) => { if (e.key === "Enter" && !e.target.closest("button")) showInfo(id); } },
    el("div", { class: "chead" }, el("span", { class: "cname" }, p.name),
      p.must ? el("span", { class: "must", title: t("must") }, "!") : null,
      pointsBadge(p)));
    if (opts.front && !opts.small) {
      const body = el("div", { class: "cbody" });
      p.caravan.forEach((x, i) => body.appendChild(el("div", { class: "ctext" }, el("b", {}, (i ? "B" : "A") + " "), x)));
      p.parting.forEach((x) => body.appendChild(el("div", { class: "ctext parting" }, el("b", {}, "P "), x)));
      n.appendChild(body);
    }
    if (opts.buttons && opts.buttons.length) {
      const bar = el("div", { class: "cbuttons" });
      for (const [a, label, title] of opts.buttons) bar.appendChild(actButton(a, label, title));
      n.appendChild(bar);
    }
    return n;
  }

  function contractEl(id, buttons) {
    const c = contract(id);
    const n = el("div", { class: "contract kind-" + c.kind, dataset: { contract: id }, title: c.name + ": " + c.cost +
      (c.payout ? " → " + c.payout : "") + " · " + t("mules_needed", c.mules) + " · " + c.points + " " + t("pts") },
    el("div", { class: "chead" }, el("span", { class: "cname" }, c.kind_name), el("span", { class: "cpts" }, String(c.points))),
    el("div", { class: "mules-need", title: t("mules_needed", c.mules) }, Array.from({ length: c.mules }, () => K.resIcon("mules", 14))),
    el("div", { class: "ccost" }, resList(c.costs, c.cost_spice)),
    c.payouts.length ? el("div", { class: "cpayout" }, "→ ", resList(c.payouts, 0)) : null);
    if (buttons && buttons.length) {
      const bar = el("div", { class: "cbuttons" });
      for (const [a, label] of buttons) bar.appendChild(actButton(a, label));
      n.appendChild(bar);
    }
    return n;
  }

  function actButton(a, label, title) {
    const body = Array.isArray(label) ? [label[0], label[1] ? el("span", { class: "sub" }, label[1]) : null] : [label];
    return el("button", { type: "button", class: "act", dataset: { action: a }, title: title || null,
      disabled: (busy || awaitVersion) ? true : null, onclick: () => send(a) }, ...body);
  }

  function showInfo(id) { info = id; drawInfo(); }
  function drawInfo() {
    const box = document.getElementById("info");
    if (!box) return;
    clear(box);
    if (!info) { box.className = "info"; return; }
    const p = person(info);
    box.className = "info show";
    box.appendChild(el("div", { class: "card big " + deckClass(p.deck) },
      el("div", { class: "chead" }, el("span", { class: "cname" }, p.name),
        p.must ? el("span", { class: "must" }, "!") : null, pointsBadge(p)),
      el("div", { class: "cbody" },
        p.caravan.map((x, i) => el("p", {}, el("b", {}, (p.caravan.length > 1 ? t(i ? "action2" : "action1") : t("action1")) + ": "), x)),
        p.parting.map((x) => el("p", {}, el("b", {}, t("parting") + ": "), x)),
        p.must ? el("p", { class: "muted" }, "! " + t("must")) : null,
        el("p", { class: "muted" }, p.deck_name))));
    box.appendChild(el("button", { type: "button", class: "close", onclick: () => { info = null; drawInfo(); } }, "×"));
  }

  // ------------------------------------------------------------------ rendering

  function legalOf(view, interactive) { return interactive && view.legal ? view.legal : []; }

  function render() {
    if (rendering) return;
    rendering = true;
    requestAnimationFrame(() => { rendering = false; draw(); });
  }

  function draw() {
    const app = document.getElementById("app");
    if (!C) return;
    const view = hist ? hist.view : S ? S.view : null;
    clear(app);
    app.appendChild(header());
    app.appendChild(el("div", { id: "toast", class: "toast", role: "alert" }));
    app.appendChild(el("div", { id: "info", class: "info" }));
    if (RECORD_MODE && !record) { app.appendChild(uploadPanel()); return; }
    if (!view) { app.appendChild(el("p", { class: "muted center" }, "…")); return; }
    const interactive = !hist && S && S.status === "active";
    const legal = legalOf(view, interactive);
    const banner = bannerEl();
    if (banner) app.appendChild(banner);
    const main = el("div", { class: "layout" });
    const board = el("section", { class: "board" });
    board.appendChild(promptEl(view, legal));
    const order = [];
    const viewer = view.player;
    order.push(viewer);
    for (let i = 1; i < view.players; i++) order.push((viewer + i) % view.players);
    board.appendChild(playerEl(view, viewer, legal, true));
    board.appendChild(marketEl(view, legal));
    const others = el("div", { class: "others" });
    order.slice(1).forEach((p) => others.appendChild(playerEl(view, p, legal, false)));
    board.appendChild(others);
    main.appendChild(board);
    main.appendChild(sideEl(view, legal));
    app.appendChild(main);
    drawInfo();
    updateTitle();
    tickClock();
  }

  function updateTitle() {
    const mine = S && S.your_turn && !RECORD_MODE;
    document.title = (mine ? "● " + t("your_turn") + " — " : "") + "Kashgar";
  }

  function header() {
    const h = el("header", { class: "top" }, el("a", { href: "/", class: "brand" }, "Kashgar"));
    if (RECORD_MODE) h.appendChild(el("span", { class: "sub" }, t("viewer")));
    if (S && !RECORD_MODE) {
      if (S.your_turn) h.appendChild(el("span", { class: "badge turn", id: "your-turn" }, t("your_turn")));
      if (mySeats.length > 1) {
        const pick = el("select", { id: "seat-pick", "aria-label": t("seat"), onchange: (e) => switchSeat(Number(e.target.value)) },
          mySeats.map((s) => el("option", { value: s.seat }, t("you_are", seatName(s.seat)))));
        pick.value = String(me);
        h.appendChild(pick);
      } else {
        h.appendChild(el("span", { class: "sub" }, t("you_are", seatName(me))));
      }
    }
    h.appendChild(el("span", { class: "grow" }));
    h.appendChild(el("a", { href: "/", class: "navlink" }, t("my_games")));
    h.appendChild(K.langButton(async () => { await loadCards(); render(); }));
    return h;
  }

  function bannerEl() {
    if (hist) {
      const total = hist.total;
      const go = (at) => showAt(Math.max(0, Math.min(total, at)), hist.as);
      const bar = el("div", { class: "banner history", id: "history-bar" },
        el("span", { id: "history-pos" }, t("history", hist.at, total)),
        el("button", { type: "button", id: "h-first", onclick: () => go(0), disabled: hist.at === 0 || null }, "|◀ " + t("first")),
        el("button", { type: "button", id: "h-prev", onclick: () => go(hist.at - 1), disabled: hist.at === 0 || null }, "◀ " + t("prev")),
        el("button", { type: "button", id: "h-next", onclick: () => go(hist.at + 1), disabled: hist.at >= total || null }, t("next") + " ▶"),
        el("button", { type: "button", id: "h-last", onclick: () => go(total), disabled: hist.at >= total || null }, t("last") + " ▶|"));
      const finished = RECORD_MODE || (S && S.status === "finished");
      if (finished) {
        const n = hist.view.players;
        const pick = el("select", { id: "as-seat", "aria-label": t("as_seat"), onchange: (e) => showAt(hist.at, Number(e.target.value)) },
          Array.from({ length: n }, (_, i) => el("option", { value: i }, seatName(i))));
        pick.value = String(hist.as);
        bar.appendChild(el("label", {}, t("as_seat") + " ", pick));
      }
      if (!RECORD_MODE) bar.appendChild(el("button", { type: "button", class: "primary", id: "back-live", onclick: () => { hist = null; render(); } }, t("live")));
      else bar.appendChild(el("button", { type: "button", onclick: () => { record = null; hist = null; render(); } }, t("upload")));
      return bar;
    }
    if (!RECORD_MODE && !wsOpen && S) return el("div", { class: "banner warn" }, t("conn_lost"));
    return null;
  }

  function promptEl(view, legal) {
    const box = el("div", { class: "prompt", id: "prompt" });
    const pend = view.pending;
    if (view.over) {
      const r = view.ranking;
      box.classList.add("over");
      box.appendChild(el("p", { class: "big" }, t("game_over") + " " + t("winner", seatName(r[0]), view.seats[r[0]].points)));
      box.appendChild(el("ol", { class: "ranking" }, r.map((p) => el("li", {}, seatName(p) + ": " + view.seats[p].points + " " + t("pts")))));
      return box;
    }
    if (!legal.length) {
      const who = pend.player;
      const s = seatList()[who];
      let msg;
      if (hist) msg = t("to_move", seatName(who));
      else if (s && s.bot) msg = t("bot_thinking", seatName(who));
      else msg = t("waiting", seatName(who));
      box.appendChild(el("p", { class: "waiting" }, msg));
      if (S && S.undo_request && !hist) box.appendChild(undoRequestEl());
      if (view.end_triggered) box.appendChild(el("p", { class: "muted" }, t("end_triggered")));
      return box;
    }
    box.classList.add("mine");
    const kind = pend.kind;
    let text = t("p_" + kind);
    if (kind === "resource" && pend.mode) text = t("p_resource_" + pend.mode, pend.amount !== undefined ? pend.amount : "");
    if (kind === "turn" && legal.length === 1 && legal[0] === "pass") text = t("p_pass");
    if (pend.card) text = person(pend.card).name + ": " + text;
    box.appendChild(el("p", { class: "big", id: "prompt-text" }, text));
    const choices = el("div", { class: "choices" });
    if (kind === "keep" && pend.drawn) {
      for (const id of pend.drawn) {
        const a = "keep " + id;
        choices.appendChild(cardEl(id, { front: true, buttons: legal.includes(a) ? [[a, t("keep", person(id).name)]] : [] }));
      }
    } else if (kind === "take") {
      const seen = new Set();
      for (const id of view.discard) {
        const a = "take " + id;
        if (!legal.includes(a) || seen.has(id)) continue;
        seen.add(id);
        choices.appendChild(cardEl(id, { front: true, buttons: [[a, t("take", person(id).name)]] }));
      }
    } else if (kind === "contract" && pend.drawn) {
      for (const id of pend.drawn) {
        const a = "fulfil " + id;
        choices.appendChild(contractEl(id, legal.includes(a) ? [[a, t("fulfil", "")]] : []));
      }
    } else if (kind === "resource") {
      for (const a of legal) {
        if (K.RESOURCES.includes(a)) {
          choices.appendChild(el("button", { type: "button", class: "act res-choice", dataset: { action: a }, disabled: (busy || awaitVersion) ? true : null,
            onclick: () => send(a) }, K.resIcon(a, 26), " " + K.resName(a)));
        }
      }
    }
    const rest = legal.filter((a) => !choices.querySelector('[data-action="' + CSS.escape(a) + '"]') && !/^\d[ABPX]$/.test(a));
    for (const a of rest) choices.appendChild(actButton(a, actionLabel(a, view)));
    if (choices.childNodes.length) box.appendChild(choices);
    return box;
  }

  function undoRequestEl() {
    const req = S.undo_request;
    const box = el("div", { class: "undo-request", id: "undo-request" });
    if (req.waiting.includes(me)) {
      box.appendChild(el("p", {}, t("undo_asked", seatName(req.by))));
      box.appendChild(el("button", { type: "button", id: "undo-allow", class: "primary", onclick: () => answerUndo(true) }, t("allow")));
      box.appendChild(el("button", { type: "button", id: "undo-refuse", onclick: () => answerUndo(false) }, t("refuse")));
    } else if (req.by === me) {
      box.appendChild(el("p", { class: "muted" }, t("undo_waiting")));
    }
    return box;
  }

  function resourceBoard(res) {
    const b = el("div", { class: "resources" });
    for (const r of K.RESOURCES) {
      const v = res[r];
      const track = el("span", { class: "track" });
      for (let i = 1; i <= K.CAPS[r]; i++) track.appendChild(el("i", { class: i <= v ? "on" : "" }));
      b.appendChild(el("div", { class: "res res-" + r, title: K.resName(r) + ": " + v, dataset: { res: r } },
        K.resIcon(r, 20), el("b", { class: "val" }, String(v)), track));
    }
    return b;
  }

  function playerEl(view, p, legal, isViewer) {
    const st = view.seats[p];
    const seatInfo = seatList()[p] || {};
    const toMove = view.pending.player === p && !view.over;
    const panel = el("section", { class: "player" + (isViewer ? " me" : "") + (toMove ? " to-move" : ""), dataset: { seat: p } });
    const tags = [];
    if (seatInfo.bot) tags.push(el("span", { class: "tag bot" }, t("bot") + ": " + K.botName(seatInfo.bot)));
    if (seatInfo.taken_over) tags.push(el("span", { class: "tag warn" }, t("taken_" + seatInfo.taken_over)));
    if (!hist && seatInfo.kind === "human" && !seatInfo.claimed) tags.push(el("span", { class: "tag" }, t("not_claimed")));
    if (!hist && seatInfo.kind === "human" && !seatInfo.taken_over && seatInfo.claimed) {
      tags.push(el("span", { class: "dot " + (seatInfo.online ? "on" : "off"), title: t(seatInfo.online ? "online" : "offline") }));
    }
    if (toMove && S && S.clock && S.clock.deadline && !hist) tags.push(el("span", { class: "tag clock", id: "clock-" + p, dataset: { deadline: S.clock.deadline } }));
    panel.appendChild(el("div", { class: "phead" },
      el("span", { class: "pname" }, seatName(p)), tags,
      el("span", { class: "grow" }),
      el("span", { class: "points", title: t("points") }, el("b", { class: "pts-val" }, String(st.points)), " " + t("pts"))));
    const row = el("div", { class: "prow" });
    row.appendChild(resourceBoard(st.resources));
    if (st.contracts.length) {
      row.appendChild(el("div", { class: "fulfilled", title: t("fulfilled") }, st.contracts.map((id) => {
        const c = contract(id);
        return el("span", { class: "mini-contract kind-" + c.kind, title: contractLabel(id) }, c.kind_name + " " + c.points);
      })));
    }
    panel.appendChild(row);
    const cars = el("div", { class: "caravans" });
    const turnActs = isViewer ? legal.filter((a) => /^\d[ABPX]$/.test(a)) : [];
    const cardActs = isViewer ? legal.filter((a) => a.startsWith("card ")) : [];
    st.caravans.forEach((cards, ci) => {
      const c = ci + 1;
      const lane = el("div", { class: "caravan", dataset: { caravan: c } }, el("div", { class: "clabel" }, t("caravan", c)));
      const lineup = el("div", { class: "lineup" });
      cards.forEach((id, pos) => {
        const buttons = [];
        if (pos === 0) {
          for (const slot of "ABPX") {
            const a = c + slot;
            if (turnActs.includes(a)) buttons.push([a, slot === "X" ? "→" : slot, t("opt_" + slot) + (slotText(id, slot) ? ": " + slotText(id, slot) : "")]);
          }
        }
        const pick = "card " + c + "." + (pos + 1);
        if (cardActs.includes(pick)) buttons.push([pick, "✓", actionLabel(pick, view)]);
        lineup.appendChild(cardEl(id, { front: pos === 0, small: pos !== 0, buttons }));
      });
      if (!cards.length) lineup.appendChild(el("div", { class: "card empty" }, t("empty")));
      lane.appendChild(lineup);
      cars.appendChild(lane);
    });
    panel.appendChild(cars);
    return panel;
  }

  function marketEl(view, legal) {
    const m = el("section", { class: "market" });
    const pend = view.pending;
    const fulfilNow = pend.kind === "contract" && !pend.drawn;
    const display = el("div", { class: "display", id: "display" });
    for (const id of view.display) {
      const a = "fulfil " + id;
      display.appendChild(contractEl(id, fulfilNow && legal.includes(a) ? [[a, t("fulfil", "")]] : []));
    }
    m.appendChild(el("div", { class: "mblock" }, el("h3", {}, t("contracts")), display));
    const decks = el("div", { class: "decks" });
    for (const name of ["standard", "special", "contracts"]) {
      const d = view.decks[name];
      const known = d.under.filter((x) => x);
      decks.appendChild(el("div", { class: "deck deck-" + name, dataset: { deck: name } },
        el("span", { class: "dname" }, t("deck_" + name)), el("b", { class: "dsize" }, String(d.size)),
        known.length ? el("span", { class: "muted small" }, " " + t("under") + " " + known.map((x) => name === "contracts" ? contract(x).kind_name : person(x).name).join(", ")) : null));
    }
    m.appendChild(el("div", { class: "mblock" }, el("h3", {}, t("decks")), decks, pileEl("discard", view.discard), pileEl("box", view.box)));
    return m;
  }

  function pileEl(name, cards) {
    const open = openPiles[name];
    const wrap = el("div", { class: "pile", id: "pile-" + name },
      el("button", { type: "button", class: "pile-toggle", id: name + "-toggle", "aria-expanded": open ? "true" : "false",
        onclick: () => { openPiles[name] = !openPiles[name]; render(); } },
      t(name) + " (" + cards.length + ") " + (open ? "▴" : "▾")));
    if (open) {
      const list = el("div", { class: "pile-cards" });
      if (!cards.length) list.appendChild(el("span", { class: "muted" }, t("empty")));
      cards.forEach((id) => list.appendChild(cardEl(id, { small: true })));
      wrap.appendChild(list);
    }
    return wrap;
  }

  function sideEl(view, legal) {
    const side = el("aside", { class: "side" });
    if (legal.length) {
      const list = el("div", { class: "actions", id: "actions" }, el("h3", {}, t("actions")));
      for (const a of legal) list.appendChild(actButton(a, actionLabel(a, view, true)));
      side.appendChild(list);
    }
    if (!RECORD_MODE && S) side.appendChild(controlsEl());
    side.appendChild(logEl());
    return side;
  }

  function controlsEl() {
    const box = el("div", { class: "controls", id: "controls" });
    if (S.status === "active" && !hist) {
      if (S.undo && S.undo.can) {
        box.appendChild(el("button", { type: "button", id: "undo", onclick: () => doUndo(null) },
          "↶ " + t(S.undo.consent ? "ask_undo" : "undo")));
      }
      const seatInfo = S.seats[me];
      if (seatInfo && !seatInfo.taken_over) {
        box.appendChild(el("button", { type: "button", id: "resign", class: "danger", onclick: doResign }, t("resign")));
      }
    }
    if (S.status === "finished") {
      box.appendChild(el("button", { type: "button", id: "download", onclick: download }, "⤓ " + t("record")));
      if (!hist) box.appendChild(el("button", { type: "button", id: "replay", onclick: () => showAt(0, me) }, "|◀ " + t("replay")));
    }
    const hook = el("input", { type: "url", id: "webhook-url", placeholder: "https://…", value: S.webhook || "" });
    const saved = el("span", { class: "muted small" });
    box.appendChild(el("details", { class: "webhook" }, el("summary", {}, t("webhook")),
      el("form", { onsubmit: async (e) => {
        e.preventDefault();
        try {
          await api("POST", "/api/games/" + encodeURIComponent(gid) + "/webhook", { url: hook.value.trim() || null }, token);
          saved.textContent = t("saved");
        } catch (ex) { toast(ex.message); }
      } }, hook, el("button", { type: "submit" }, t("save")), saved)));
    return box;
  }

  function logEl() {
    const box = el("div", { class: "log", id: "log" }, el("h3", {}, t("log")));
    const entries = hist && record ? hist.log : log;
    const list = el("ol", { class: "entries" });
    const targets = (!hist && S && S.undo && S.undo.can && !S.undo.consent && S.undo.targets) || [];
    let lastTurn = -1;
    entries.forEach((e) => {
      const cls = ["entry"];
      if (e.auto) cls.push("auto");
      if (hist && e.seq === hist.at - 1) cls.push("current");
      if (hist && e.seq >= hist.at) cls.push("future");
      const li = el("li", { class: cls.join(" "), dataset: { seq: e.seq } },
        e.turn !== lastTurn ? el("span", { class: "lturn" }, String(e.turn + 1)) : el("span", { class: "lturn" }),
        el("button", { type: "button", class: "ltext", title: t("history", e.seq + 1, entries.length),
          onclick: () => showAt(e.seq + 1, hist ? hist.as : me) }, logText(e)),
        e.bot ? el("span", { class: "tag bot small" }, t("bot")) : null,
        targets.includes(e.seq) ? el("button", { type: "button", class: "small undo-to", title: t("undo_here"),
          onclick: () => doUndo(e.seq) }, "↶") : null);
      lastTurn = e.turn;
      list.appendChild(li);
    });
    box.appendChild(list);
    requestAnimationFrame(() => {
      const cur = list.querySelector(".current");
      if (cur) cur.scrollIntoView({ block: "nearest" });
      else if (!hist) list.scrollTop = list.scrollHeight;
    });
    return box;
  }

  function uploadPanel() {
    const err = el("p", { class: "error", id: "upload-error", role: "alert" });
    const input = el("input", { type: "file", id: "record-file", accept: ".json,application/json", onchange: async (e) => {
      const f = e.target.files[0];
      if (!f) return;
      try {
        const text = await f.text();
        JSON.parse(text);  // a clear message for a file that is not JSON at all
        record = text;
        await showAt(0, 0);
      } catch (ex) {
        record = null;
        err.textContent = t("invalid_record", ex.message);
      }
    } });
    return el("main", { class: "lobby-main" }, el("section", { class: "panel" }, el("h2", {}, t("viewer")),
      el("p", {}, t("upload_hint")), input, err));
  }

  function tickClock() {
    for (const n of document.querySelectorAll(".tag.clock")) {
      const left = Number(n.dataset.deadline) - (Date.now() / 1000 + clockOffset);
      n.textContent = "⏱ " + t("clock_left", K.fmtDuration(left));
      n.classList.toggle("low", left < 30);
    }
  }

  // ------------------------------------------------------------------ actions

  async function send(a) {
    if (busy || awaitVersion || !S) return;
    busy = true;
    render();
    try {
      const d = await api("POST", "/api/games/" + encodeURIComponent(gid) + "/move", { version: S.version, action: a }, token);
      // The WebSocket brings the new state; fall back to asking if it is slow or gone.
      if (S.version < d.version) awaitVersion = d.version;
      setTimeout(() => { if (S && S.version < d.version) refresh(); }, wsOpen ? 1500 : 0);
    } catch (e) {
      toast(e.message);
      refresh();
    } finally {
      busy = false;
      render();
    }
  }

  async function doUndo(to) {
    try {
      const body = { version: S.version };
      if (to !== null) body.to = to;
      await api("POST", "/api/games/" + encodeURIComponent(gid) + "/undo", body, token);
      hist = null;
      refresh();
    } catch (e) { toast(e.message); }
  }

  async function answerUndo(accept) {
    try {
      await api("POST", "/api/games/" + encodeURIComponent(gid) + "/undo/answer", { version: S.version, accept }, token);
      refresh();
    } catch (e) { toast(e.message); }
  }

  async function doResign() {
    if (!confirm(t("resign_confirm"))) return;
    try {
      await api("POST", "/api/games/" + encodeURIComponent(gid) + "/resign", { version: S.version }, token);
      refresh();
    } catch (e) { toast(e.message); }
  }

  async function download() {
    try {
      const r = await fetch("/api/games/" + encodeURIComponent(gid) + "/record", { headers: { authorization: "Bearer " + token } });
      if (!r.ok) throw new Error((await r.json()).error);
      const blob = await r.blob();
      const url = URL.createObjectURL(blob);
      const a = el("a", { href: url, download: "kashgar-" + gid + ".json" });
      document.body.appendChild(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10000);
    } catch (e) { toast(e.message); }
  }

  async function showAt(at, as) {
    try {
      if (RECORD_MODE) {
        const d = await api("POST", "/api/records/view", { raw: '{"at":' + Number(at) + ',"as":' + Number(as || 0) + ',"record":' + record + "}" });
        recSeats = d.seats;
        hist = { at: d.at, total: d.total, view: d.view, as: as || 0, log: d.log };
      } else {
        const q = "?at=" + at + (as !== me ? "&as=" + as : "");
        const d = await api("GET", "/api/games/" + encodeURIComponent(gid) + "/view" + q, undefined, token);
        hist = { at: d.at, total: d.total, view: d.view, as };
      }
      render();
    } catch (e) {
      if (RECORD_MODE && !hist) { record = null; render(); setTimeout(() => toast(t("invalid_record", e.message)), 50); }
      else toast(e.message);
    }
  }

  // ------------------------------------------------------------------ live state

  function accept(msg) {
    if (msg.type !== "state") return;
    if (S && msg.version < S.version) return;  // an older answer overtaken by the socket
    if (msg.log_from <= log.length) log = log.slice(0, msg.log_from).concat(msg.log);
    else { refresh(); return; }
    S = msg;
    if (S.version >= awaitVersion) awaitVersion = 0;
    clockOffset = msg.clock.now - Date.now() / 1000;
    render();
  }

  async function refresh() {
    try {
      const d = await api("GET", "/api/games/" + encodeURIComponent(gid), undefined, token);
      accept(d);
    } catch (e) {
      toast(e.message);
    }
  }

  function connect() {
    if (ws) { try { ws.close(); } catch (e) { /* closed */ } }
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    const sock = new WebSocket(proto + "//" + location.host + "/ws/games/" + encodeURIComponent(gid));
    ws = sock;
    sock.onopen = () => { sock.send(JSON.stringify({ token })); };
    sock.onmessage = (ev) => {
      const msg = JSON.parse(ev.data);
      if (msg.type === "error") { toast(msg.error); return; }
      if (msg.type === "state") {
        if (!wsOpen) { wsOpen = true; wsRetry = 0; }
        accept(msg);
      }
    };
    sock.onclose = () => {
      if (ws !== sock) return;
      wsOpen = false;
      render();
      wsRetry = Math.min(wsRetry + 1, 5);
      clearTimeout(wsTimer);
      wsTimer = setTimeout(connect, 500 * wsRetry);
    };
  }

  function switchSeat(seat) {
    const s = mySeats.find((x) => x.seat === seat);
    if (!s) return;
    token = s.token;
    me = seat;
    hist = null;
    S = null;
    log = [];
    wsOpen = false;
    history.replaceState(null, "", location.pathname + "?seat=" + (seat + 1));
    refresh();
    connect();
  }

  async function loadCards() { C = await K.cards(); }

  async function start() {
    await loadCards();
    if (RECORD_MODE) { render(); return; }
    mySeats = K.seatsOf(gid).sort((a, b) => a.seat - b.seat);
    if (!mySeats.length) {
      const app = clear(document.getElementById("app"));
      app.appendChild(header());
      app.appendChild(el("main", { class: "lobby-main" }, el("section", { class: "panel" },
        el("p", { class: "error", id: "no-seat" }, "This browser has no seat in this game. / Dieser Browser hat keinen Platz in diesem Spiel."),
        el("a", { href: "/", class: "button" }, t("my_games")))));
      return;
    }
    const want = Number(new URLSearchParams(location.search).get("seat")) - 1;
    const chosen = mySeats.find((s) => s.seat === want) || mySeats[0];
    token = chosen.token;
    me = chosen.seat;
    await refresh();
    connect();
    setInterval(tickClock, 1000);
    document.addEventListener("keydown", (e) => { if (e.key === "Escape" && info) { info = null; drawInfo(); } });
  }
  start();
})();
