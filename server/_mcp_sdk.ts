// The MCP SDK's parts the MCP endpoint uses, imported in one place so that the import map entry
// ("@modelcontextprotocol/sdk") is the one line to switch.
export { Server } from "@modelcontextprotocol/sdk/server/index.js";
export { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
export {
  type CallToolRequest,
  CallToolRequestSchema,
  type CallToolResult,
  ErrorCode,
  isInitializeRequest,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  type ReadResourceRequest,
  ReadResourceRequestSchema,
  type Tool as McpTool,
} from "@modelcontextprotocol/sdk/types.js";
