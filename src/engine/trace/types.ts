/**
 * The part of OTLP's JSON encoding (opentelemetry-proto, trace/v1 and common/v1, protobuf JSON
 * mapping; ids as hex, 64-bit integers as strings) that Wardflow's traces use.
 */

export type OtlpValue =
  | { stringValue: string }
  | { boolValue: boolean }
  | { intValue: string }
  | { doubleValue: number }
  | { arrayValue: { values: OtlpValue[] } }

export interface OtlpAttribute {
  key: string
  value: OtlpValue
}

export interface OtlpSpanEvent {
  timeUnixNano: string
  name: string
  attributes: OtlpAttribute[]
}

export interface OtlpSpan {
  traceId: string
  spanId: string
  parentSpanId?: string
  name: string
  /** SpanKind: 1 internal, 3 client. */
  kind: number
  startTimeUnixNano: string
  endTimeUnixNano: string
  attributes: OtlpAttribute[]
  events: OtlpSpanEvent[]
  /** StatusCode: 0 unset, 1 ok, 2 error. */
  status: { code: number; message?: string }
}

export interface OtlpTrace {
  resourceSpans: {
    resource: { attributes: OtlpAttribute[] }
    scopeSpans: { scope: { name: string; version: string }; spans: OtlpSpan[] }[]
  }[]
}
