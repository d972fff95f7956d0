/**
 * Which HTTP header names carry credentials. Storage keeps their values out of exports and run
 * records; the settings screen masks them as it shows them. Shared, so both agree.
 */
const SECRET_HEADER =
  /^(authorization|proxy-authorization|cookie|set-cookie)$|key|token|secret|passw|pwd|authoriz|auth(?!or)|session|signature|credential/i

/** True for header names whose values are credentials (Authorization, x-api-key, *token*, ...). */
export function isSecretHeaderName(name: string): boolean {
  return SECRET_HEADER.test(name.trim())
}
