import { describe, expect, it } from 'vitest'
import { createApprovalStore, pendingKey } from '../../src/store/approvalStore.ts'

const request = { runId: 'r1', nodeId: 'agent', callId: 'c1', tool: 'lookup', args: { q: 'cats' } }

describe('browser approval store', () => {
  it('holds a pending request until the person approves it with edited arguments', async () => {
    const approvals = createApprovalStore()
    const answer = approvals.port.ask(request, new AbortController().signal)
    const [pending] = approvals.store.getState().pending
    expect(pending?.tool).toBe('lookup')
    expect(pending?.argsText).toBe(JSON.stringify({ q: 'cats' }, null, 2))
    expect(
      approvals.answer(pendingKey(request), { decision: 'approved', argsText: '{"q":"dogs"}', always: true }),
    ).toBeUndefined()
    await expect(answer).resolves.toEqual({
      decision: 'approved',
      by: 'user',
      args: { q: 'dogs' },
      always: true,
    })
    expect(approvals.store.getState().pending).toEqual([])
  })

  it('two Agents asking with the same call id (per-node numbering) are two questions', async () => {
    const approvals = createApprovalStore()
    const other = { ...request, nodeId: 'critic' }
    const first = approvals.port.ask(request, new AbortController().signal)
    const second = approvals.port.ask(other, new AbortController().signal)
    expect(approvals.store.getState().pending).toHaveLength(2)
    approvals.answer(pendingKey(other), { decision: 'rejected' })
    await expect(second).resolves.toMatchObject({ decision: 'rejected' })
    expect(approvals.store.getState().pending.map((p) => p.nodeId)).toEqual(['agent'])
    approvals.answer(pendingKey(request), { decision: 'approved', argsText: '{}' })
    await expect(first).resolves.toMatchObject({ decision: 'approved' })
  })

  it('refuses invalid JSON and keeps the request pending', () => {
    const approvals = createApprovalStore()
    void approvals.port.ask(request, new AbortController().signal)
    expect(approvals.answer(pendingKey(request), { decision: 'approved', argsText: '{q:' })).toBe(
      'invalidJson',
    )
    expect(approvals.store.getState().pending).toHaveLength(1)
  })

  it('rejects by user, and refuses unknown calls', async () => {
    const approvals = createApprovalStore()
    const answer = approvals.port.ask(request, new AbortController().signal)
    expect(approvals.answer('nope', { decision: 'rejected' })).toBe('unknownCall')
    approvals.answer(pendingKey(request), { decision: 'rejected' })
    await expect(answer).resolves.toEqual({ decision: 'rejected', by: 'user' })
  })

  it('withdraws the question when the engine ends the wait (timeout or Stop)', () => {
    const approvals = createApprovalStore()
    const ended = new AbortController()
    void approvals.port.ask(request, ended.signal)
    ended.abort()
    expect(approvals.store.getState().pending).toEqual([])
    expect(approvals.answer(pendingKey(request), { decision: 'rejected' })).toBe('unknownCall')
  })
})

describe('questions restored after a reload', () => {
  const restored = {
    ...request,
    argsText: '{}',
    restored: { askedAt: 1, timeoutMs: 10 },
  }

  it('hand their answer to the runs area, which may refuse it while busy (the card stays)', () => {
    const approvals = createApprovalStore()
    const answers: unknown[] = []
    let accept = false
    approvals.restore([restored], (_pending, answer) => {
      answers.push(answer)
      return accept
    })
    expect(approvals.answer(pendingKey(request), { decision: 'approved', argsText: '{q:' })).toBe(
      'invalidJson',
    )
    expect(approvals.answer(pendingKey(request), { decision: 'rejected' })).toBe('busy')
    expect(approvals.store.getState().pending).toHaveLength(1)
    accept = true
    expect(
      approvals.answer(pendingKey(request), { decision: 'approved', argsText: '{"q":"x"}' }),
    ).toBeUndefined()
    expect(answers).toEqual([
      { decision: 'rejected', by: 'user' },
      { decision: 'approved', by: 'user', args: { q: 'x' } },
    ])
    expect(approvals.store.getState().pending).toEqual([])
  })

  it('a new restore replaces the restored questions and keeps live ones', () => {
    const approvals = createApprovalStore()
    void approvals.port.ask({ ...request, callId: 'live' }, new AbortController().signal)
    approvals.restore([restored], () => true)
    approvals.restore([], () => true)
    expect(approvals.store.getState().pending.map((p) => p.callId)).toEqual(['live'])
  })
})
