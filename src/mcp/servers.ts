/**
 * Where an MCP server is and how to reach it: Streamable HTTP (browser and CLI) or a command
 * speaking stdio (CLI only). Pure data, shared by the settings, the CLI and the hub.
 */

export interface McpHttpServer {
  id: string
  name?: string
  transport: 'http'
  url: string
  /** Header values are secrets (settings keep them like API keys). */
  headers?: Readonly<Record<string, string>>
}

export interface McpStdioServer {
  id: string
  name?: string
  transport: 'stdio'
  command: string
  args: readonly string[]
}

export type McpServerSpec = McpHttpServer | McpStdioServer

/**
 * Splits a command line into words: spaces separate, single and double quotes group, a
 * backslash escapes the next character outside single quotes. No shell is involved.
 */
export function splitCommand(line: string): string[] {
  const words: string[] = []
  let word = ''
  let quote: '"' | "'" | null = null
  let started = false
  for (let i = 0; i < line.length; i++) {
    const c = line[i] as string
    if (quote === "'") {
      if (c === "'") quote = null
      else word += c
    } else if (c === '\\' && i + 1 < line.length) {
      word += line[++i]
      started = true
    } else if (quote === '"') {
      if (c === '"') quote = null
      else word += c
    } else if (c === '"' || c === "'") {
      quote = c
      started = true
    } else if (/\s/.test(c)) {
      if (started) words.push(word)
      word = ''
      started = false
    } else {
      word += c
      started = true
    }
  }
  if (started) words.push(word)
  return words
}

/**
 * Reads the CLI's `--mcp <id>=<url>` / `--mcp <id>=stdio:<command>` value, or says why not.
 */
export function parseMcpOption(value: string): McpServerSpec | { error: string } {
  const split = value.indexOf('=')
  const id = split > 0 ? value.slice(0, split).trim() : ''
  const target = split > 0 ? value.slice(split + 1).trim() : ''
  if (id === '' || target === '') {
    return { error: `--mcp expects <id>=<url> or <id>=stdio:<command>, got "${value}".` }
  }
  if (target.startsWith('stdio:')) {
    const [command, ...args] = splitCommand(target.slice('stdio:'.length))
    if (command === undefined) return { error: `--mcp ${id}=stdio: needs a command after "stdio:".` }
    return { id, transport: 'stdio', command, args }
  }
  let url: URL
  try {
    url = new URL(target)
  } catch {
    return { error: `--mcp ${id}= expects an http(s) URL or stdio:<command>, got "${target}".` }
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return { error: `--mcp ${id}= expects an http(s) URL or stdio:<command>, got "${target}".` }
  }
  return { id, transport: 'http', url: url.href }
}

/** How a server is named in messages: its name and id, or the id. */
export function serverLabel(spec: Pick<McpServerSpec, 'id' | 'name'>): string {
  return spec.name && spec.name !== spec.id ? `"${spec.name}" (${spec.id})` : `"${spec.id}"`
}
