/**
 * Plugs batch runs into the app (an area: loads on the first click of `batch-open`): the batch
 * service with the browser's run host, the data worker, the `batchRuns` table and the run
 * service's `openRun` (through the services, which load the runs area when needed).
 */
import { i18next } from '../../i18n/index.ts'
import { engineRegistry } from '../../nodes/registry.ts'
import { clearBatchRuns, saveBatchRuns } from '../../storage/repositories/batchRuns.ts'
import { batchStore } from '../../store/batchStore.ts'
import { settingsStore } from '../../store/settingsStore.ts'
import type { AppServices } from '../../ui/services.ts'
import type { AppCore, Installed } from '../core/createApp.ts'
import { browserDownload } from '../core/downloadService.ts'
import { browserRunHost, settingsKeyAccess, storedFlowLoader } from '../runs/install.ts'
import { createBatchService } from './batchService.ts'
import { browserDataPort, DataClient } from './dataClient.ts'

export function installBatch(core: AppCore, services: AppServices): Installed {
  let data: DataClient | undefined
  const service = createBatchService({
    store: batchStore,
    flows: core.flows,
    registry: engineRegistry,
    settings: () => settingsStore.getState().settings,
    flush: () => services.flows.flush(),
    host: browserRunHost(),
    keys: settingsKeyAccess(core),
    storage: {
      clear: async (flowId) => void (await clearBatchRuns(await core.db(), flowId)),
      write: async (rows, replace, scrub) => saveBatchRuns(await core.db(), rows, { replace, scrub }),
    },
    data: () => (data ??= new DataClient(browserDataPort())),
    run: () => services.run,
    loadFlow: storedFlowLoader(core),
    download: browserDownload,
    translate: (key, values) => i18next.t(key, values),
  })
  return {
    services: { batch: service },
    stop: () => {
      service.dispose()
      data?.dispose()
    },
  }
}
