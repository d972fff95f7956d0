/**
 * The CLI's readable log: streamed text under a header per node (repeated when nodes running
 * side by side take turns), guard alerts, one line per finished, failed or skipped node, and
 * the flow's outputs at the end. `--json` bypasses all of this and prints raw events. Every text
 * that comes from the file, a model or a server is shown with its control characters escaped.
 */
import type {
  ApprovalDecisionEvent,
  CanvasPlace,
  FlowDocument,
  FlowNode,
  NestingSegment,
  RunEvent,
  Usage,
} from '../engine/index.ts'
import { nodeCatalog } from '../nodes/registry.ts'
import { canvasPlace, valueToText } from '../engine/index.ts'
import { manyLines, oneLine } from './terminalText.ts'
import { argumentsLine } from './approval.ts'
import { formatUsd } from '../engine/run.ts'

export interface Style {
  bold(text: string): string
  dim(text: string): string
  red(text: string): string
  green(text: string): string
  yellow(text: string): string
}

const plain: Style = { bold: (t) => t, dim: (t) => t, red: (t) => t, green: (t) => t, yellow: (t) => t }

/** ANSI colours, for terminals only (and never when NO_COLOR is set). */
export function ansiStyle(): Style {
  const wrap = (open: number, close: number) => (text: string) => `\u001b[${open}m${text}\u001b[${close}m`
  return { bold: wrap(1, 22), dim: wrap(2, 22), red: wrap(31, 39), green: wrap(32, 39), yellow: wrap(33, 39) }
}

