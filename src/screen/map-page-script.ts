// The map page's one script (allowed by its hash): pan and zoom on the graph (drag, wheel, the
// +, − and fit buttons), search by waypoint id (matches highlighted, the rest dimmed, Enter opens
// the first), and a click on a node opening a copy of its card in the side panel, its shortcuts
// highlighted. It reads the page (data-node, data-edge, the cards) and writes only classes,
// attributes and copies of the page's own elements: no map text ever goes through innerHTML.
// Plain ES2020 kept as text: the page runs it as it is, with no build step and no DOM types here.

export const MAP_SCRIPT = `(() => {
  "use strict";
  const svg = document.getElementById("graph");
  const box = document.getElementById("graph-box");
  const view = document.getElementById("viewport");
  const panel = document.getElementById("panel");
  const search = document.getElementById("search");
  const found = document.getElementById("found");
  if (!svg || !box || !view || !panel) return;
  const W = svg.viewBox.baseVal.width;
  const H = svg.viewBox.baseVal.height;
  const nodes = Array.from(svg.querySelectorAll("[data-node]"));
  const edges = Array.from(svg.querySelectorAll("[data-edge]"));
  const cards = Array.from(document.querySelectorAll("section.waypoint"));
  document.documentElement.classList.add("js");
  document.getElementById("controls").hidden = false;
  svg.removeAttribute("viewBox");
  svg.setAttribute("width", "100%");
  svg.setAttribute("height", "100%");

  let t = { x: 0, y: 0, k: 1 };
  const apply = () => {
    view.setAttribute("transform", "translate(" + t.x + "," + t.y + ") scale(" + t.k + ")");
    // Zoomed far out, the shortcuts' labels are too small to read: hidden until zoomed in.
    svg.classList.toggle("far", t.k < 0.4);
  };
  const clampK = (k) => Math.min(3, Math.max(0.04, k));
  const size = () => box.getBoundingClientRect();
  const fit = () => {
    const r = size();
    const k = clampK(Math.min(1, Math.min(r.width / W, r.height / H) * 0.98));
    t = { k, x: (r.width - W * k) / 2, y: Math.max(0, (r.height - H * k) / 2) };
    apply();
  };
  const zoomAt = (px, py, factor) => {
    const k = clampK(t.k * factor);
    t = { k, x: px - ((px - t.x) * k) / t.k, y: py - ((py - t.y) * k) / t.k };
    apply();
  };
  const centreOn = (node) => {
    const r = size();
    const k = Math.max(t.k, 0.8);
    t = { k, x: r.width / 2 - Number(node.dataset.cx) * k, y: r.height / 2 - Number(node.dataset.cy) * k };
    apply();
  };

  box.addEventListener("wheel", (e) => {
    e.preventDefault();
    const r = size();
    zoomAt(e.clientX - r.left, e.clientY - r.top, Math.exp(-e.deltaY * (e.deltaMode === 1 ? 0.05 : 0.0015)));
  }, { passive: false });
  let drag = null;
  let dragged = false;
  box.addEventListener("pointerdown", (e) => {
    if (e.button !== 0) return;
    drag = { x: e.clientX, y: e.clientY, tx: t.x, ty: t.y, id: e.pointerId };
    dragged = false;
  });
  box.addEventListener("pointermove", (e) => {
    if (!drag || e.pointerId !== drag.id) return;
    const dx = e.clientX - drag.x;
    const dy = e.clientY - drag.y;
    if (!dragged && Math.abs(dx) + Math.abs(dy) < 5) return;
    if (!dragged) box.setPointerCapture(e.pointerId);
    dragged = true;
    box.classList.add("dragging");
    t = { k: t.k, x: drag.tx + dx, y: drag.ty + dy };
    apply();
  });
  const endDrag = () => {
    drag = null;
    box.classList.remove("dragging");
  };
  box.addEventListener("pointerup", endDrag);
  box.addEventListener("pointercancel", endDrag);
  for (const button of document.querySelectorAll("[data-zoom]")) {
    button.addEventListener("click", () => {
      const r = size();
      const how = button.getAttribute("data-zoom");
      if (how === "fit") fit();
      else zoomAt(r.width / 2, r.height / 2, how === "in" ? 1.4 : 1 / 1.4);
    });
  }

  const nodeOf = (id) => nodes.find((n) => n.dataset.node === id);
  const clearSelection = () => {
    for (const n of nodes) n.classList.remove("selected");
    for (const e of edges) e.classList.remove("hi");
  };
  const closePanel = () => {
    panel.hidden = true;
    panel.replaceChildren();
    clearSelection();
  };
  const openCard = (id) => {
    const card = cards.find((c) => c.dataset.waypoint === id);
    if (!card) return false;
    const copy = card.cloneNode(true);
    copy.removeAttribute("id");
    for (const el of copy.querySelectorAll("[id]")) el.removeAttribute("id");
    for (const details of copy.querySelectorAll("details")) details.open = true;
    copy.classList.add("in-panel");
    const bar = document.createElement("div");
    bar.className = "panel-bar";
    const close = document.createElement("button");
    close.type = "button";
    close.className = "close";
    close.textContent = "close ✕";
    close.addEventListener("click", closePanel);
    const inList = document.createElement("a");
    inList.className = "to-list";
    inList.href = "#" + card.id;
    inList.textContent = "in the list ↓";
    bar.append(inList, close);
    panel.replaceChildren(bar, copy);
    panel.hidden = false;
    panel.scrollTop = 0;
    return true;
  };
  const select = (id, centre) => {
    clearSelection();
    const node = nodeOf(id);
    if (node) node.classList.add("selected");
    for (const e of edges) if (e.dataset.from === id || e.dataset.to === id) e.classList.add("hi");
    openCard(id);
    // The panel narrows the graph's box: a node it pushed out of view is brought back to the middle.
    const r = size();
    const at = node && node.getBoundingClientRect();
    if (node && (centre || at.left < r.left || at.right > r.right || at.top < r.top || at.bottom > r.bottom)) centreOn(node);
  };

  svg.addEventListener("click", (e) => {
    const link = e.target.closest("a[data-node]");
    if (dragged) {
      e.preventDefault();
      dragged = false;
      return;
    }
    if (!link) return;
    e.preventDefault();
    select(link.dataset.node, false);
  });
  panel.addEventListener("click", (e) => {
    const link = e.target.closest("a[href^='#wp-']");
    if (!link || link.classList.contains("to-list")) return;
    const card = document.getElementById(link.getAttribute("href").slice(1));
    if (!card) return;
    e.preventDefault();
    select(card.dataset.waypoint, true);
  });
  document.addEventListener("keydown", (e) => {
    if (e.key === "Escape" && !panel.hidden) closePanel();
  });

  const matching = () => {
    const q = search.value.trim().toLowerCase();
    return q === "" ? null : nodes.filter((n) => n.dataset.node.toLowerCase().includes(q));
  };
  const highlight = () => {
    const matches = matching();
    const hit = new Set(matches || []);
    for (const n of nodes) {
      n.classList.toggle("match", matches !== null && hit.has(n));
      n.classList.toggle("dim", matches !== null && !hit.has(n));
    }
    const ids = new Set(Array.from(hit, (n) => n.dataset.node));
    for (const e of edges) e.classList.toggle("dim", matches !== null && !(ids.has(e.dataset.from) && ids.has(e.dataset.to)));
    found.textContent = matches === null ? "" : matches.length + " of " + nodes.length;
    if (matches && matches.length === 1) centreOn(matches[0]);
    return matches || [];
  };
  search.addEventListener("input", highlight);
  search.form.addEventListener("submit", (e) => {
    e.preventDefault();
    const matches = highlight();
    const exact = matches.find((n) => n.dataset.node === search.value.trim()) || matches[0];
    if (exact) select(exact.dataset.node, true);
  });

  // The first view: the whole map when it is about legible so; else, zoomed to where ids can be
  // read, the waypoint with the most shortcuts in the middle (the fit button shows the whole map).
  const start = () => {
    fit();
    if (t.k >= 0.3 || nodes.length === 0) return;
    const degree = (n) => edges.filter((e) => e.dataset.from === n.dataset.node || e.dataset.to === n.dataset.node).length;
    const hub = nodes.reduce((best, n) => (degree(n) > degree(best) ? n : best), nodes[0]);
    const r = size();
    t = { k: 0.5, x: r.width / 2 - Number(hub.dataset.cx) * 0.5, y: r.height / 2 - Number(hub.dataset.cy) * 0.5 };
    apply();
  };
  start();
})();
`;
