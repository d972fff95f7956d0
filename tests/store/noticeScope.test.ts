import { describe, expect, it } from 'vitest'
import { createNoticeStore } from '../../src/store/noticeStore.ts'

describe('error banners belong to what caused them', () => {
  it("drops a flow's banner when another flow opens, and keeps the app's", () => {
    const notices = createNoticeStore()
    notices.getState().flowOpened('a')
    notices.getState().showError({ code: 'RUN_REFUSED', message: 'Write the code to run.', flowId: 'a' })
    notices.getState().flowOpened('a')
    expect(notices.getState().banner?.code).toBe('RUN_REFUSED')
    notices.getState().flowOpened('b')
    expect(notices.getState().banner).toBeNull()

    notices.getState().showError({ code: 'IMPORT_INVALID', message: 'broken.json was not imported' })
    notices.getState().flowOpened('c')
    expect(notices.getState().banner?.code).toBe('IMPORT_INVALID')
  })

  it('does not show the failure of a flow that is no longer open', () => {
    const notices = createNoticeStore()
    notices.getState().flowOpened('b')
    notices.getState().showError({ code: 'RUN_FAILED', message: 'late failure of a', flowId: 'a' })
    expect(notices.getState().banner).toBeNull()
  })
})
