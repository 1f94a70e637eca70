/**
 * The provider pages the field tables cite, named once: a row's `see` is one of these, with an
 * anchor where the page has one.
 */
export const DOCS = {
  chat: "https://platform.openai.com/docs/api-reference/chat/create",
  chatObject: "https://platform.openai.com/docs/api-reference/chat/object",
  responses: "https://platform.openai.com/docs/api-reference/responses/create",
  responsesObject: "https://platform.openai.com/docs/api-reference/responses/object",
  anthropic: "https://docs.anthropic.com/en/api/messages",
  anthropicToolUse:
    "https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/implement-tool-use",
  anthropicCaching: "https://docs.anthropic.com/en/docs/build-with-claude/prompt-caching",
  anthropicThinking: "https://docs.anthropic.com/en/docs/build-with-claude/extended-thinking",
  anthropicStructured: "https://docs.anthropic.com/en/docs/build-with-claude/structured-outputs",
  anthropicPdf: "https://docs.anthropic.com/en/docs/build-with-claude/pdf-support",
  anthropicEffort: "https://docs.anthropic.com/en/docs/build-with-claude/effort",
  anthropicBeta: "https://docs.anthropic.com/en/api/beta-headers",
  anthropicVersioning: "https://docs.anthropic.com/en/api/versioning",
  gemini: "https://ai.google.dev/api/generate-content",
  geminiGenerationConfig: "https://ai.google.dev/api/generate-content#generationconfig",
  geminiThinkingConfig: "https://ai.google.dev/api/generate-content#ThinkingConfig",
  geminiFunctionDeclaration: "https://ai.google.dev/api/caching#FunctionDeclaration",
  geminiFunctionCallingConfig: "https://ai.google.dev/api/caching#FunctionCallingConfig",
  geminiThoughtSignatures: "https://ai.google.dev/gemini-api/docs/thought-signatures",
  geminiContent: "https://ai.google.dev/api/caching#Content",
  geminiPart: "https://ai.google.dev/api/caching#Part",
  geminiTool: "https://ai.google.dev/api/caching#Tool",
  geminiToolConfig: "https://ai.google.dev/api/caching#ToolConfig",
  geminiFunctionResponse: "https://ai.google.dev/api/caching#FunctionResponse",
  geminiUsage: "https://ai.google.dev/api/generate-content#UsageMetadata",
  ollama: "https://github.com/ollama/ollama/blob/main/docs/api.md#generate-a-chat-completion",
  /** The current reference of /api/chat (it lists `logprobs` and `top_logprobs`; docs/api.md predates them). */
  ollamaChat: "https://docs.ollama.com/api/chat",
  /** Tool calling on /api/chat: a call is `function` {name, arguments} with no id, and a result
   * is a `tool` message naming its function in `tool_name`. */
  ollamaTools: "https://docs.ollama.com/capabilities/tool-calling",
  anthropicMcp: "https://docs.anthropic.com/en/docs/agents-and-tools/mcp-connector",
  openaiRemoteMcp: "https://platform.openai.com/docs/guides/tools-remote-mcp",
  anthropicContextEditing: "https://docs.anthropic.com/en/docs/build-with-claude/context-editing",
  openaiPredictedOutputs: "https://platform.openai.com/docs/guides/predicted-outputs",
  ollamaOptions:
    "https://github.com/ollama/ollama/blob/main/docs/modelfile.md#valid-parameters-and-values",
  deepseekReasoning: "https://api-docs.deepseek.com/guides/reasoning_model",
} as const;
