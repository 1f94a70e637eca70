import { describe, expect, it } from "vitest";
import { show } from "./describe.ts";

/** The rendering `show` promises: JSON, clipped to 60 characters with an ellipsis. */
function reference(value: unknown): string {
  const text = JSON.stringify(value) as string;
  return text.length > 60 ? `${text.slice(0, 59)}…` : text;
}

describe("show", () => {
  it("clips a long string exactly as clipping its whole JSON would, escapes and surrogates included", () => {
    const pieces = ["a", "\n", '"', "\\", "é", "😀", "\u0001", "\ud800", " ", "日"];
    for (let n = 55; n < 75; n++) {
      for (let shift = 0; shift < pieces.length; shift++) {
        let text = "";
        for (let i = 0; i < n; i++) text += pieces[(i * 7 + shift * (i % 3)) % pieces.length];
        expect(show(text), JSON.stringify(text)).toBe(reference(text));
      }
    }
  });

  it("shows absent, short values and structures whole", () => {
    expect(show(undefined)).toBe("absent");
    expect(show("STOPPROBE")).toBe('"STOPPROBE"');
    expect(show({ a: [1, 2] })).toBe('{"a":[1,2]}');
    expect(show("x".repeat(58))).toBe(reference("x".repeat(58)));
  });
});
