/**
 * Stands in for `d3-color`, which d3-interpolate and d3-transition (React Flow's pan and zoom)
 * import to tween colours in attribute and style transitions. React Flow tweens only its
 * viewport (numbers, through d3-zoom), so no colour is ever parsed: this says "not a colour"
 * (d3 then interpolates the text as a string) and the colour spaces throw if anything ever asks
 * for one. It keeps ~3 KB gzip of colour parsing out of the page's start (vite.config.ts aliases
 * `d3-color` here; tests/build/d3ColorStub.test.ts checks React Flow's viewport tween still runs).
 */

/** What d3 calls to tell a colour from other text (and, with `instanceof`, a colour object). */
export function color(specifier: string): null {
  void specifier
  return null
}

function noColourSpace(): never {
  throw new Error('d3-color is not bundled: Wardflow interpolates no colours')
}

export {
  noColourSpace as rgb,
  noColourSpace as hsl,
  noColourSpace as lab,
  noColourSpace as hcl,
  noColourSpace as cubehelix,
}
