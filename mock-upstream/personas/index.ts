/**
 * The persona registry: `--persona NAME` and `MockOptions.persona` look names up here.
 * Adding a persona: one file exporting `definePersona({...})`, one entry below, and a fixture
 * file per rule under `fixtures/<persona>/` (the test suite fails for a rule without one).
 */
import { anthropic } from "./anthropic.ts";
import { deepseek } from "./deepseek.ts";
import { google } from "./google.ts";
import { moonshot } from "./moonshot.ts";
import { openai } from "./openai.ts";
import type { Persona } from "./persona.ts";

export type { Persona, PersonaRejection, PersonaRequest, PersonaRule } from "./persona.ts";

export const PERSONAS: Record<string, Persona> = {
  openai,
  deepseek,
  moonshot,
  google,
  anthropic,
};

export const PERSONA_NAMES = Object.keys(PERSONAS);

export function getPersona(name: string): Persona | undefined {
  return Object.hasOwn(PERSONAS, name) ? PERSONAS[name] : undefined;
}
