/**
 * A test double where a gateway would stand (unit tests only): a loopback HTTP server on a
 * free port that hands each request to the test's handler, which forwards it to the mock as
 * it likes (losing, keeping or rewriting something).
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";

export interface Double {
  url: string;
  close(): Promise<void>;
}

export async function startDouble(
  handler: (req: IncomingMessage, res: ServerResponse, body: Buffer) => Promise<void>,
): Promise<Double> {
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    await handler(req, res, Buffer.concat(chunks));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
