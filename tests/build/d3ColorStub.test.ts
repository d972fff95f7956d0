// vite.config.ts aliases d3-color to vite/d3ColorStub.ts in the build and in these tests alike.
import { interpolate, interpolateZoom } from 'd3-interpolate'
import { describe, expect, it } from 'vitest'
import { color } from 'd3-color'

describe('d3-color stand-in', () => {
  it('is what d3 gets here: no text is a colour', () => {
    expect(color('steelblue')).toBeNull()
  })

  it("leaves React Flow's viewport tweens (zoom path and linear) working", () => {
    const zoom = interpolateZoom([0, 0, 100], [100, 50, 50])
    expect(zoom(0).map((v) => Math.round(v) || 0)).toEqual([0, 0, 100])
    expect(zoom(1).map((v) => Math.round(v))).toEqual([100, 50, 50])
    const linear = interpolate({ x: 0, y: 0, k: 1 }, { x: 10, y: 20, k: 2 })
    expect(linear(0.5)).toEqual({ x: 5, y: 10, k: 1.5 })
  })

  it('tweens colour text as plain text instead of parsing it', () => {
    expect(interpolate('width 10px', 'width 20px')(0.5)).toBe('width 15px')
    expect(interpolate('red', 'blue')(1)).toBe('blue')
  })
})
