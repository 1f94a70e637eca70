/** The Python gateways with hash locks, for `write-lock.ts` and the lock tests. */
import type { PythonGateway } from "./python-lock.ts";
import { ANY_LLM_PYTHON } from "./recipes/any-llm.ts";
import { LITELLM_PYTHON } from "./recipes/litellm.ts";
import { SWITCHYARD_PYTHON } from "./recipes/switchyard.ts";

export const PYTHON_GATEWAYS: readonly PythonGateway[] = [
  LITELLM_PYTHON,
  ANY_LLM_PYTHON,
  SWITCHYARD_PYTHON,
];
