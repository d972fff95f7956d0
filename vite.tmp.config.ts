import base from './vite.config.ts'
import type { Plugin } from 'vite'
const probe: Plugin = {
  name: 'probe',
  generateBundle(_o, bundle) {
    for (const [name, chunk] of Object.entries(bundle))
      if (chunk.type === 'chunk' && name.includes('index-'))
        console.log('SCHED', name, Object.keys(chunk.modules).some((id) => id.endsWith('engine/scheduler.ts')))
  },
}
export default { ...base, plugins: [...(base.plugins ?? []), probe] }
