/** Capture and replay of live traffic: the functions the mock app and the CLI call. */
export { CaptureError, type CaptureErrorCode } from "./capture-error.ts";
export { CaptureWriter } from "./capture-writer.ts";
export { CAPTURE_FORMAT, CapturedReply, Exchange, pathOnly, replyFrames } from "./exchange.ts";
export { endToEndHeaders, HOP_BY_HOP } from "./hop-by-hop.ts";
export { type IncomingRequestInfo, incomingFromNode, incomingFromRequest } from "./incoming.ts";
export { fromLegacyCapture, LEGACY_CAPTURE_FORMAT } from "./legacy-capture.ts";
export { installReplay, recordThroughRoute } from "./mock-wiring.ts";
export { sendToNode } from "./node-writer.ts";
export {
  createRecordThrough,
  parseUpstream,
  type RecordThroughHandler,
  type RecordThroughOptions,
} from "./record-through.ts";
export {
  createReplayHandler,
  loadReplay,
  type Replay,
  type ReplayOptions,
  type ReplayPlan,
  replayPlan,
  replayResponse,
} from "./replay.ts";
export { loadCaptureFile, parseCapture } from "./replay-file.ts";
export { MATCH_STRATEGIES, type MatchStrategy, ReplayMatcher } from "./replay-match.ts";
export {
  exchangeToReplySpec,
  type RecordedReplySpec,
  type RecordedStage,
  replayStages,
} from "./staged-reply.ts";
