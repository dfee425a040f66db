/**
 * narrowgauge: a grammar-first runtime for tool-using agents on small local
 * models. One entry point of named exports; the scripted model for tests is
 * in `narrowgauge/testing`.
 */

export * from "./core.js";

// What needs Node: models by path or URI, llama-server, tools modules and MCP servers, one sampled value
export { loadTools, ToolsModuleError } from "./runtime/tools/load-tools.js";
export { MAX_TOOL_PAGES, mcpTools, McpToolError, McpToolListError, type McpToolListChange, type McpToolSet, type McpToolsOptions } from "./runtime/mcp/mcp-tools.js";
export { connectMcpServer, McpConnectError, type McpConnection, type McpConnectOptions, type McpServerSpec } from "./runtime/mcp/mcp-server.js";
export { McpAuthError, type McpRemoteAuth } from "./runtime/mcp/mcp-auth.js";
export { DEFAULT_REDIRECT_URL, McpSignInError, type AuthorizeHandler, type McpOAuthOptions } from "./runtime/mcp/mcp-oauth-provider.js";
export { loopbackAuthorization } from "./runtime/mcp/mcp-loopback.js";
export { MAX_SAMPLED_TOKENS, samplingWithModel, type ModelSamplingOptions } from "./runtime/mcp/mcp-sampling.js";
export { McpServerRequestError, type McpElicitation, type McpElicitationAnswer, type McpElicitationField, type McpSamplingAnswer, type McpSamplingRequest, type McpServerRequests } from "./runtime/mcp/mcp-server-requests.js";
export { loadModel, llamaModelPort, type LlamaModelPort } from "./runtime/backends/llama/load-model.js";
export { openLlamaChatSession, type LlamaChatReply, type LlamaChatSession } from "./runtime/backends/llama/llama-chat-session.js";
export { openModel, type ModelSource, type OpenModelOptions, type OpenedModel } from "./runtime/backends/llama/open-model.js";
export { ModelDownloadError, type DownloadOptions } from "./runtime/backends/llama/model-download.js";
export { connectServer, type ConnectServerOptions, type RemoteModelPort } from "./runtime/backends/served/remote-model.js";
export type { ServerInfo } from "./runtime/backends/served/trust-checks.js";
export type { ServerStanding } from "./runtime/backends/served/server-health.js";
export { ServerAuthError, ServerError, ServerTrustError, ServerVocabularyError, type ServerFailureKind, type TrustCheck } from "./runtime/backends/served/server-errors.js";
export { buildLlamaServer, ServerBuildError, type BuildServerOptions } from "./runtime/backends/served/llama-server-build.js";
export { startLlamaServer, ServerPortError, ServerStartError, type RunningServer, type StartServerOptions } from "./runtime/backends/served/llama-server-process.js";
export { isServerUrl } from "./runtime/backends/llama/model-download.js";
export { sampleValue, type SampleValueOptions, type SampledValue } from "./runtime/backends/llama/sample-value.js";
