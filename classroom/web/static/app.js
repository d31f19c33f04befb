// toolgate's phone page: follows the room through Server-Sent Events and
// sends answers. No framework; every text goes in by textContent, never
// as markup.
"use strict";
(function () {
  var join = document.getElementById("join");
  if (join && document.getElementById("token")) {
    // The QR link's token: join at once, one tap fewer.
    join.submit();
    return;
  }
  var room = document.getElementById("room");
  if (!room) return;
  var meta = document.querySelector('meta[name="csrf-token"]');
  var csrf = meta ? meta.getAttribute("content") : "";
  var t = function (k) { return room.getAttribute("data-t-" + k) || ""; };
  var lang = room.getAttribute("data-lang") || "en";
  var offline = document.getElementById("offline");

  function el(tag, attrs, text) {
    var e = document.createElement(tag);
    for (var k in attrs || {}) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function clear(id) {
    var e = document.getElementById(id);
    while (e.firstChild) e.removeChild(e.firstChild);
    return e;
  }
  function button(st, step, code, label, meaning) {
    var form = el("form", { method: "post", action: "/answer" });
    form.appendChild(el("input", { type: "hidden", name: "csrf", value: csrf }));
    form.appendChild(el("input", { type: "hidden", name: "choice", value: String(step) }));
    form.appendChild(el("input", { type: "hidden", name: "round", value: String(st.round) }));
    if (code) form.appendChild(el("input", { type: "hidden", name: "code", value: code }));
    var picked = st.yours === step && (!code || st.yoursCode === code);
    var b = el("button", { type: "submit", "aria-pressed": picked ? "true" : "false" });
    if (picked) { b.className = "picked"; b.appendChild(el("span", { "class": "tick" }, "✓ ")); }
    if (code) { b.appendChild(el("span", { "class": "code" }, code)); b.appendChild(document.createTextNode(" — " + meaning)); }
    else b.appendChild(document.createTextNode(label));
    form.appendChild(b);
    return form;
  }
  function render(st) {
    document.getElementById("status").textContent = st.status || "";
    var ended = document.getElementById("ended");
    if (st.ended) {
      if (!ended) { ended = el("p", { id: "ended", "class": "ended" }); document.getElementById("status").after(ended); }
      ended.textContent = st.ended;
    } else if (ended) ended.remove();
    var scene = clear("scene");
    if (st.number) scene.appendChild(el("h2", {}, t("scenario") + " " + st.number + (st.title ? " · " + st.title : "")));
    if (st.scene) scene.appendChild(el("p", {}, st.scene));
    var q = clear("question");
    if (st.question) {
      q.appendChild(el("h3", { id: "prompt" }, st.question.prompt));
      var ul = el("ul", { "class": "choices", "aria-labelledby": "prompt" });
      st.question.choices.forEach(function (c) {
        var li = el("li");
        if (c.codes && c.codes.length) {
          var fs = el("fieldset");
          fs.appendChild(el("legend", {}, c.label));
          c.codes.forEach(function (k) { fs.appendChild(button(st, c.step, k.code, "", k.meaning)); });
          li.appendChild(fs);
        } else li.appendChild(button(st, c.step, "", c.label));
        ul.appendChild(li);
      });
      q.appendChild(ul);
      if (st.yours) q.appendChild(el("p", { id: "sent", "class": "sent" }, t("sent")));
    }
    var r = clear("reveal");
    if (st.reveal) {
      var v = st.reveal;
      r.appendChild(el("h3", {}, t("verdict")));
      var p = el("p", { "class": "verdict tone-" + (v.tone || "unknown") });
      p.appendChild(el("span", { "class": "symbol" }, v.symbol));
      p.appendChild(document.createTextNode(" "));
      p.appendChild(el("strong", {}, v.word));
      p.appendChild(document.createTextNode(" · " + v.headline));
      r.appendChild(p);
      r.appendChild(el("h3", {}, t("decided")));
      r.appendChild(el("p", { "class": "decided" }, v.decided));
      r.appendChild(el("p", { "class": "mark" + (v.mark ? " mark-" + v.mark : "") }, v.markText || t("noanswer")));
      r.appendChild(el("h3", {}, t("notprove")));
      var ul2 = el("ul", { "class": "notprove" });
      (v.notProve || []).forEach(function (line) {
        var li = el("li");
        li.appendChild(el("strong", {}, line.label));
        li.appendChild(document.createTextNode(" " + line.text));
        ul2.appendChild(li);
      });
      r.appendChild(ul2);
    }
  }

  // Answers go by fetch, the token in a header; the stream brings the
  // room's answer back. Without the script, the forms post as they are.
  document.addEventListener("submit", function (ev) {
    var form = ev.target;
    if (form.getAttribute("action") !== "/answer") return;
    ev.preventDefault();
    fetch("/answer", {
      method: "POST", credentials: "same-origin",
      headers: { "X-CSRF-Token": csrf, "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(new FormData(form)).toString()
    }).catch(function () { offline.hidden = false; });
  });

  // The stream reconnects by itself; after an error that closed it (a
  // server that restarted, a network that changed) it is opened again.
  var source = null;
  function connect() {
    source = new EventSource("/events?lang=" + encodeURIComponent(lang));
    source.onopen = function () { offline.hidden = true; };
    source.onmessage = function (ev) {
      offline.hidden = true;
      try { render(JSON.parse(ev.data)); } catch (e) { /* a broken event is skipped */ }
    };
    source.onerror = function () {
      offline.hidden = false;
      if (source.readyState === EventSource.CLOSED) {
        setTimeout(function () {
          // The cookie may have lapsed with a server that restarted: the
          // page then asks for the code again.
          fetch("/events?lang=" + lang, { method: "HEAD" }).then(function (res) {
            if (res.status === 401) location.reload(); else connect();
          }, function () { connect(); });
        }, 3000);
      }
    };
  }
  connect();
  window.addEventListener("online", function () { if (source && source.readyState === EventSource.CLOSED) connect(); });
})();
