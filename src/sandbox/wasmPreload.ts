/**
 * Compiles the QuickJS wasm on the page, once, for every sandbox worker the page starts.
 *
 * Why: a worker that fetches the wasm itself can only ask for it once its own script has loaded
 * and run. Started with the first worker, the page's download and compile overlap the worker's
 * script load, and every later worker (a replacement after a `while(true){}` was stopped) only
 * instantiates the compiled module: a `WebAssembly.Module` can be posted to a worker of the same
 * page. This message travels outside the pool's protocol (protocol.ts): it is the browser
 * worker's business alone (worker-runner.ts sends it, quickjs.worker.ts takes it).
 *
 * Never rejects: when the page cannot compile (a host serving wasm with the wrong MIME type makes
 * compileStreaming fail; the bytes are then compiled from a buffer), it resolves `undefined` and
 * the worker loads the wasm itself. That outcome is not kept: the next worker tries again (the
 * network may be back).
 */
export type WasmCompiler = () => Promise<WebAssembly.Module | undefined>

export function createWasmCompiler(url: string, fetchFn: typeof fetch = fetch): WasmCompiler {
  let compiled: Promise<WebAssembly.Module | undefined> | undefined
  const compile = async (): Promise<WebAssembly.Module | undefined> => {
    try {
      return await WebAssembly.compileStreaming(fetchFn(url))
    } catch {
      // Wrong MIME type, or no streaming compile on this host: try from a buffer once.
    }
    try {
      const response = await fetchFn(url)
      if (!response.ok) return undefined
      return await WebAssembly.compile(await response.arrayBuffer())
    } catch {
      return undefined
    }
  }
  return () => {
    if (compiled) return compiled
    const pending = compile()
    compiled = pending
    void pending.then((module) => {
      if (module === undefined && compiled === pending) compiled = undefined
    })
    return pending
  }
}

/** The message that hands a worker the page's compiled module (`null`: load it yourself). */
export interface WasmModuleMessage {
  type: 'wasm'
  module: WebAssembly.Module | null
}

export function isWasmModuleMessage(data: unknown): data is WasmModuleMessage {
  if (typeof data !== 'object' || data === null) return false
  const { type, module } = data as Record<string, unknown>
  return type === 'wasm' && (module === null || module instanceof WebAssembly.Module)
}
