/** The model and the stream choice of a Gemini request, which its path carries (not its body). */
import { GEMINI_ROUTES } from "./routes.ts";

/** Same tail as routes.ts's generate pattern, found anywhere: a gateway's mount prefix or a doubled version segment still names the model. */
const GENERATE_TAIL = /\/models\/([^/:?]+):(generateContent|streamGenerateContent)(?:\?|$)/;

/**
 * The model and stream choice of a generate path. dialectOfPath knows the documented paths;
 * the looser tail match keeps the model readable when a gateway adds a prefix (the lens
 * judges the path itself elsewhere).
 */
export function modelOfPath(path: string): { model: string; stream: boolean } | undefined {
  // Every forwarded request of a sweep's Gemini cells has one of a few paths: the last answer
  // is kept (the regexes, split and decode cost more than the rest of a small body's read).
  if (path === lastPath) return lastModel;
  lastModel = modelOfNewPath(path);
  lastPath = path;
  return lastModel;
}

let lastPath: string | undefined;
let lastModel: { model: string; stream: boolean } | undefined;

function modelOfNewPath(path: string): { model: string; stream: boolean } | undefined {
  const route = GEMINI_ROUTES.match(path.split("?")[0] ?? path);
  if (route?.kind === "generate" && route.model !== undefined) {
    return { model: route.model, stream: route.stream === true };
  }
  const tail = GENERATE_TAIL.exec(path);
  if (!tail) return undefined;
  let model = tail[1] ?? "";
  try {
    model = decodeURIComponent(model);
  } catch {
    // A malformed escape stays as sent.
  }
  return { model, stream: tail[2] === "streamGenerateContent" };
}
