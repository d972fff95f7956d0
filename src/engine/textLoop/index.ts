/** The degenerate-text guard: the streaming detector, its stream reader and its texts. */
export * from './detector.ts'
export * from './lines.ts'
export * from './messages.ts'
export * from './stream.ts'
