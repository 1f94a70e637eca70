/**
 * The scripted loop's data: what the mock sends must be what a provider could send, or a
 * gateway's client library refuses it and the loop measures the mock.
 */
import { expect, it } from "vitest";
import { THINKING_SIGNATURE, THOUGHT_SIGNATURE } from "./loop-script.ts";

it("the signatures are valid base64, padding only at the end (google-genai decodes them)", () => {
  for (const signature of [THINKING_SIGNATURE, THOUGHT_SIGNATURE]) {
    expect(signature).toMatch(/^[A-Za-z0-9+/]+={0,2}$/);
    expect(signature.length % 4).toBe(0);
    // Canonical: decoding and encoding again gives the same text.
    expect(Buffer.from(signature, "base64").toString("base64")).toBe(signature);
    // Still stressful: the alphabet's punctuation, and padding.
    expect(signature).toMatch(/[+/]/);
    expect(signature).toMatch(/=$/);
  }
});
