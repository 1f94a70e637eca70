// gatecheck HTML report: filters, search and the detail panel. Plain browser JS, no
// dependencies, no network. The matrix itself is already in the page; this only hides,
// shows and explains. Untrusted bytes are only ever set as textContent, never as HTML.
(() => {
  const data = JSON.parse(document.getElementById("gc-data").textContent);
  const cells = data.cells;
  /** The verdict filter's value for every silent defect, the cell's own or a side finding. */
  const SILENT = "silent";
  // The wire bytes ride gzip-compressed (base64) to keep the file small; decompressed once,
  // in the background, with the browser's own DecompressionStream.
  const detailsReady = loadDetails();
  detailsReady.catch(() => undefined);

  async function loadDetails() {
    const text = document.getElementById("gc-details").textContent.trim();
    const bytes = Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
    const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
    return JSON.parse(await new Response(stream).text());
  }
  const $ = (id) => document.getElementById(id);
  const filters = ["f-client", "f-backend", "f-axis", "f-mode", "f-verdict"].map($);
  const search = $("f-search");

  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k === "class") node.className = v;
      else node.setAttribute(k, v);
    }
    for (const c of children)
      node.append(c instanceof Node ? c : document.createTextNode(String(c)));
    return node;
  }

  function applyFilters() {
    const [client, backend, axis, mode, verdict] = filters.map((f) => f.value);
    const needle = search.value.trim().toLowerCase();
    let shown = 0;
    for (const table of document.querySelectorAll("table.matrix")) {
      const tableOn = !client || table.dataset.client === client;
      table.classList.toggle("hidden", !tableOn);
      if (!tableOn) continue;
      // Columns: hide a backend by hiding its header and every cell under it.
      for (const cell of table.querySelectorAll("[data-backend]")) {
        cell.classList.toggle("hidden", Boolean(backend) && cell.dataset.backend !== backend);
      }
      for (const row of table.querySelectorAll("tr.row")) {
        const text = `${row.dataset.field} ${row.dataset.probe}`.toLowerCase();
        let rowOn = (!axis || row.dataset.axis === axis) && (!needle || text.includes(needle));
        let visibleChips = 0;
        for (const chip of row.querySelectorAll(".chip")) {
          const on =
            rowOn &&
            !chip.closest("td").classList.contains("hidden") &&
            (!mode || chip.dataset.mode === mode) &&
            (!verdict ||
              (verdict === SILENT
                ? chip.classList.contains("silent") || chip.classList.contains("has-side")
                : chip.dataset.verdict === verdict));
          chip.classList.toggle("hidden", !on);
          if (on) visibleChips += 1;
        }
        if (verdict || mode) rowOn = rowOn && visibleChips > 0;
        row.classList.toggle("hidden", !rowOn);
        if (rowOn) shown += visibleChips;
      }
      for (const head of table.querySelectorAll("tr.axis-head")) {
        let next = head.nextElementSibling;
        let any = false;
        while (next?.classList.contains("row")) {
          if (!next.classList.contains("hidden")) any = true;
          next = next.nextElementSibling;
        }
        head.classList.toggle("hidden", !any);
      }
    }
    $("f-count").textContent = `${shown} of ${cells.length} cells shown`;
  }

  /** Text with every occurrence of the terms wrapped in <mark>, built as DOM nodes. */
  function marked(text, terms) {
    const pre = el("pre", {});
    const wanted = terms.filter((t) => t.length > 0).sort((a, b) => b.length - a.length);
    let i = 0;
    while (i < text.length) {
      let best = -1;
      let term = "";
      for (const t of wanted) {
        const at = text.indexOf(t, i);
        if (at >= 0 && (best < 0 || at < best)) {
          best = at;
          term = t;
        }
      }
      if (best < 0) break;
      pre.append(text.slice(i, best), el("mark", {}, term));
      i = best + term.length;
    }
    pre.append(text.slice(i));
    return pre;
  }

  function historyStrip(cell) {
    const strip = el("div", { class: "history" }, "history: ");
    if (cell.history.length === 0) strip.append(" no earlier run of this cell");
    for (const h of cell.history) {
      strip.append(el("span", { class: `tick v-${h.verdict}`, title: `${h.runId}: ${h.verdict}` }));
    }
    strip.append(
      el("span", { class: `tick current v-${cell.verdict}`, title: `this run: ${cell.verdict}` }),
    );
    return strip;
  }

  /** A word as a POSIX shell reads it: quoted unless it is plainly safe. */
  function shellWord(word) {
    return /^[A-Za-z0-9@%+=:,./_-]+$/.test(word) ? word : `'${word.replaceAll("'", "'\\''")}'`;
  }

  /** The command that writes the shown attempt of a cell as an exchange file for `check`. */
  function exportCommand(cell, phase, attemptNo) {
    const args = ["npx", "gatecheck", "export"];
    if (data.exportBase.db) args.push("--db", shellWord(data.exportBase.db));
    args.push("--run", shellWord(data.exportBase.runId));
    args.push("--column", shellWord(cell.column), "--route", shellWord(cell.routeId));
    args.push("--probe", shellWord(cell.probeId), "--mode", cell.mode);
    if (phase !== "main" || attemptNo !== 1)
      args.push("--phase", phase, "--attempt", String(attemptNo));
    args.push("--out", "cell.json");
    return args.join(" ");
  }

  function sideList(cell) {
    if (cell.side.length === 0) return [];
    const list = el("ul", { class: "side-findings" });
    for (const f of cell.side) {
      list.append(
        el(
          "li",
          {},
          el("span", { class: `chip v-${f.verdict}` }, f.verdict),
          ` ${f.subject}${f.cause ? ` (${f.cause})` : ""}: ${f.reason}`,
        ),
      );
    }
    return [
      el("p", {}, "side findings (silent defects on subjects this probe did not ask about):"),
      list,
    ];
  }

  async function showDetail(cell) {
    const panel = $("detail");
    panel.replaceChildren();
    panel.dataset.cell = String(cell.id);
    const close = el("button", { type: "button", class: "close" }, "close ✕");
    close.addEventListener("click", () => {
      panel.hidden = true;
    });
    panel.append(
      close,
      el("h2", {}, `${cell.field} `, el("span", { class: "probe" }, cell.probeId)),
    );
    panel.append(
      el(
        "p",
        {},
        `${cell.column} · ${cell.routeId} · ${cell.mode} · `,
        el("span", { class: `chip v-${cell.verdict}` }, cell.token),
        ` ${cell.verdict}${cell.n > 1 ? ` (${cell.k} of ${cell.n} runs)` : ""}`,
      ),
      el(
        "p",
        { class: "reason" },
        `reason: ${cell.reason}${cell.cause ? ` (cause: ${cell.cause})` : ""}`,
      ),
    );
    panel.append(...sideList(cell));
    if (cell.control)
      panel.append(el("p", {}, `control leg (native route): ${cell.controlMark} ${cell.control}`));
    if (cell.knownIssue) {
      const ref = cell.knownIssueUrl
        ? el("a", { href: cell.knownIssueUrl, rel: "noreferrer" }, cell.knownIssue)
        : cell.knownIssue;
      panel.append(el("p", {}, "known upstream issue: ", ref));
    }
    panel.append(historyStrip(cell));
    panel.hidden = false;
    let details;
    try {
      details = await detailsReady;
    } catch (error) {
      panel.append(
        el("p", {}, `The recorded bytes could not be unpacked in this browser: ${error}`),
      );
      return;
    }
    // Another cell was clicked while the bytes were unpacking.
    if (panel.dataset.cell !== String(cell.id)) return;
    const d = details[cell.id];
    if (!d) {
      panel.append(
        el(
          "p",
          {},
          "No attempt recorded for this cell (not run, or budget spent): there are no bytes to show.",
        ),
      );
    } else {
      panel.append(
        el(
          "p",
          { class: "export" },
          "this attempt as an exchange file for `gatecheck check`: ",
          el("code", { id: "export-command" }, exportCommand(cell, d.phase, d.attemptNo)),
        ),
      );
      panel.append(
        el(
          "p",
          { class: "note" },
          `bytes of the ${d.phase} attempt #${d.attemptNo}${d.attemptVerdict ? `; its own verdict: ${d.attemptVerdict}` : ""}; marked: the probe's planted values`,
        ),
      );
      const pane = (id, title, text, terms) =>
        el("div", { id }, el("h3", {}, title), marked(text, terms));
      panel.append(
        el(
          "div",
          { class: "panes" },
          pane("pane-client-request", "client request", d.panes.clientRequest, d.terms),
          pane(
            "pane-forwarded",
            "forwarded request (what the mock received)",
            d.panes.forwarded,
            d.terms,
          ),
          pane(
            "pane-upstream-reply",
            "upstream reply (what the mock answered)",
            d.panes.upstreamReply,
            [],
          ),
          pane("pane-client-response", "client response", d.panes.clientResponse, []),
        ),
      );
    }
    panel.hidden = false;
  }

  document.getElementById("matrix").addEventListener("click", (event) => {
    const chip = event.target.closest(".chip[data-cell]");
    if (!chip) return;
    for (const s of document.querySelectorAll(".chip.selected")) s.classList.remove("selected");
    chip.classList.add("selected");
    showDetail(cells[Number(chip.dataset.cell)]);
  });
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape") $("detail").hidden = true;
  });
  // The matrix's sticky header sits just under the sticky filter bar, whatever its height.
  const setFiltersHeight = () =>
    document.documentElement.style.setProperty(
      "--filters-height",
      `${$("filters").getBoundingClientRect().height}px`,
    );
  setFiltersHeight();
  window.addEventListener("resize", setFiltersHeight);
  for (const f of filters) f.addEventListener("change", applyFilters);
  search.addEventListener("input", applyFilters);
  applyFilters();
})();
