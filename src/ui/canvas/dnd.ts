/** The drag-and-drop data type that carries a palette node type onto the canvas. */
export const PALETTE_MIME = 'application/x-wardflow-node-type'
