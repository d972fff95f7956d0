// @vitest-environment jsdom
import { beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createApp, lazyArea, type ServiceInstaller } from '../../src/app/core/createApp.ts'
import { noopFlowsService, type AppServices } from '../../src/ui/services.ts'
import { forwardingStandIn, pendingRun } from '../../src/app/core/standIns.ts'
import { initI18n } from '../../src/i18n/index.ts'
import { createAreaStore } from '../../src/store/areaStore.ts'
import { createFlowStore } from '../../src/store/flowStore.ts'
import { noticeStore } from '../../src/store/noticeStore.ts'
import { runStore } from '../../src/store/runStore.ts'
import { freshDb } from '../storage/support.ts'

beforeAll(async () => {
  await initI18n('en')
})

beforeEach(() => {
  noticeStore.getState().dismissError()
})

/** An app with one on-demand "templates" area whose real service records its calls. */
async function appWith(load: () => Promise<ServiceInstaller>) {
  const db = await freshDb()
  const areas = createAreaStore()
  const app = createApp({
    flows: createFlowStore(),
    openDb: async () => db,
    areas,
    installers: [
      lazyArea('templates', load, (ensure) => ({
        templates: forwardingStandIn(ensure, 'templates', ['openGallery', 'openLoopBreaker']),
        // The area below never installs an export service: this stand-in must go.
        export: forwardingStandIn(ensure, 'export', ['exportWorkflow']),
      })),
    ],
  })
  await app.start()
  return { app, areas }
}

function recordingInstaller(calls: string[]): ServiceInstaller {
  return () => ({
    services: {
      templates: {
        openGallery: () => void calls.push('gallery'),
        openLoopBreaker: () => void calls.push('demo'),
      },
    },
    start: () => void calls.push('start'),
  })
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0))

describe('areas that load on first use', () => {
  it('publishes stand-ins at once and loads nothing until one is used', async () => {
    let loads = 0
    const { app, areas } = await appWith(async () => {
      loads += 1
      return recordingInstaller([])
    })
    expect(app.servicesStore.getState().templates).toBeDefined()
    expect(loads).toBe(0)
    expect(areas.getState().requested.size).toBe(0)
  })

  it('the first call loads the area once, installs it and reaches the real service', async () => {
    const calls: string[] = []
    let loads = 0
    const { app, areas } = await appWith(async () => {
      loads += 1
      return recordingInstaller(calls)
    })
    const standIn = app.servicesStore.getState().templates
    standIn?.openGallery()
    standIn?.openLoopBreaker()
    expect(areas.getState().loading.has('templates')).toBe(true)
    await app.core.area('templates')
    await settle()
    expect(loads).toBe(1)
    expect(calls).toEqual(['start', 'gallery', 'demo'])
    expect(areas.getState().requested.has('templates')).toBe(true)
    expect(areas.getState().loading.size).toBe(0)
    expect(app.servicesStore.getState().templates).not.toBe(standIn)
    const services: AppServices = app.servicesStore.getState()
    expect(services.export).toBeUndefined()
  })

  it('reports a failed load in the banner and tries again on the next use', async () => {
    const calls: string[] = []
    let attempt = 0
    const { app, areas } = await appWith(async () => {
      attempt += 1
      if (attempt === 1) throw new Error('Failed to fetch dynamically imported module')
      return recordingInstaller(calls)
    })
    expect(await app.services.areas?.load('templates')).toBe(false)
    expect(noticeStore.getState().banner).not.toBeNull()
    expect(areas.getState().requested.has('templates')).toBe(false)
    app.servicesStore.getState().templates?.openGallery()
    await app.core.area('templates')
    await settle()
    expect(calls).toEqual(['start', 'gallery'])
  })
})

describe('the runs stand-in', () => {
  function standIn() {
    const calls: string[] = []
    let resolve: (services: AppServices) => void = () => {}
    const loading = new Promise<AppServices>((r) => (resolve = r))
    const load = () => loading
    const run = forwardingStandIn(load, 'run', ['openRun'], pendingRun(load))
    const installed: AppServices = {
      flows: noopFlowsService,
      run: { run: () => void calls.push('run'), stop: () => void calls.push('stop') },
    }
    return { run, calls, install: () => resolve(installed) }
  }

  beforeEach(() => runStore.getState().actions.setPhase('idle'))

  it('shows "preparing" at once and starts the real run once the area is there', async () => {
    const { run, calls, install } = standIn()
    run?.run()
    expect(runStore.getState().phase).toBe('preparing')
    run?.run()
    install()
    await settle()
    expect(calls).toEqual(['run'])
    expect(runStore.getState().phase).toBe('idle')
  })

  it('Stop before the area arrived cancels the run', async () => {
    const { run, calls, install } = standIn()
    run?.run()
    run?.stop()
    expect(runStore.getState().phase).toBe('idle')
    install()
    await settle()
    expect(calls).toEqual([])
  })
})
