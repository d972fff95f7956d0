/**
 * The shared fixture of every spec: a fresh browser context (so an empty IndexedDB), the app's
 * page objects, and a guard that fails the test on any console error, uncaught page error or
 * HTTP response >= 400. A test that expects one of those names it with
 * `test.use({ allowedErrors: /pattern/ })` (one RegExp: Playwright reads an array as options).
 */
import { test as base, expect, type Page } from '@playwright/test'
import { WardflowApp } from '../pages/WardflowApp.ts'

export interface PageProblems {
  list: string[]
}

type Fixtures = {
  /** Console/HTTP problems the test expects (matched against the problem's text), or null. */
  allowedErrors: RegExp | null
  problems: PageProblems
  app: WardflowApp
}

/** Watches a page for console errors, page errors and HTTP >= 400 answers. */
export function watchProblems(page: Page, allowed: RegExp | null): PageProblems {
  const problems: PageProblems = { list: [] }
  const isAllowed = (text: string): boolean => allowed !== null && allowed.test(text)
  page.on('console', (message) => {
    if (message.type() !== 'error') return
    const where = message.location().url
    const text = `console.error: ${message.text()}${where ? ` (${where})` : ''}`
    if (!isAllowed(text)) problems.list.push(text)
  })
  page.on('pageerror', (error) => {
    const text = `page error: ${error.message}`
    if (!isAllowed(text)) problems.list.push(text)
  })
  page.on('response', (response) => {
    if (response.status() < 400) return
    const text = `HTTP ${response.status()} ${response.request().method()} ${response.url()}`
    if (!isAllowed(text)) problems.list.push(text)
  })
  return problems
}

export const test = base.extend<Fixtures>({
  allowedErrors: [null, { option: true }],
  problems: [
    async ({ page, allowedErrors }, use) => {
      const problems = watchProblems(page, allowedErrors)
      await use(problems)
      expect(problems.list, 'no console errors, page errors or HTTP >= 400 responses').toEqual([])
    },
    { auto: true },
  ],
  app: async ({ page, problems }, use) => {
    void problems
    await use(new WardflowApp(page))
  },
})

export { expect }
