import { describe, expect, it } from 'vitest'
import { forwardingStandIn } from '../../src/app/core/standIns.ts'
import { noopFlowsService, type AppServices } from '../../src/ui/services.ts'

describe('the forwarding stand-in', () => {
  it('loads the area, then calls the same method of the real service with the same arguments', async () => {
    const opened: string[] = []
    let loads = 0
    const real: AppServices = {
      flows: noopFlowsService,
      templates: {
        openGallery: () => void opened.push('gallery'),
        openLoopBreaker: () => {},
        openTemplate: async (id) => {
          opened.push(id)
          return true
        },
      },
    }
    const load = async () => {
      loads += 1
      return real
    }
    const standIn = forwardingStandIn(load, 'templates', ['openGallery', 'openTemplate'])
    expect(loads).toBe(0)
    expect(await standIn.openTemplate?.('research-agent')).toBe(true)
    standIn.openGallery()
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect(opened).toEqual(['research-agent', 'gallery'])
    expect(loads).toBe(2)
  })

  it('ends the call with undefined when the area fails to load (the banner already says why)', async () => {
    const standIn = forwardingStandIn(
      async () => {
        throw new Error('Failed to fetch dynamically imported module')
      },
      'import',
      ['importFile'],
    )
    await expect(standIn.importFile(new File(['{}'], 'flow.json'))).resolves.toBeUndefined()
  })

  it('answers its own methods without loading the area', () => {
    let loads = 0
    const standIn = forwardingStandIn(
      async () => {
        loads += 1
        return { flows: noopFlowsService }
      },
      'settings',
      [],
      { open: () => {} },
    )
    standIn.open()
    expect(loads).toBe(0)
    expect(Object.keys(standIn)).toEqual(['open'])
  })
})
