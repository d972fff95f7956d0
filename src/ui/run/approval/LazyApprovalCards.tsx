/**
 * The node console's slot for pending approvals. Only this subscription is in the page-start
 * bundle; the card itself (ApprovalCard.tsx) is a lazy chunk fetched the first time a node of
 * this page has a pending approval, so a page that never asks pays nothing for it.
 */
import { lazy, Suspense } from 'react'
import { useStore } from 'zustand'
import { approvalStore, pendingKey } from '../../../store/approvalStore.ts'

const ApprovalCard = lazy(() => import('./ApprovalCard.tsx'))

/** The pending calls of node `nodeId`, oldest first. */
export function ApprovalCards({ nodeId }: { nodeId: string }) {
  const pending = useStore(approvalStore.store, (state) => state.pending)
  const mine = pending.filter((p) => p.nodeId === nodeId)
  if (mine.length === 0) return null
  return (
    <Suspense fallback={null}>
      {mine.map((p) => (
        <ApprovalCard key={pendingKey(p)} pending={p} />
      ))}
    </Suspense>
  )
}
