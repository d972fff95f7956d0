// @monaco-editor/react type-imports this path, which monaco-editor 0.57's exports map hides;
// without the shim its types silently become `any` (stack pitfall 3).
declare module 'monaco-editor/esm/vs/editor/editor.api' {
  export * from 'monaco-editor'
}
