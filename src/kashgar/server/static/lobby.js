/* The lobby: my games (the ones waiting for me on top) and the form to create a game. */
"use strict";

(() => {
  const { t, el, clear, api } = K;
  let meta = null;
  let created = null;  // the last game created here: its invitation links
  let form = null;     // the form's values survive re-rendering (language switch)
  let timer = null;

  function defaultForm() {
    return {
      seats: [{ kind: "human", name: localStorage.getItem("kashgar.name") || "", bot: "heuristic" },
              { kind: "bot", name: "", bot: "heuristic" }],
      exp: "none", expIds: [], house: [], clock: 0, me: true,
    };
  }

  async function render() {
    const app = clear(document.getElementById("app"));
    app.appendChild(el("header", { class: "top" },
      el("a", { href: "/", class: "brand" }, "Kashgar"),
      el("span", { class: "sub" }, t("rules_hint")),
      el("span", { class: "grow" }),
      el("a", { href: "/viewer", class: "navlink", id: "viewer-link" }, t("upload")),
      K.langButton(render)));
    const main = el("main", { class: "lobby-main" });
    app.appendChild(main);
    const games = el("section", { class: "panel", id: "my-games" }, el("h2", {}, t("my_games")));
    main.appendChild(games);
    main.appendChild(createSection());
    await loadGames(games);
  }

  async function loadGames(section) {
    const stored = K.seatsStored();
    const list = el("ul", { class: "games" });
    let mine = 0;
    if (stored.length) {
      try {
        const d = await api("POST", "/api/my-games", { tokens: stored.map((s) => s.token) });
        for (const g of d.games) {
          if (g.your_turn) mine += 1;
          list.appendChild(gameRow(g));
        }
      } catch (e) {
        list.appendChild(el("li", { class: "error" }, e.message));
      }
    }
    while (section.childNodes.length > 1) section.removeChild(section.lastChild);
    section.appendChild(list.childNodes.length ? list : el("p", { class: "muted" }, t("no_games")));
    document.title = (mine ? "(" + mine + ") " + t("your_turn") + " — " : "") + "Kashgar";
  }

  function gameRow(g) {
    const names = g.players.map((p, i) => {
      const who = el("span", { class: "who" + (i === g.seat ? " me" : "") }, p.name);
      return el("span", { class: "pl" }, who, " ", el("b", {}, String(p.points)));
    });
    let status;
    if (g.status === "finished") {
      status = el("span", { class: "badge done" }, t("won", g.players[g.ranking[0]].name));
    } else if (g.your_turn) {
      status = el("span", { class: "badge turn" }, t("your_turn"));
    } else {
      status = el("span", { class: "badge wait" }, t("waiting_for", g.to_move >= 0 ? g.players[g.to_move].name : "?"));
    }
    // Invitation links this browser made for seats nobody has taken yet.
    const open = (K.invitesStored()[g.game] || []).filter((inv) => g.players[inv.seat] && !g.players[inv.seat].claimed);
    const invites = open.length && g.status === "active" ? el("details", { class: "pending-invites" },
      el("summary", {}, t("invites") + " (" + open.length + ")"),
      el("ul", { class: "invites" }, open.map((inv) => el("li", {}, el("span", { class: "num" }, t("seat") + " " + (inv.seat + 1)),
        el("input", { readonly: true, value: location.origin + inv.url, class: "invite-url" }))))) : null;
    return el("li", { class: "game" + (g.your_turn ? " your-turn" : ""), dataset: { game: g.game } },
      el("a", { href: "/game/" + encodeURIComponent(g.game), class: "open" }, status,
        el("span", { class: "players" }, names),
        el("span", { class: "muted" }, t("turn_n", g.turn + 1))), invites);
  }

  function createSection() {
    form = form || defaultForm();
    const sec = el("section", { class: "panel", id: "new-game" }, el("h2", {}, t("new_game")));
    const seatsBox = el("div", { class: "seats" });
    const drawSeats = () => {
      clear(seatsBox);
      form.seats.forEach((s, i) => {
        const kind = el("select", { name: "kind" + i, "aria-label": t("seat") + " " + (i + 1), onchange: (e) => {
          s.kind = e.target.value; drawSeats();
        } }, el("option", { value: "human" }, t("person")), el("option", { value: "bot" }, t("bot")));
        kind.value = s.kind;
        if (i === 0 && form.me) { kind.value = "human"; s.kind = "human"; kind.disabled = true; }
        const name = el("input", { name: "name" + i, placeholder: s.kind === "bot" ? "Bot " + (i + 1) : t("name"),
          maxlength: 40, value: s.name, oninput: (e) => { s.name = e.target.value; } });
        const level = el("select", { name: "bot" + i, "aria-label": t("level"), onchange: (e) => { s.bot = e.target.value; } },
          (meta ? meta.bots : ["heuristic"]).map((b) => el("option", { value: b }, K.botName(b))));
        level.value = s.bot;
        const remove = form.seats.length > 2 ? el("button", { type: "button", class: "small", title: "−", onclick: () => {
          form.seats.splice(i, 1); drawSeats();
        } }, "−") : null;
        seatsBox.appendChild(el("div", { class: "seat-row" }, el("span", { class: "num" }, String(i + 1)), kind, name,
          s.kind === "bot" ? level : null, remove));
      });
      if (form.seats.length < 4) {
        seatsBox.appendChild(el("button", { type: "button", class: "small", id: "add-seat", onclick: () => {
          form.seats.push({ kind: "bot", name: "", bot: "heuristic" }); drawSeats();
        } }, "+ " + t("seat")));
      }
    };
    drawSeats();
    const me = el("label", { class: "check" }, el("input", { type: "checkbox", name: "me", checked: form.me, onchange: (e) => {
      form.me = e.target.checked; drawSeats();
    } }), " " + t("i_play"));

    const expBox = el("div", { class: "exp" });
    const drawExp = () => {
      clear(expBox);
      for (const v of ["none", "all", "some"]) {
        expBox.appendChild(el("label", { class: "check" }, el("input", { type: "radio", name: "exp", value: v,
          checked: form.exp === v, onchange: () => { form.exp = v; drawExp(); } }),
        " " + t(v === "none" ? "exp_none" : v === "all" ? "exp_all" : "exp_some")));
      }
      if (form.exp === "some" && meta) {
        const ids = el("div", { class: "exp-ids" });
        for (const c of meta.expansion) {
          ids.appendChild(el("label", { class: "check" }, el("input", { type: "checkbox", name: "exp-" + c.id,
            checked: form.expIds.includes(c.id), onchange: (e) => {
              form.expIds = form.expIds.filter((x) => x !== c.id);
              if (e.target.checked) form.expIds.push(c.id);
            } }), " " + (K.getLang() === "de" ? c.de : c.en)));
        }
        expBox.appendChild(ids);
      }
    };
    drawExp();
    const house = el("div", { class: "house" }, (meta ? meta.house : []).map((h) => el("label", { class: "check" },
      el("input", { type: "checkbox", name: "house-" + h, checked: form.house.includes(h), onchange: (e) => {
        form.house = form.house.filter((x) => x !== h);
        if (e.target.checked) form.house.push(h);
      } }), " " + t("house_" + h))));
    const clocks = [[0, t("no_clock")], [60, "1 " + t("minutes")], [300, "5 " + t("minutes")], [3600, "1 " + t("hours")],
      [86400, "24 " + t("hours")], [259200, "3 " + t("days")]];
    const clock = el("select", { name: "clock", onchange: (e) => { form.clock = Number(e.target.value); } },
      clocks.map(([v, label]) => el("option", { value: v }, label)));
    clock.value = String(form.clock);
    const out = el("div", { class: "created", id: "created" });
    if (created) drawCreated(out);
    const err = el("p", { class: "error", id: "create-error", role: "alert" });
    const submit = el("button", { type: "submit", class: "primary", id: "create" }, t("create"));
    const f = el("form", { onsubmit: async (e) => {
      e.preventDefault();
      err.textContent = "";
      const body = {
        seats: form.seats.map((s) => s.kind === "bot" ? { kind: "bot", bot: s.bot, name: s.name || null }
          : { kind: "human", name: s.name || null }),
        expansion: form.exp === "all" ? "all" : form.exp === "some" ? form.expIds : [],
        house: form.house, clock: form.clock || null, claim: form.me ? 0 : null,
      };
      if (form.me && form.seats[0].name) localStorage.setItem("kashgar.name", form.seats[0].name);
      submit.disabled = true;
      try {
        const d = await api("POST", "/api/games", body);
        if (d.token) K.storeSeat(d.game, d.seat, d.token);
        K.storeInvites(d.game, d.invites);
        created = d;
        drawCreated(out);
        if (!d.invites.length && d.token) location.href = "/game/" + encodeURIComponent(d.game);
      } catch (ex) {
        err.textContent = ex.message;
      } finally {
        submit.disabled = false;
      }
    } },
    el("fieldset", {}, el("legend", {}, t("seats")), seatsBox, me),
    el("fieldset", {}, el("legend", {}, t("expansion")), expBox),
    el("fieldset", {}, el("legend", {}, t("house")), house),
    el("fieldset", {}, el("legend", {}, t("clock")), clock),
    err, submit);
    sec.appendChild(f);
    sec.appendChild(out);
    return sec;
  }

  function drawCreated(out) {
    clear(out);
    const d = created;
    if (d.invites.length) {
      out.appendChild(el("h3", {}, t("invites")));
      out.appendChild(el("p", { class: "muted" }, t("invite_hint")));
      const ul = el("ul", { class: "invites" });
      for (const inv of d.invites) {
        const url = location.origin + inv.url;
        const input = el("input", { readonly: true, value: url, class: "invite-url", dataset: { seat: inv.seat } });
        const copy = el("button", { type: "button", class: "small", onclick: async () => {
          input.select();
          try { await navigator.clipboard.writeText(url); copy.textContent = t("copied"); } catch (e) { document.execCommand("copy"); }
        } }, t("copy"));
        ul.appendChild(el("li", {}, el("span", { class: "num" }, t("seat") + " " + (inv.seat + 1)), input, copy));
      }
      out.appendChild(ul);
    }
    if (d.token) {
      out.appendChild(el("a", { class: "button primary", id: "open-table", href: "/game/" + encodeURIComponent(d.game) },
        t("open_table")));
    }
  }

  async function start() {
    try { meta = await api("GET", "/api/meta"); } catch (e) { meta = null; }
    await render();
    timer = setInterval(() => {
      const games = document.getElementById("my-games");
      if (games && !document.hidden) loadGames(games);
    }, 15000);
  }
  start();
  window.addEventListener("beforeunload", () => clearInterval(timer));
})();
