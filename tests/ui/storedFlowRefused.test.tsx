// @vitest-environment jsdom
/**
 * Opening a stored flow this build cannot read (saved by a newer Wardflow): the banner says so
 * in the reader's language, naming the flow and the versions, and the row stays as stored.
 */
import { act, render, screen } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createFlowsService } from '../../src/app/core/flowsService.ts'
import { CURRENT_DOC_SCHEMA_VERSION } from '../../src/storage/restore/index.ts'
import type { WardflowDb } from '../../src/storage/index.ts'
import { flowStore } from '../../src/store/flowStore.ts'
import { libraryStore } from '../../src/store/libraryStore.ts'
import { noticeStore } from '../../src/store/noticeStore.ts'
import { ErrorBanner } from '../../src/ui/kit/ErrorBanner.tsx'
import { resetStores } from '../app/settingsSupport.ts'
import { freshDb, sampleFlow } from '../storage/support.ts'
import { useLanguage } from './settings/support.tsx'

const NEWER = CURRENT_DOC_SCHEMA_VERSION + 5

async function openNewerFlow(): Promise<{ db: WardflowDb; banner: HTMLElement }> {
  const db = await freshDb()
  await db.flows.put({
    id: 'future',
    name: 'From the future',
    updatedAt: '2026-01-01T00:00:00.000Z',
    schemaVersion: NEWER,
    doc: sampleFlow('future', 'From the future'),
  })
  const service = createFlowsService({
    db: () => Promise.resolve(db),
    flows: flowStore,
    library: libraryStore,
    notices: noticeStore,
    flush: () => Promise.resolve(),
  })
  render(<ErrorBanner />)
  await act(() => service.open('future'))
  return { db, banner: await screen.findByTestId('error-banner') }
}

beforeEach(() => {
  resetStores()
})
afterEach(async () => {
  await useLanguage('en')
})

describe('a stored flow saved by a newer Wardflow', () => {
  it('is refused in Chinese for a zh-CN reader, and left as stored', async () => {
    await useLanguage('zh-CN')
    const { db, banner } = await openNewerFlow()
    expect(banner).toHaveTextContent('保存的工作流“From the future”无法读取，已按存储时的原样保留。')
    expect(banner).toHaveTextContent(
      `此工作流由更新版本的 Wardflow 保存（文档版本 ${NEWER}，本应用最高读取 ${CURRENT_DOC_SCHEMA_VERSION}）。`,
    )
    expect(banner.textContent).not.toMatch(/newer Wardflow|could not be read|Saving/)
    expect((await db.flows.get('future'))?.schemaVersion).toBe(NEWER)
  })

  it('says the same in English', async () => {
    await useLanguage('en')
    const { banner } = await openNewerFlow()
    expect(banner).toHaveTextContent('The saved flow "From the future" could not be read.')
    expect(banner).toHaveTextContent(
      `This flow was saved by a newer Wardflow (document version ${NEWER}, this app reads up to ${CURRENT_DOC_SCHEMA_VERSION}).`,
    )
  })
})
