/**
 * JSON values walked without recursion. `JSON.parse` reads a body nested ten thousand levels
 * deep, but `JSON.stringify` and a recursive walk overflow the stack on it; a gateway (or an
 * attacker) can send such a body, and it must still be answered and recorded.
 */

/** Set a key as JSON.parse does: `__proto__` becomes an own property, not the prototype. */
function setKey(out: Record<string, unknown>, key: string, value: unknown): void {
  if (key === "__proto__") {
    Object.defineProperty(out, key, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  } else out[key] = value;
}

export interface JsonVisit {
  /** A string, number, boolean or null, transformed. */
  leaf(value: unknown): unknown;
  /** An object member's new value, or undefined to walk into the value as usual. */
  member(key: string, value: unknown): unknown;
}

interface Task {
  source: unknown;
  parent: unknown[] | Record<string, unknown> | undefined;
  key: string | number;
}

/** A transformed copy of a JSON value (key order kept), walked with a stack of its own. */
export function walkJson(value: unknown, visit: JsonVisit): unknown {
  const root: Record<string, unknown> = {};
  const tasks: Task[] = [{ source: value, parent: root, key: "v" }];
  const place = (task: Task, out: unknown) => {
    if (Array.isArray(task.parent)) task.parent[task.key as number] = out;
    else setKey(task.parent as Record<string, unknown>, task.key as string, out);
  };
  for (let task = tasks.pop(); task; task = tasks.pop()) {
    const source = task.source;
    if (Array.isArray(source)) {
      const out: unknown[] = new Array(source.length);
      place(task, out);
      for (let i = source.length - 1; i >= 0; i--)
        tasks.push({ source: source[i], parent: out, key: i });
    } else if (source !== null && typeof source === "object") {
      const out: Record<string, unknown> = {};
      place(task, out);
      const deeper: Task[] = [];
      for (const [k, v] of Object.entries(source)) {
        const replaced = visit.member(k, v);
        // Placed now, in order: a key set later would move to the end.
        setKey(out, k, replaced);
        if (replaced === undefined) deeper.push({ source: v, parent: out, key: k });
      }
      for (let i = deeper.length - 1; i >= 0; i--) tasks.push(deeper[i] as Task);
    } else place(task, visit.leaf(source));
  }
  return root.v;
}

type Frame =
  | { items: unknown[]; i: number; entries?: undefined }
  | { entries: [string, unknown][]; i: number; items?: undefined };

/** `JSON.stringify` of a JSON value, done with a stack of its own (stringifyDeep's fallback). */
export function stringifyIterative(value: unknown): string {
  const parts: string[] = [];
  const stack: Frame[] = [];
  const emit = (v: unknown) => {
    if (Array.isArray(v)) {
      parts.push("[");
      stack.push({ items: v, i: 0 });
    } else if (v !== null && typeof v === "object") {
      parts.push("{");
      const entries = Object.entries(v).filter(
        ([, x]) => x !== undefined && typeof x !== "function" && typeof x !== "symbol",
      );
      stack.push({ entries, i: 0 });
    } else parts.push(JSON.stringify(v) ?? "null");
  };
  emit(value);
  for (let top = stack[stack.length - 1]; top; top = stack[stack.length - 1]) {
    if (top.items) {
      if (top.i >= top.items.length) {
        parts.push("]");
        stack.pop();
        continue;
      }
      if (top.i > 0) parts.push(",");
      const item = top.items[top.i++];
      emit(item === undefined || typeof item === "function" ? null : item);
    } else {
      if (top.i >= top.entries.length) {
        parts.push("}");
        stack.pop();
        continue;
      }
      if (top.i > 0) parts.push(",");
      const [k, v] = top.entries[top.i++] as [string, unknown];
      parts.push(JSON.stringify(k), ":");
      emit(v);
    }
  }
  return parts.join("");
}

/** `JSON.stringify`, falling back to the stack-safe writer when the value is too deep for it. */
export function stringifyDeep(value: unknown): string {
  try {
    return JSON.stringify(value);
  } catch (error) {
    if (error instanceof RangeError) return stringifyIterative(value);
    throw error;
  }
}