/** A loop segment as the CLI names it: `each #2`. */
function step(segment: NestingSegment): string {
  return `${oneLine(segment.nodeId)} #${segment.iteration ?? 0}`
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`
}

/** `, 1234 tokens, $0.0123 (+2 unpriced calls)`: the cost only where the run's usage has it. */
function usageText(usage: Usage | undefined): string {
  if (!usage || usage.total === 0) return ''
  const tokens = `, ${usage.total} tokens${usage.estimated ? ' (estimated)' : ''}`
  if (usage.costUsd === undefined) return tokens
  const unpriced = usage.unpricedCalls ?? 0
  const unpricedText = unpriced > 0 ? ` (+${unpriced} unpriced call${unpriced === 1 ? '' : 's'})` : ''
  if (usage.costUsd === null) return `${tokens}, cost unknown${unpricedText}`
  return `${tokens}, ${formatUsd(usage.costUsd)}${unpricedText}`
}

/** `  ✓ agent: approved (by user) with {"id":"B-2"}` / `  ✗ agent: declined (by timeout)`. */
function approvalLine(event: ApprovalDecisionEvent, where: string, s: Style): string {
  const by = `(by ${event.by})`
  if (event.decision === 'rejected') return s.yellow(`  ✗ ${where}: call declined ${by}`)
  const edited = event.args === undefined ? '' : ` with ${argumentsLine(event.args)}`
  return s.green(`  ✓ ${where}: call approved ${by}${edited}`)
}

export class HumanPrinter {
  /** Whose text is streaming: the header `where` names (a body node's iteration too) and channel. */
  private streaming: { where: string; channel: string } | undefined
  private atLineStart = true
  private readonly outputs = new Map<string, Record<string, unknown>>()

  constructor(
    private readonly doc: FlowDocument,
    private readonly write: (text: string) => void,
    private readonly style: Style = plain,
  ) {}

  /** A node's name, and for a loop body's node which iteration of which loop (`each #2`). */
  private where(nodeId: string, loops: readonly NestingSegment[]): string {
    const name = this.name(nodeId)
    return loops.length === 0 ? name : `${name} [${loops.map(step).join(' > ')}]`
  }

  /** A node of the flow as the log names it (`Label (id)`), safe to print. */
  nodeName(nodeId: string): string {
    return this.name(nodeId)
  }

  private name(nodeId: string): string {
    const node = this.doc.nodes.find((n) => n.id === nodeId)
    const label = node?.data.label?.trim()
    return oneLine(label && label !== nodeId ? `${label} (${nodeId})` : nodeId)
  }

  private line(text: string): void {
    this.endStream()
    this.write(`${text}\n`)
  }

  private endStream(): void {
    if (!this.atLineStart) this.write('\n')
    this.atLineStart = true
    this.streaming = undefined
  }

  print(event: RunEvent): void {
    const s = this.style
    // Where the event happened (engine nesting.ts): a sub-flow's events print under the calling node.
    const place = 'nodeId' in event && event.nesting !== undefined ? canvasPlace(event) : undefined
    if (place?.inner) return this.printInner(event, this.innerWhere(event, place))
    const loops = place?.loops ?? []
    switch (event.type) {
      case 'runStart':
        this.line(
          s.bold(
            `▶ ${oneLine(this.doc.metadata.name || this.doc.metadata.id)}: ${event.nodeIds.length} nodes`,
          ),
        )
        break
      case 'nodeStart':
        this.line(s.dim(`● ${this.where(event.nodeId, loops)} started`))
        break
      case 'nodeChunk':
        this.chunk(event.nodeId, event.channel, event.text, this.where(event.nodeId, loops))
        break
      case 'guard':
        this.line(
          s.yellow(
            `  ⚠ ${this.where(event.nodeId, loops)} [${event.layer} ${event.level}] ${oneLine(event.message)}`,
          ),
        )
        break
      case 'nodeFinish':
        // A body node finishes once per iteration; the loop's own output holds them all.
        if (event.nesting === undefined) this.outputs.set(event.nodeId, event.output)
        this.line(
          s.green(
            `✓ ${this.where(event.nodeId, loops)} ${event.status === 'stopped' ? 'stopped early' : 'finished'}`,
          ) + s.dim(` in ${seconds(event.durationMs)}${usageText(event.usage)}`),
        )
        break
      case 'nodeError':
        this.line(
          s.red(`✗ ${this.where(event.nodeId, loops)} failed [${event.code}]: ${oneLine(event.message)}`),
        )
        break
      case 'nodeSkipped':
        this.line(
          s.dim(`○ ${this.where(event.nodeId, loops)} skipped: ${oneLine(event.message ?? event.reason)}`),
        )
        break
      case 'approvalRequest':
        this.line(
          s.yellow(
            `  ⏸ ${this.where(event.nodeId, loops)} waits for approval: ${oneLine(event.tool)} ${argumentsLine(event.args)}`,
          ),
        )
        break
      case 'approvalDecision':
        this.line(approvalLine(event, this.where(event.nodeId, loops), s))
        break
      case 'runFinish':
        this.finish(event.status, event.durationMs, event.usage, event.stopReason)
        break
    }
  }

  /** `Call (call) [each #1] › summarise #0 › fmt`: the calling node of this flow, then the way down. */
  private innerWhere(event: RunEvent, place: CanvasPlace): string {
    const below = place.below.map((s) => (s.kind === 'loop' ? step(s) : s.nodeId))
    const nodeId = 'nodeId' in event ? event.nodeId : ''
    return [this.where(place.nodeId, place.loops), ...below.map(oneLine), oneLine(nodeId)].join(' › ')
  }

  /**
   * A sub-flow's node events: their ids belong to the called flow, and the calling node's own
   * line says how the sub-flow went, so only streamed text, failures and guard alerts inside are
   * shown, named by the way down from the calling node.
   */
  private printInner(event: RunEvent, where: string): void {
    if (event.type === 'nodeChunk') return this.chunk(event.nodeId, event.channel, event.text, where, true)
    if (event.type !== 'nodeError' && event.type !== 'guard') return
    if (event.type === 'nodeError' && event.code === 'CANCELLED') return
    const text =
      event.type === 'nodeError'
        ? this.style.red(`  ↳ ${where} failed [${event.code}]: ${oneLine(event.message)}`)
        : this.style.yellow(`  ↳ ${where} [${event.layer} ${event.level}] ${oneLine(event.message)}`)
    this.line(text)
  }

  /**
   * Streamed text under a header naming its node (`where`, a body node's iteration too), repeated
   * when another stream takes over: iterations running side by side take turns, and without it
   * their texts ran together.
   */
  private chunk(nodeId: string, channel: string, raw: string, where: string, inner = false): void {
    const s = this.style
    const text = manyLines(raw)
    // Output nodes only echo their values, which the Outputs section prints at the end.
    const type = inner ? undefined : this.doc.nodes.find((n) => n.id === nodeId)?.type
    if (type !== undefined && nodeCatalog.role(type) === 'flowOutput') return
    if (this.streaming?.where !== where || this.streaming.channel !== channel) {
      this.endStream()
      const what = channel === 'output' ? '' : ` ${channel}`
      this.write(s.dim(`── ${where}${what} ──\n`))
      this.streaming = { where, channel }
    }
    this.write(channel === 'output' ? text : s.dim(text))
    if (text !== '') this.atLineStart = text.endsWith('\n')
  }

  private finish(status: string, durationMs: number, usage: Usage, stopReason?: string): void {
    const s = this.style
    const verdict =
      status === 'success'
        ? s.green('Run succeeded')
        : status === 'cancelled'
          ? s.yellow('Run stopped')
          : status === 'stopped'
            ? s.yellow(stopReason === 'budget' ? 'Run stopped by its budget' : 'Run stopped')
            : s.red('Run failed')
    this.line(`${s.bold(verdict)} in ${seconds(durationMs)}${usageText(usage)}`)
    const finals = this.finalOutputs()
    if (finals.length === 0) return
    this.write(s.bold('\nOutputs\n'))
    for (const [nodeId, output] of finals) {
      const entries = Object.entries(output)
      if (finals.length > 1) this.write(s.dim(`${this.name(nodeId)}\n`))
      for (const [key, value] of entries) this.write(`  ${oneLine(key)}: ${manyLines(valueToText(value))}\n`)
    }
  }

  /** Output nodes when the flow has some; otherwise the nodes nothing else reads from. */
  private finalOutputs(): Array<[string, Record<string, unknown>]> {
    const isOutput = (n: FlowNode) => nodeCatalog.role(n.type) === 'flowOutput'
    const hasOutputNodes = this.doc.nodes.some(isOutput)
    const chosen = this.doc.nodes.filter((n) =>
      hasOutputNodes
        ? isOutput(n) && this.outputs.has(n.id)
        : this.outputs.has(n.id) && !this.doc.edges.some((e) => e.source === n.id),
    )
    return chosen.map((n) => [n.id, this.outputs.get(n.id) as Record<string, unknown>])
  }
}
