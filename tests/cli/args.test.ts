import { describe, expect, it } from 'vitest'
import { parseArgs } from '../../src/cli/args.ts'
import { unusedInputs } from '../../src/cli/load.ts'
import { flow } from '../support/flowBuilders.ts'

describe('parseArgs', () => {
  it('reads a run with every option, in either --name value or --name=value form', () => {
    expect(
      parseArgs([
        'run',
        'f.json',
        '--input',
        'a=1',
        '-i',
        'b=x=y',
        '--input=n1.c=',
        '--base-url=http://h/v1',
        '--model',
        'm',
        '--api-key-env',
        'K',
        '--no-stream',
        '--knowledge',
        'kb_a=docs/a',
        '--knowledge=kb_b=b.md',
        '--embeddings-model',
        'e',
        '--mcp',
        'ev=http://127.0.0.1:3001/mcp',
        '--mcp=fs=stdio:npx -y "my server" .',
        '--json',
      ]),
    ).toEqual({
      command: 'run',
      file: 'f.json',
      inputs: { a: '1', b: 'x=y', 'n1.c': '' },
      baseUrl: 'http://h/v1',
      model: 'm',
      apiKeyEnv: 'K',
      knowledge: { kb_a: 'docs/a', kb_b: 'b.md' },
      embeddingsModel: 'e',
      mcp: [
        { id: 'ev', transport: 'http', url: 'http://127.0.0.1:3001/mcp' },
        { id: 'fs', transport: 'stdio', command: 'npx', args: ['-y', 'my server', '.'] },
      ],
      stream: false,
      json: true,
      otlpHeaders: {},
      traceContent: false,
    })
  })

  it('explains what is wrong with a bad command line', () => {
    const reason = (argv: string[]) => {
      const parsed = parseArgs(argv)
      return parsed.command === 'error' ? parsed.reason : undefined
    }
    expect(reason([])).toContain('no command')
    expect(reason(['go', 'f.json'])).toContain('unknown command "go"')
    expect(reason(['run'])).toContain('no workflow file')
    expect(reason(['run', 'a.json', 'b.json'])).toContain('one workflow file at a time')
    expect(reason(['run', 'f.json', '--input', 'novalue'])).toContain('key=value')
    expect(reason(['run', 'f.json', '--script'])).toContain('--script needs a value')
    expect(reason(['run', 'f.json', '--script', 's.json', '--base-url', 'http://x'])).toContain(
      'cannot be used together',
    )
    expect(reason(['run', 'f.json', '--model', 'x'])).toContain('go with --base-url')
  })

  it('takes --site-base as a folder URL and refuses anything but a full http(s) URL', () => {
    const siteBase = (value: string) => {
      const parsed = parseArgs(['run', 'f.json', '--site-base', value])
      return parsed.command === 'run'
        ? parsed.siteBase
        : parsed.command === 'error'
          ? parsed.reason
          : undefined
    }
    expect(siteBase('https://you.github.io/wardflow')).toBe('https://you.github.io/wardflow/')
    expect(siteBase('http://127.0.0.1:4174/wardflow/')).toBe('http://127.0.0.1:4174/wardflow/')
    expect(siteBase('http://localhost:8080')).toBe('http://localhost:8080/')
    expect(siteBase('./public/')).toContain('--site-base expects a full http(s) URL')
    expect(siteBase('file:///srv/site/')).toContain('--site-base expects a full http(s) URL')
  })

  it('recognises help and version', () => {
    expect(parseArgs(['--help'])).toEqual({ command: 'help' })
    expect(parseArgs(['run', 'f.json', '-h'])).toEqual({ command: 'help' })
    expect(parseArgs(['--version'])).toEqual({ command: 'version' })
  })
})

describe('unusedInputs', () => {
  it('names run inputs that no Input node would use', () => {
    const doc = flow()
      .node('in', 'input', { values: { q: '' } })
      .node('t', 'template', { template: '' })
      .build()
    expect(unusedInputs(doc, { q: '1', 'in.q': '2', 'in.extra': '3', typo: '4', 't.q': '5' })).toEqual([
      'typo',
      't.q',
    ])
  })
})
