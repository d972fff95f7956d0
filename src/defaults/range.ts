/** An inclusive range a setting may take; forms refuse values outside it, never clamp. */
export interface NumberRange {
  readonly min: number
  readonly max: number
  readonly step?: number
}
