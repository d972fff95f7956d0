/**
 * Approvals a paused run waits on (Dexie v6 `approvals`, flow-control.md "MCP tools and
 * approval": a paused run survives a reload). A row is written when an Agent tool call asks and
 * removed when it is decided or its run ends; a row still there after a reload is a question the
 * page lost its answer path for, which the runs area shows again and continues the run from.
 * Rows are read through a schema: one a newer or damaged build left is skipped, never trusted.
 */
import { z } from 'zod'
import type { WardflowDb } from '../db.ts'
import { guard } from '../errors.ts'

export const approvalRowSchema = z.object({
  /** `approvalRowId(runId, nodeId, callId)`: a call id alone repeats across nodes. */
  id: z.string().min(1),
  runId: z.string().min(1),
  flowId: z.string().min(1),
  /** The Agent node that asked (the card shows in its console). */
  nodeId: z.string().min(1),
  /** The canvas node a continued run starts from (the Agent, or the sub-flow node around it). */
  fromNodeId: z.string().min(1),
  callId: z.string().min(1),
  tool: z.string(),
  /** The parsed arguments the model sent (secrets already scrubbed by the run's scrubber). */
  args: z.unknown(),
  /** When it was asked (epoch ms): the timeout counts from here, across a reload. */
  askedAt: z.number(),
  /** The run's approval timeout (ms) when it asked. */
  timeoutMs: z.number().nonnegative(),
})

export type ApprovalRow = z.infer<typeof approvalRowSchema>

export function approvalRowId(runId: string, nodeId: string, callId: string): string {
  return `${runId}\u0000${nodeId}\u0000${callId}`
}

export function putApproval(db: WardflowDb, row: ApprovalRow): Promise<void> {
  return guard('saving a pending approval', async () => {
    await db.approvals.put(row)
  })
}

export function removeApproval(db: WardflowDb, id: string): Promise<void> {
  return guard('removing a pending approval', () => db.approvals.delete(id))
}

/** Drops every row of `runId` (the run ended, however). Returns how many. */
export function removeRunApprovals(db: WardflowDb, runId: string): Promise<number> {
  return guard('removing a run’s pending approvals', () => db.approvals.where('runId').equals(runId).delete())
}

/** Every valid row, oldest question first. */
export async function listApprovals(db: WardflowDb): Promise<ApprovalRow[]> {
  const rows = await guard('loading pending approvals', () => db.approvals.toArray())
  return rows
    .flatMap((row) => {
      const parsed = approvalRowSchema.safeParse(row)
      return parsed.success ? [parsed.data] : []
    })
    .sort((a, b) => a.askedAt - b.askedAt)
}
