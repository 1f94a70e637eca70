import { Command } from "commander";
import { describe, expect, it } from "vitest";
import { COMMAND_MODULES, commandsFor } from "./index.ts";

function registered(registers: readonly ((program: Command) => void)[]): string[] {
  const program = new Command();
  for (const register of registers) register(program);
  return program.commands.map((c) => c.name());
}

describe("commandsFor", () => {
  it("names each module by the command it registers, in help order", async () => {
    const names = Object.keys(COMMAND_MODULES);
    expect(registered(await commandsFor([]))).toEqual(names);
  });

  it("loads only the command a command line names", async () => {
    expect(registered(await commandsFor(["check", "x.json", "--json"]))).toEqual(["check"]);
    expect(registered(await commandsFor(["query", "--db", "a.db", "SELECT 1"]))).toEqual(["query"]);
  });

  it("loads every command for the help and for a name it does not know", async () => {
    const all = Object.keys(COMMAND_MODULES);
    expect(registered(await commandsFor(["--help"]))).toEqual(all);
    expect(registered(await commandsFor(["help", "sweep"]))).toEqual(all);
    expect(registered(await commandsFor(["swep"]))).toEqual(all);
  });
});
