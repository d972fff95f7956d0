/**
 * The zod the editor's start path uses: the functional build (`zod/mini`), which bundles only
 * the validators these schemas use (~11 KB gzip here, against ~27 KB for the classic API, whose
 * methods pull in every schema type). With English messages, as the classic API sets them.
 * Code that loads with an area (providers, run records, file formats) keeps the classic API;
 * both share zod's core, so their schemas nest in each other.
 */
import { config, z } from 'zod/mini'
import { en } from 'zod/locales'

config(en())

export { z }
