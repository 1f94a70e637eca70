/**
 * The results database's migrations: entry i (0-based) takes the database from version i to
 * i+1 (results/schema.ts applies them). A migration is never edited once shipped; a change is
 * a new entry at the end. docs/results.md describes every column.
 */
export const MIGRATIONS: readonly string[] = [
  // 1: the first schema.
  `
  CREATE TABLE runs (
    id                TEXT PRIMARY KEY,
    started_at        TEXT NOT NULL,
    finished_at       TEXT,
    status            TEXT NOT NULL CHECK (status IN ('running', 'done', 'interrupted')),
    gatecheck_version TEXT NOT NULL,
    git_sha           TEXT,
    args              TEXT NOT NULL,
    shard             TEXT
  );
  CREATE TABLE gateway_runs (
    run_id   TEXT NOT NULL REFERENCES runs(id),
    gateway  TEXT NOT NULL,
    version  TEXT NOT NULL,
    "column" TEXT NOT NULL,
    status   TEXT NOT NULL CHECK (status IN ('ok', 'not-run', 'error')),
    reason   TEXT,
    log_path TEXT,
    PRIMARY KEY (run_id, "column")
  );
  CREATE TABLE probes (
    probe_id        TEXT NOT NULL,
    definition_hash TEXT NOT NULL,
    client_dialect  TEXT NOT NULL,
    axis            TEXT NOT NULL,
    field           TEXT NOT NULL,
    severity        TEXT NOT NULL,
    definition      TEXT NOT NULL,
    PRIMARY KEY (probe_id, definition_hash)
  );
  CREATE TABLE cells (
    run_id          TEXT NOT NULL REFERENCES runs(id),
    "column"        TEXT NOT NULL,
    route_id        TEXT NOT NULL,
    client_dialect  TEXT NOT NULL,
    backend_dialect TEXT NOT NULL,
    probe_id        TEXT NOT NULL,
    definition_hash TEXT NOT NULL,
    mode            TEXT NOT NULL CHECK (mode IN ('stream', 'non-stream')),
    verdict         TEXT NOT NULL,
    reason          TEXT NOT NULL,
    cause           TEXT,
    runs            INTEGER NOT NULL,
    counts          TEXT NOT NULL,
    determinism     INTEGER NOT NULL,
    stable          INTEGER NOT NULL CHECK (stable IN (0, 1)),
    control_verdict TEXT,
    known_issue     TEXT,
    UNIQUE (run_id, "column", route_id, probe_id, mode)
  );
  CREATE INDEX cells_probe ON cells (probe_id, definition_hash);
  CREATE TABLE attempts (
    run_id          TEXT NOT NULL REFERENCES runs(id),
    "column"        TEXT NOT NULL,
    route_id        TEXT NOT NULL,
    probe_id        TEXT NOT NULL,
    mode            TEXT NOT NULL,
    phase           TEXT NOT NULL CHECK (phase IN ('main', 'repeat', 'control')),
    attempt_no      INTEGER NOT NULL,
    status          TEXT NOT NULL,
    timings         TEXT NOT NULL,
    client_request  TEXT NOT NULL,
    forwarded       TEXT NOT NULL,
    upstream_reply  TEXT NOT NULL,
    client_response TEXT NOT NULL,
    verdicts        TEXT NOT NULL,
    UNIQUE (run_id, "column", route_id, probe_id, mode, phase, attempt_no)
  );
  `,
  // 2: what the official SDK of the client dialect made of each client response.
  `
  ALTER TABLE attempts ADD COLUMN client_sdk TEXT;
  `,
  // 3: an attempt's recorded bytes apart from where it sits in a run, and what the lens said
  // stored once per distinct list, so `rescore` stores a new run's judgements without
  // copying bytes (the copy cost more than the judging) and, where the lens is unchanged,
  // without writing its verdicts again. `attempts` becomes a view of the three with the same
  // columns, so every query written against version 2 reads the same rows. Rowids are kept:
  // an attempt's judgement and exchange take the rowid the attempt had. `verdicts_digest`
  // is registered by openDb (results/verdict-lists.ts).
  `
  CREATE TABLE exchanges (
    id              INTEGER PRIMARY KEY,
    status          TEXT NOT NULL,
    timings         TEXT NOT NULL,
    client_request  TEXT NOT NULL,
    forwarded       TEXT NOT NULL,
    upstream_reply  TEXT NOT NULL,
    client_response TEXT NOT NULL,
    client_sdk      TEXT
  );
  INSERT INTO exchanges (id, status, timings, client_request, forwarded, upstream_reply,
                         client_response, client_sdk)
    SELECT rowid, status, timings, client_request, forwarded, upstream_reply, client_response,
           client_sdk
    FROM attempts ORDER BY rowid;
  CREATE TABLE verdict_lists (
    id       INTEGER PRIMARY KEY,
    digest   TEXT NOT NULL UNIQUE,
    verdicts TEXT NOT NULL
  );
  INSERT OR IGNORE INTO verdict_lists (digest, verdicts)
    SELECT verdicts_digest(verdicts), verdicts FROM attempts ORDER BY rowid;
  CREATE TABLE judgements (
    run_id      TEXT NOT NULL REFERENCES runs(id),
    "column"    TEXT NOT NULL,
    route_id    TEXT NOT NULL,
    probe_id    TEXT NOT NULL,
    mode        TEXT NOT NULL,
    phase       TEXT NOT NULL CHECK (phase IN ('main', 'repeat', 'control')),
    attempt_no  INTEGER NOT NULL,
    verdicts_id INTEGER NOT NULL REFERENCES verdict_lists(id),
    exchange_id INTEGER NOT NULL REFERENCES exchanges(id),
    UNIQUE (run_id, "column", route_id, probe_id, mode, phase, attempt_no)
  );
  INSERT INTO judgements (rowid, run_id, "column", route_id, probe_id, mode, phase, attempt_no,
                          verdicts_id, exchange_id)
    SELECT a.rowid, a.run_id, a."column", a.route_id, a.probe_id, a.mode, a.phase, a.attempt_no,
           v.id, a.rowid
    FROM attempts a JOIN verdict_lists v ON v.digest = verdicts_digest(a.verdicts)
    ORDER BY a.rowid;
  CREATE INDEX judgements_exchange ON judgements (exchange_id);
  CREATE INDEX judgements_verdicts ON judgements (verdicts_id);
  DROP TABLE attempts;
  CREATE VIEW attempts AS
    SELECT j.run_id, j."column", j.route_id, j.probe_id, j.mode, j.phase, j.attempt_no,
           e.status, e.timings, e.client_request, e.forwarded, e.upstream_reply,
           e.client_response, v.verdicts, e.client_sdk,
           j.rowid AS attempt_id, j.exchange_id, j.verdicts_id
    FROM judgements j
    JOIN exchanges e ON e.id = j.exchange_id
    JOIN verdict_lists v ON v.id = j.verdicts_id;
  `,
  // 4: what a probe's field names, the same in every client dialect (probes/subject.ts), on
  // probes and cells: "who drops strict?" is one query for Chat, Responses and Messages
  // clients. Rows written before are given theirs by the registered gatecheck_subject.
  `
  ALTER TABLE probes ADD COLUMN subject TEXT;
  UPDATE probes SET subject = gatecheck_subject(client_dialect, field);
  ALTER TABLE cells ADD COLUMN subject TEXT;
  UPDATE cells SET subject = (
    SELECT p.subject FROM probes p
    WHERE p.probe_id = cells.probe_id AND p.definition_hash = cells.definition_hash
  );
  CREATE INDEX cells_subject ON cells (subject, verdict);
  `,
  // 5: every silent defect of a run keyed by cell and subject, the probe's own (from the cell)
  // and every other subject the lens judged on the cell's attempts (an invented text on a
  // refusal probe, a framing error on any stream), so a defect on a subject no probe of that
  // cell asked about is a finding the views and queries see, not a verdict buried in a list.
  // A view of what is stored (judgements, verdict lists, cells): every writer (the sweep,
  // rescore, merge) and every deletion keeps it right without code of its own. Rules
  // (docs/results.md "findings"): a side verdict counts when at least half of the cell's
  // attempts (main and repeats) gave it, as a cell's own verdict is folded; a credential
  // subject counts only on a route where the run planned that credential's own probe (the
  // sweep plans none where the key reaches the upstream by design, sweep/cells.ts). Lists
  // written before version 4 carry no subject: their side findings show the field instead.
  `
  CREATE VIEW findings AS
  SELECT c.run_id, c."column", c.route_id, c.probe_id, c.mode, c.subject, p.field,
         coalesce(
           (SELECT json_extract(e.value, '$.direction')
              FROM judgements j JOIN verdict_lists v ON v.id = j.verdicts_id,
                   json_each(v.verdicts) e
             WHERE j.run_id = c.run_id AND j."column" = c."column" AND j.route_id = c.route_id
               AND j.probe_id = c.probe_id AND j.mode = c.mode AND j.phase = 'main'
               AND json_extract(e.value, '$.subject') = c.subject
             LIMIT 1),
           CASE WHEN c.subject LIKE 'failure.%' THEN 'reply' END
         ) AS direction,
         c.verdict, c.cause, c.reason, c.determinism AS k, c.runs, 1 AS own
  FROM cells c JOIN probes p ON p.probe_id = c.probe_id AND p.definition_hash = c.definition_hash
  WHERE c.verdict IN ('dropped', 'mangled', 'invented', 'leaked')
  UNION ALL
  SELECT c.run_id, c."column", c.route_id, c.probe_id, c.mode, s.subject, s.field, s.direction,
         s.verdict, s.cause, s.reason, s.k, c.runs, 0 AS own
  FROM (
    SELECT j.run_id, j."column", j.route_id, j.probe_id, j.mode,
           coalesce(json_extract(e.value, '$.subject'), json_extract(e.value, '$.field'))
             AS subject,
           min(json_extract(e.value, '$.field')) AS field,
           json_extract(e.value, '$.direction') AS direction,
           json_extract(e.value, '$.verdict') AS verdict,
           json_extract(e.value, '$.cause') AS cause,
           min(json_extract(e.value, '$.reason')) AS reason,
           count(*) AS k
    FROM judgements j JOIN verdict_lists v ON v.id = j.verdicts_id, json_each(v.verdicts) e
    WHERE j.phase IN ('main', 'repeat')
      AND json_extract(e.value, '$.verdict') IN ('dropped', 'mangled', 'invented', 'leaked')
    GROUP BY j.run_id, j."column", j.route_id, j.probe_id, j.mode, 6, 8, 9, 10
  ) s
  JOIN cells c ON c.run_id = s.run_id AND c."column" = s."column" AND c.route_id = s.route_id
   AND c.probe_id = s.probe_id AND c.mode = s.mode
  JOIN probes p ON p.probe_id = c.probe_id AND p.definition_hash = c.definition_hash
  WHERE s.subject <> c.subject AND s.subject <> p.field AND 2 * s.k >= c.runs
    AND (s.subject NOT LIKE 'credentials.%' OR EXISTS (
      SELECT 1 FROM cells o WHERE o.run_id = c.run_id AND o."column" = c."column"
        AND o.route_id = c.route_id AND o.subject = s.subject));
  `,
  // 6: agent loops (loops/, docs/loops.md): one row per gateway column, route and loop
  // variant, `completed` or `broke` at a turn with its cause, or `not-run` with the reason;
  // `evidence` holds the agent's requests and responses and what reached the backend, all
  // redacted, as JSON.
  `
  CREATE TABLE loops (
    run_id    TEXT NOT NULL REFERENCES runs(id),
    "column"  TEXT NOT NULL,
    route_id  TEXT NOT NULL,
    variant   TEXT NOT NULL,
    client    TEXT NOT NULL,
    backend   TEXT NOT NULL,
    persona   TEXT,
    status    TEXT NOT NULL CHECK (status IN ('completed', 'broke', 'not-run')),
    turn      INTEGER CHECK (turn IN (1, 2, 3)),
    cause     TEXT,
    reason    TEXT,
    losses    TEXT NOT NULL DEFAULT '[]',
    nonce     TEXT,
    total_ms  INTEGER,
    evidence  TEXT,
    PRIMARY KEY (run_id, "column", route_id, variant)
  );
  `,
  // 7: an attempt's traffic stored as one exchange in the wire vocabulary
  // (dialects/wire/exchange.ts), the shape `gatecheck check` reads and `export` writes: bytes
  // as `{data, encoding}`, lower-case header pairs, the upstream reply stored (it was always
  // NULL), and `context` for what the judge needs that the gateway never saw (the fallback
  // targets and statuses, which travelled as request headers before). Older rows are read
  // into it once by the registered gatecheck_stored_exchange (results/legacy-exchange.ts);
  // the view keeps the side columns, now read out of the exchange.
  `
  DROP VIEW attempts;
  ALTER TABLE exchanges ADD COLUMN exchange TEXT NOT NULL DEFAULT '';
  UPDATE exchanges SET exchange = gatecheck_stored_exchange(
    client_request, forwarded, client_response, timings,
    (SELECT json_array(c.client_dialect, c.backend_dialect, c.mode, j.phase)
       FROM judgements j JOIN cells c
         ON c.run_id = j.run_id AND c."column" = j."column" AND c.route_id = j.route_id
        AND c.probe_id = j.probe_id AND c.mode = j.mode
      WHERE j.exchange_id = exchanges.id LIMIT 1));
  ALTER TABLE exchanges DROP COLUMN client_request;
  ALTER TABLE exchanges DROP COLUMN forwarded;
  ALTER TABLE exchanges DROP COLUMN upstream_reply;
  ALTER TABLE exchanges DROP COLUMN client_response;
  CREATE VIEW attempts AS
    SELECT j.run_id, j."column", j.route_id, j.probe_id, j.mode, j.phase, j.attempt_no,
           e.status, e.timings, e.exchange,
           json_extract(e.exchange, '$.clientRequest') AS client_request,
           json_extract(e.exchange, '$.forwarded') AS forwarded,
           json_extract(e.exchange, '$.upstreamReply') AS upstream_reply,
           json_extract(e.exchange, '$.clientResponse') AS client_response,
           json_extract(e.exchange, '$.context') AS context,
           v.verdicts, e.client_sdk,
           j.rowid AS attempt_id, j.exchange_id, j.verdicts_id
    FROM judgements j
    JOIN exchanges e ON e.id = j.exchange_id
    JOIN verdict_lists v ON v.id = j.verdicts_id;
  `,
  // 8: a finding names its gateway and version (from gateway_runs) and the attempt it was read
  // from, so a matrix line leads to bytes (`gatecheck export --attempt-id`): `attempt_id` is
  // the main attempt when its verdict list gave that subject that verdict, else the first
  // repeat written that did; an own finding whose subject no list names (a failure probe, judged per cell)
  // points at the cell's main attempt. `phase` and `attempt_no` are that attempt's. The rows
  // and the rules are version 5's; the new columns come last, so a query by position reads
  // what it read before.
  `
  DROP VIEW findings;
  CREATE VIEW findings AS
  SELECT f.*, coalesce(g.gateway, CASE WHEN instr(f."column", '@') > 0
           THEN substr(f."column", 1, instr(f."column", '@') - 1) ELSE f."column" END) AS gateway,
         g.version, j.phase, j.attempt_no
  FROM (
    SELECT c.run_id, c."column", c.route_id, c.probe_id, c.mode, c.subject, p.field,
           coalesce(
             (SELECT json_extract(e.value, '$.direction')
                FROM judgements j JOIN verdict_lists v ON v.id = j.verdicts_id,
                     json_each(v.verdicts) e
               WHERE j.run_id = c.run_id AND j."column" = c."column" AND j.route_id = c.route_id
                 AND j.probe_id = c.probe_id AND j.mode = c.mode AND j.phase = 'main'
                 AND json_extract(e.value, '$.subject') = c.subject
               LIMIT 1),
             CASE WHEN c.subject LIKE 'failure.%' THEN 'reply' END
           ) AS direction,
           c.verdict, c.cause, c.reason, c.determinism AS k, c.runs, 1 AS own,
           coalesce(
             (SELECT coalesce(min(CASE WHEN j.phase = 'main' THEN j.rowid END), min(j.rowid))
                FROM judgements j JOIN verdict_lists v ON v.id = j.verdicts_id,
                     json_each(v.verdicts) e
               WHERE j.run_id = c.run_id AND j."column" = c."column" AND j.route_id = c.route_id
                 AND j.probe_id = c.probe_id AND j.mode = c.mode AND j.phase IN ('main', 'repeat')
                 AND json_extract(e.value, '$.subject') = c.subject
                 AND json_extract(e.value, '$.verdict') = c.verdict),
             (SELECT min(j.rowid) FROM judgements j
               WHERE j.run_id = c.run_id AND j."column" = c."column" AND j.route_id = c.route_id
                 AND j.probe_id = c.probe_id AND j.mode = c.mode AND j.phase = 'main')
           ) AS attempt_id
    FROM cells c
    JOIN probes p ON p.probe_id = c.probe_id AND p.definition_hash = c.definition_hash
    WHERE c.verdict IN ('dropped', 'mangled', 'invented', 'leaked')
    UNION ALL
    SELECT c.run_id, c."column", c.route_id, c.probe_id, c.mode, s.subject, s.field, s.direction,
           s.verdict, s.cause, s.reason, s.k, c.runs, 0 AS own, s.attempt_id
    FROM (
      SELECT j.run_id, j."column", j.route_id, j.probe_id, j.mode,
             coalesce(json_extract(e.value, '$.subject'), json_extract(e.value, '$.field'))
               AS subject,
             min(json_extract(e.value, '$.field')) AS field,
             json_extract(e.value, '$.direction') AS direction,
             json_extract(e.value, '$.verdict') AS verdict,
             json_extract(e.value, '$.cause') AS cause,
             min(json_extract(e.value, '$.reason')) AS reason,
             count(*) AS k,
             coalesce(min(CASE WHEN j.phase = 'main' THEN j.rowid END), min(j.rowid))
               AS attempt_id
      FROM judgements j JOIN verdict_lists v ON v.id = j.verdicts_id, json_each(v.verdicts) e
      WHERE j.phase IN ('main', 'repeat')
        AND json_extract(e.value, '$.verdict') IN ('dropped', 'mangled', 'invented', 'leaked')
      GROUP BY j.run_id, j."column", j.route_id, j.probe_id, j.mode, 6, 8, 9, 10
    ) s
    JOIN cells c ON c.run_id = s.run_id AND c."column" = s."column" AND c.route_id = s.route_id
     AND c.probe_id = s.probe_id AND c.mode = s.mode
    JOIN probes p ON p.probe_id = c.probe_id AND p.definition_hash = c.definition_hash
    WHERE s.subject <> c.subject AND s.subject <> p.field AND 2 * s.k >= c.runs
      AND (s.subject NOT LIKE 'credentials.%' OR EXISTS (
        SELECT 1 FROM cells o WHERE o.run_id = c.run_id AND o."column" = c."column"
          AND o.route_id = c.route_id AND o.subject = s.subject))
  ) f
  LEFT JOIN gateway_runs g ON g.run_id = f.run_id AND g."column" = f."column"
  LEFT JOIN judgements j ON j.rowid = f.attempt_id;
  `,
];
