/** Types for generate-sandbox.mjs (the generator of the Node worker's plain-JS copies). */
export declare const GENERATED_SOURCES: string[]
export declare const GENERATED_DIR: URL
export declare function generatedName(source: string): string
export declare function generate(source: string): Promise<string>
