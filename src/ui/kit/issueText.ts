/**
 * Words a validation issue (a problem of the flow, a refused import) in the UI's language: its
 * catalogue key when it has one (`issues:validation.*`, `issues:importProblem.*`, `nodes:issues.*`), its
 * English message otherwise. zod's type names (`expected`) are translated too.
 */

/** Any catalogue lookup: i18next's `t`, or an area's own translate function. */
export type Translate = (key: string, values?: Record<string, string | number>) => string

export function issueText(
  t: Translate,
  key: string | undefined,
  params: Readonly<Record<string, string | number>> | undefined,
  fallback: string,
): string {
  if (key === undefined) return fallback
  const values: Record<string, string | number> = { ...params }
  const expected = values['expected']
  if (typeof expected === 'string')
    values['expected'] = t(`issues:validation.types.${expected}`, { defaultValue: expected })
  return t(key, { ...values, defaultValue: fallback })
}
