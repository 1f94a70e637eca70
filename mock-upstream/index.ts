/**
 * The mock upstream, in process: `startMock()` binds a listener (one per gateway under test,
 * each recording separately) and returns a handle to read records, stage replies, reset and
 * close. `createMockApp()` gives the Hono app for in-process tests with `app.request`.
 */

import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { createMockListener, createMockState, type MockAppOptions, resetState } from "./app.ts";
import { stageSpecs } from "./control-api.ts";
import { MockError } from "./mock-error.ts";
import { onClientError } from "./parser-refusal.ts";
import type { MockRecord } from "./record.ts";
import type { RecordFilter } from "./recorder.ts";

export { createMockApp, createMockState } from "./app.ts";
export { MockError, type MockErrorCode } from "./mock-error.ts";
export { findNonce, NONCE_PATTERN, newNonce } from "./nonce.ts";
export type { MockRecord, RecordDecision, RecordReply, RequestKind } from "./record.ts";
export type { RecorderLimits, RecordFilter } from "./recorder.ts";
export {
  parseStagedReply,
  type ReplySpec,
  StagedReplySpec,
} from "./staged-reply-spec.ts";
export type { WireFrame, WireReply } from "./wire-plan.ts";

/** Where the listener binds, plus everything the app takes (see MockAppOptions in app.ts). */
export interface MockOptions extends MockAppOptions {
  /** Default 127.0.0.1. */
  host?: string;
  /** Default 0: a free port (the handle says which). */
  port?: number;
  /**
   * A request whose body has not ended this long after it began is cut off by Node with a
   * 408, and recorded so (default Node's 300,000 ms).
   */
  requestTimeoutMs?: number;
}

const NODE_REQUEST_TIMEOUT_MS = 300_000;

export interface MockHandle {
  url: string;
  port: number;
  host: string;
  name: string;
  records(filter?: RecordFilter): MockRecord[];
  /** Records made since start (memory keeps only the newest; the record file has them all). */
  recorded(): number;
  /**
   * Stage a reply (a StagedReplySpec or a list); throws MockError("invalid-spec") with the
   * reason, or MockError("staged-limit") past `stagedBytesLimit`.
   */
  stage(spec: unknown): void;
  /** Forget records in memory and every staged reply. */
  reset(): void;
  /** Stop listening, cut open connections (hanging replies too), flush the record file. */
  close(): Promise<void>;
}

const KEEP_ALIVE_MS = 120_000;

export async function startMock(options: MockOptions = {}): Promise<MockHandle> {
  const host = options.host ?? "127.0.0.1";
  const appOptions = { ...options, listenHost: host };
  const state = createMockState(appOptions);
  const requestTimeout = options.requestTimeoutMs ?? NODE_REQUEST_TIMEOUT_MS;
  const server = createServer(
    {
      requestTimeout,
      // Node checks for timed-out requests this often (its default is 30 s).
      connectionsCheckingInterval: Math.min(30_000, Math.max(10, requestTimeout / 4)),
      // Node's own check answers an empty 400 and leaves no record (host-required.ts).
      requireHostHeader: false,
    },
    createMockListener(appOptions, state),
  );
  server.on("clientError", onClientError(state, !options.upstream));
  // Gateways pool upstream connections: closing idle ones after Node's default 5 s makes
  // a reused connection fail with a reset nobody planned, so idle connections stay longer.
  server.keepAliveTimeout = KEEP_ALIVE_MS;
  await new Promise<void>((resolve, reject) => {
    server.listen({ host, port: options.port ?? 0, backlog: 4096 }, () => resolve());
    server.once("error", (error) => {
      state.recorder.close().catch(() => {});
      reject(
        new MockError(
          "listen-failed",
          `cannot listen on ${host}:${options.port ?? 0}: ${error.message}`,
        ),
      );
    });
  });
  const port = (server.address() as AddressInfo).port;
  const urlHost = host.includes(":") ? `[${host}]` : host;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${urlHost}:${port}`,
    port,
    host,
    name: state.listener,
    records: (filter) => state.recorder.list(filter),
    recorded: () => state.recorder.recorded,
    stage(spec) {
      const staged = stageSpecs(state, spec);
      if (!staged.ok) {
        throw new MockError(staged.status === 413 ? "staged-limit" : "invalid-spec", staged.error);
      }
    },
    reset: () => resetState(state),
    close() {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }).then(() => state.recorder.close());
      return closing;
    },
  };
}
