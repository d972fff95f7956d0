/**
 * The GitHub Pages build (base /wardflow/) from a plain static server with no index.html
 * fallback (playwright.pages.config.ts): it loads with every request staying on the site, no
 * 404s (the shared fixture fails on any), and the stuck agent shows the hint, then the trip.
 * templates.spec.ts runs in this config too: every template runs under the sub-path.
 */
import { expect, test } from './support/fixtures.ts'

const STUCK_HINT =
  '[System Hint: You invoked tool "query_orders" twice with identical parameters. If polling or awaiting state change, continue; otherwise synthesize your final answer.]'
const STUCK_TRIP =
  '[Agent Deadlock Protection] Tripped: 3 consecutive identical calls to "query_orders". Terminating loop to prevent token waste.'

test('the site is really served without a fallback', async ({ request, baseURL }) => {
  expect(new URL(baseURL ?? '').pathname).toBe('/wardflow/')
  expect((await request.get('./')).status()).toBe(200)
  expect((await request.get('./no/such/page')).status()).toBe(404)
  expect((await request.get('/index.html')).status()).toBe(404)
})

test('the Pages build loads under the sub-path with every request on the site, and the loop breaker works', async ({
  app,
  page,
  context,
  baseURL,
}) => {
  const site = new URL(baseURL ?? '')
  const requests: string[] = []
  context.on('request', (request) => requests.push(request.url()))
  const offSite = (): string[] =>
    requests.filter((url) => {
      const u = new URL(url)
      if (u.protocol === 'data:' || u.protocol === 'blob:') return false
      return u.origin !== site.origin || !u.pathname.startsWith(site.pathname)
    })

  await app.open()
  await page.waitForLoadState('networkidle')
  expect(requests.length).toBeGreaterThan(0)
  expect(offSite(), 'requests on load that left the site').toEqual([])

  await app.templates.loopBreakerButton().click()
  await expect(app.canvas.node('agent')).toBeVisible()
  await app.run.start()
  const alerts = app.canvas.guardAlerts('agent')
  await expect(alerts.and(page.locator('[data-layer="loop"][data-level="hint"]'))).toHaveText(STUCK_HINT, {
    timeout: 20_000,
  })
  await expect(alerts.and(page.locator('[data-layer="loop"][data-level="trip"]'))).toHaveText(STUCK_TRIP, {
    timeout: 20_000,
  })
  const order = await alerts.evaluateAll((els) => els.map((el) => el.getAttribute('data-level')))
  expect(order).toEqual(['hint', 'trip'])
  await app.run.expectStatus('answer', 'success')
  await expect(app.canvas.console('answer')).toContainText('I checked the order system three times')

  // The demo flow's own calls (templates, QuickJS) stay on the site as well. Its replies carry
  // usage, so it loads no tokenizer; templates.spec.ts runs flows that do (llm-chain).
  expect(offSite(), 'requests during the demo run that left the site').toEqual([])
})
