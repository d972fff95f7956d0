/**
 * What every Wardflow trace must be, checked the way a collector reads it: OTLP JSON
 * (opentelemetry-proto trace/v1 in the protobuf JSON mapping: hex ids, 64-bit integers as
 * strings, AnyValue attributes), one trace id, every parent present, children inside parents.
 * Returns the spans with their attributes as plain values, for a test to look at.
 */
import { expect } from 'vitest'

export interface ReadSpan {
  name: string
  spanId: string
  parentSpanId?: string
  kind: number
  start: bigint
  end: bigint
  status: { code: number; message?: string }
  attributes: Record<string, unknown>
  events: Array<{ name: string; attributes: Record<string, unknown> }>
}

function plain(value: Record<string, unknown>): unknown {
  const keys = Object.keys(value)
  expect(keys, `an AnyValue has exactly one field: ${JSON.stringify(value)}`).toHaveLength(1)
  const [key] = keys as [string]
  const v = value[key]
  switch (key) {
    case 'stringValue':
      expect(typeof v).toBe('string')
      return v
    case 'boolValue':
      expect(typeof v).toBe('boolean')
      return v
    case 'intValue':
      // proto3 JSON: int64 is a decimal string.
      expect(v).toMatch(/^-?\d+$/)
      return Number(v)
    case 'doubleValue':
      expect(typeof v).toBe('number')
      return v
    case 'arrayValue':
      return ((v as { values: Record<string, unknown>[] }).values ?? []).map(plain)
    default:
      throw new Error(`not an AnyValue field: ${key}`)
  }
}

function attributesOf(list: unknown): Record<string, unknown> {
  expect(Array.isArray(list)).toBe(true)
  const out: Record<string, unknown> = {}
  for (const item of list as Array<{ key: string; value: Record<string, unknown> }>) {
    expect(typeof item.key).toBe('string')
    expect(out, `attribute ${item.key} twice`).not.toHaveProperty([item.key])
    out[item.key] = plain(item.value)
  }
  return out
}

export function readTrace(body: unknown): ReadSpan[] {
  const request = body as { resourceSpans: Array<Record<string, unknown>> }
  expect(Array.isArray(request.resourceSpans)).toBe(true)
  const spans: ReadSpan[] = []
  const traceIds = new Set<string>()
  for (const rs of request.resourceSpans) {
    const resource = attributesOf((rs['resource'] as { attributes: unknown }).attributes)
    expect(resource['service.name']).toBe('wardflow')
    for (const ss of rs['scopeSpans'] as Array<{
      scope: { name: string }
      spans: Array<Record<string, unknown>>
    }>) {
      expect(ss.scope.name).toBe('wardflow')
      for (const s of ss.spans) {
        expect(s['traceId']).toMatch(/^[0-9a-f]{32}$/)
        expect(s['traceId']).not.toMatch(/^0+$/)
        expect(s['spanId']).toMatch(/^[0-9a-f]{16}$/)
        if (s['parentSpanId'] !== undefined) expect(s['parentSpanId']).toMatch(/^[0-9a-f]{16}$/)
        expect(s['startTimeUnixNano']).toMatch(/^\d+$/)
        expect(s['endTimeUnixNano']).toMatch(/^\d+$/)
        expect([0, 1, 2, 3, 4, 5]).toContain(s['kind'])
        const status = s['status'] as { code: number; message?: string }
        expect([0, 1, 2]).toContain(status.code)
        traceIds.add(s['traceId'] as string)
        spans.push({
          name: s['name'] as string,
          spanId: s['spanId'] as string,
          ...(s['parentSpanId'] === undefined ? {} : { parentSpanId: s['parentSpanId'] as string }),
          kind: s['kind'] as number,
          start: BigInt(s['startTimeUnixNano'] as string),
          end: BigInt(s['endTimeUnixNano'] as string),
          status,
          attributes: attributesOf(s['attributes']),
          events: (
            (s['events'] as Array<{ name: string; timeUnixNano: string; attributes: unknown }>) ?? []
          ).map((e) => {
            expect(e.timeUnixNano).toMatch(/^\d+$/)
            return { name: e.name, attributes: attributesOf(e.attributes) }
          }),
        })
      }
    }
  }
  expect(traceIds.size, 'one trace id').toBe(1)
  const byId = new Map(spans.map((s) => [s.spanId, s]))
  expect(byId.size, 'span ids are unique').toBe(spans.length)
  const roots = spans.filter((s) => s.parentSpanId === undefined)
  expect(roots, 'one root span: the run').toHaveLength(1)
  for (const s of spans) {
    expect(s.end >= s.start, `${s.name} ends after it starts`).toBe(true)
    if (s.parentSpanId === undefined) continue
    const parent = byId.get(s.parentSpanId)
    expect(parent, `the parent of ${s.name} is in the trace`).toBeDefined()
    expect(
      s.start >= (parent as ReadSpan).start && s.end <= (parent as ReadSpan).end,
      `${s.name} lies inside ${parent?.name}`,
    ).toBe(true)
  }
  return spans
}

/** The span's parent, by name. */
export function parentName(spans: readonly ReadSpan[], span: ReadSpan): string | undefined {
  return spans.find((s) => s.spanId === span.parentSpanId)?.name
}
