/* Opening an invitation link: claim the seat for this browser (the seat's secret stays here). */
"use strict";

(() => {
  const { t, el, clear, api } = K;
  const code = decodeURIComponent(location.pathname.split("/").pop());

  async function claim(name) {
    const d = await api("POST", "/api/invites/" + encodeURIComponent(code), { name: name || null });
    K.storeSeat(d.game, d.seat, d.token);
    if (name) localStorage.setItem("kashgar.name", name);
    location.replace("/game/" + encodeURIComponent(d.game));
  }

  async function render() {
    const app = clear(document.getElementById("app"));
    app.appendChild(el("header", { class: "top" }, el("a", { href: "/", class: "brand" }, "Kashgar"),
      el("span", { class: "grow" }), K.langButton(render)));
    const box = el("section", { class: "panel join" });
    app.appendChild(el("main", { class: "lobby-main" }, box));
    let info;
    try {
      info = await api("GET", "/api/invites/" + encodeURIComponent(code));
    } catch (e) {
      box.appendChild(el("h2", {}, t("join_title")));
      box.appendChild(el("p", { class: "error", id: "join-error" }, t("join_used")));
      box.appendChild(el("a", { href: "/", class: "button" }, t("my_games")));
      return;
    }
    const known = localStorage.getItem("kashgar.name");
    if (known && !render.tried) {  // a browser that knows its player's name takes the seat at once
      render.tried = true;
      try { await claim(known); return; } catch (e) { /* fall through to the form */ }
    }
    box.appendChild(el("h2", {}, t("join_title")));
    box.appendChild(el("p", {}, t("join_seat", info.seat + 1, info.seats.length + " " + t("players"))));
    box.appendChild(el("ul", { class: "plain" }, info.seats.map((s) => el("li", {},
      el("span", { class: "num" }, String(s.seat + 1)), " ", s.seat === info.seat ? el("b", {}, "→ " + t("you")) : s.name,
      s.bot ? " (" + t("bot") + ": " + K.botName(s.bot) + ")" : ""))));
    const err = el("p", { class: "error", id: "join-error", role: "alert" });
    const name = el("input", { name: "name", maxlength: 40, placeholder: t("name"),
      value: localStorage.getItem("kashgar.name") || "" });
    box.appendChild(el("form", { onsubmit: async (e) => {
      e.preventDefault();
      try { await claim(name.value.trim()); } catch (ex) { err.textContent = ex.message; }
    } }, el("label", {}, t("name") + " ", name), " ",
    el("button", { type: "submit", class: "primary", id: "take-seat" }, t("take_seat")), err));
  }
  render();
})();
