/** The run view: run panel with history, node run details for the inspector, console lines. */
export { RunPanel } from './RunPanel.tsx'
export { NodeRunDetails } from './NodeRunDetails.tsx'
export { ConsoleContent, LiveConsoleContent, type ConsoleContentProps } from './ConsoleContent.tsx'
export { RunConsole } from './RunConsole.tsx'
