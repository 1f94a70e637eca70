import { describe, expect, it } from "vitest";
import type { GatewayRoute } from "../gateways/adapter.ts";
import { CORPUS } from "../probes/corpus/index.ts";
import { controlLeg, nativeRouteFor } from "./control-leg.ts";
import { controlField } from "./stored-route.ts";

const route = (over: Partial<GatewayRoute>): GatewayRoute => ({
  id: "x",
  client: "openai-chat",
  backend: "openai-chat",
  ingressPath: "/v1/chat/completions",
  headers: () => ({}),
  model: (m) => m,
  status: "works",
  ...over,
});

describe("control leg", () => {
  it("finds the gateway's working native route for a backend", () => {
    const routes = [
      route({ id: "a->c", client: "anthropic-messages", backend: "openai-chat" }),
      route({ id: "c->c-broken", status: "fails" }),
      route({ id: "c->c" }),
    ];
    expect(nativeRouteFor(routes, "openai-chat")?.id).toBe("c->c");
    expect(nativeRouteFor(routes, "gemini")).toBeUndefined();
  });

  it("respells request fields and keeps reply, header and credential names", () => {
    expect(controlField("anthropic-messages", "openai-chat", "stop_sequences")).toBe("stop");
    expect(controlField("anthropic-messages", "openai-chat", "finish_reason")).toBe(
      "finish_reason",
    );
    expect(controlField("anthropic-messages", "openai-chat", "headers.anthropic-beta")).toBe(
      "headers.anthropic-beta",
    );
    expect(controlField("anthropic-messages", "openai-chat", "no-such-field")).toBeUndefined();
  });

  it("sends the Anthropic probe's stop sequences as Chat `stop` over the native route", () => {
    const probe = CORPUS.find((p) => p.id === "am-stop-sequences");
    if (!probe) throw new Error("corpus lost am-stop-sequences");
    const plan = controlLeg(probe, "non-stream", route({ id: "c->c" }));
    expect(plan?.field).toBe("stop");
    const built = plan?.build("gc-0123456789abcdef", "m");
    expect(built?.path).toBe("/v1/chat/completions");
    expect(built?.headers["anthropic-version"]).toBeUndefined();
    const body = built?.body as {
      stop?: unknown;
      messages?: { content: unknown }[];
      model?: string;
    };
    expect(body.stop).toEqual((probe.request as { stop_sequences: unknown }).stop_sequences);
    expect(JSON.stringify(body.messages)).toContain("gc-0123456789abcdef");
    expect(body.model).toBe("m");
  });
});
